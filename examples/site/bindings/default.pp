# The site's own bindings (confdir:/default): the highest layer.
bindings default {
  # Everyone who is an admin on every node; the inventory and the modules add to it.
  multibind Array[String], 'site::admins' as 'site::admins'
  bind to 'alice' in 'site::admins'

  # All web nodes run four nginx workers, web01 (more cores) twelve; Hiera's node
  # data for web01 (8) is shadowed by this layer.
  when role 'web' {
    bind Integer, 'profile::nginx::worker_processes' to 4
  }
  when node 'web01.example.com' {
    bind Integer, 'profile::nginx::worker_processes' to 12
  }

  # Evaluated per request: the facts are top-scope variables.
  bind String, 'site::motd' to "Managed by Puppet on ${::fqdn} (${::datacenter})"

  # Top-scope variables for every node.
  bind variables to { site_name => 'example.com', support_mail => 'ops@example.com' }
}
