# One nginx server block: its config in sites-available, a link in sites-enabled and
# its document root.
define profile::vhost (
  Enum['present', 'absent'] $ensure  = 'present',
  Profile::Port             $port    = 80,
  Boolean                   $ssl     = false,
  Array[String[1]]          $aliases = [],
  Optional[String[1]]       $docroot = undef,
) {
  # A vhost is useless without nginx, and the configtest exec below lives there.
  include profile::nginx

  $root = $docroot.lest || { "/srv/www/${title}" }
  $available = "/etc/nginx/sites-available/${title}.conf"

  file { $available:
    ensure  => $ensure ? { 'present' => 'file', default => 'absent' },
    content => epp('profile/vhost.conf.epp', {
      'server_names' => [$title] + $aliases,
      'listen'       => profile::listen_directive($port, $ssl),
      'root'         => $root,
      'ssl'          => $ssl,
    }),
    require => Package['nginx'],
    notify  => Exec['nginx-configtest'],
  }

  file { "/etc/nginx/sites-enabled/${title}.conf":
    ensure => $ensure ? { 'present' => 'link', default => 'absent' },
    target => $available,
    notify => Exec['nginx-configtest'],
  }

  if $ensure == 'present' {
    file { $root:
      ensure => directory,
      owner  => 'www-data',
      group  => 'www-data',
      mode   => '0755',
    }
  }
}
