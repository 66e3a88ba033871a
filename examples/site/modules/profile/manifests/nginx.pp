# nginx with one vhost per entry of profile::nginx::vhosts (from the role's data).
class profile::nginx (
  Integer[1]                              $worker_processes = $facts['processors']['count'],
  Hash[String[1], Profile::VhostSettings] $vhosts           = {},
) {
  File {
    owner => 'root',
    group => 'root',
    mode  => '0644',
  }

  package { 'nginx':
    ensure => installed,
  }

  file { '/etc/nginx/nginx.conf':
    ensure  => file,
    content => @("CONF"),
      # Managed by Puppet (profile::nginx)
      user www-data;
      worker_processes ${worker_processes};
      pid /run/nginx.pid;

      events {
        worker_connections 1024;
      }

      http {
        include /etc/nginx/mime.types;
        include /etc/nginx/sites-enabled/*.conf;
      }
      | CONF
  }

  # A broken config must never reach a restart: every config change runs "nginx -t"
  # first, and only a successful test refreshes the service.
  exec { 'nginx-configtest':
    command     => 'nginx -t',
    refreshonly => true,
  }

  service { 'nginx':
    ensure => running,
    enable => true,
  }

  Package['nginx'] -> File['/etc/nginx/nginx.conf'] ~> Exec['nginx-configtest'] ~> Service['nginx']

  $vhosts.each |String $server_name, Profile::VhostSettings $settings| {
    profile::vhost { $server_name:
      * => $settings,
    }
  }
}
