bindings default {
  multibind Array[String], 'warm::admins' as 'warm::admins'
  bind to 'root' in 'warm::admins'
  when node 'warm.example.com' {
    bind String, 'warm::motd' to "Managed on ${::fqdn}"
  }
  bind variables to { warm_site => 'example' }
}
