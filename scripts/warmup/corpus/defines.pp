# Defined types, collectors, exported resources and overrides (parsed only).
define example::vhost (
  String[1]           $docroot,
  Integer             $port     = 80,
  Optional[String[1]] $ssl_cert = undef,
  Array[String]       $aliases  = [],
  Hash                $headers  = {},
  Enum['on', 'off']   $access_log = 'on',
) {
  $safe = regsubst($title, '[^a-z0-9]+', '_', 'G')
  $ssl = $ssl_cert =~ NotUndef
  concat::fragment { "vhost-${safe}":
    target  => '/etc/httpd/conf.d/vhosts.conf',
    order   => sprintf('%03d', $port % 1000),
    content => epp('example/vhost.epp', {
      'name'    => $title,
      'port'    => $port,
      'ssl'     => $ssl,
      'aliases' => $aliases,
      'headers' => $headers.filter |$k, $v| { $v != '' },
    }),
  }
  @@nagios_service { "check_http_${safe}":
    check_command => "check_http!${title}!${port}",
    host_name     => $trusted['certname'],
    tag           => ['http', $facts['networking']['domain']],
  }
  unless empty($aliases) {
    $aliases.each |$a| {
      host { $a: ip => $facts['networking']['ip'], host_aliases => [$title] }
    }
  }
}

class example::collect {
  Nagios_service <<| tag == 'http' and tag == $facts['networking']['domain'] |>>
  User <| groups == 'admin' or (uid >= 1000 and uid < 2000) |> { shell +> '/bin/bash' }
  Package <| tag == 'example' |> -> Service <| title != 'sshd' |>
  File['/etc/motd'] {
    content => "Welcome to ${facts['networking']['fqdn']}\n",
    mode    => '0444',
  }
  Exec { path => $facts['path'], environment => ['LANG=C'] }
  @user { 'deploy':
    ensure     => present,
    uid        => 2001,
    managehome => true,
    groups     => ['admin', 'www-data'],
  }
  realize User['deploy']
  resources { 'firewall': purge => true }
  create_resources('example::vhost', lookup('example::vhosts', Hash, 'deep', {}), { 'port' => 8080 })
  ensure_resource('file', '/srv/www', { 'ensure' => 'directory' })
}

node 'app01.example.com', 'app02.example.com' {
  include example::service, example::collect
  example::vhost { ['www.example.com', 'api.example.com']:
    docroot => '/srv/www',
    port    => 443,
    headers => { 'X-Frame-Options' => 'DENY', 'X-Empty' => '' },
  }
}

node /^db\d{2}\.example\.com$/ {
  class { 'example::service': port => 5432, settings => { 'max_connections' => 200, 'fsync' => true } }
}
