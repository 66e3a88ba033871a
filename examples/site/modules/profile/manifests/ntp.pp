# Time synchronization with chrony. Package, service and file names differ per OS
# family and come from this module's own Hiera data (modules/profile/data).
class profile::ntp (
  Array[String[1], 1] $servers,
  String[1]           $package_name,
  String[1]           $service_name,
  String[1]           $config_file,
  Boolean             $iburst = true,
) {
  package { $package_name:
    ensure => installed,
  }

  file { $config_file:
    ensure  => file,
    content => epp('profile/chrony.conf.epp', {
      'servers' => $servers,
      'iburst'  => $iburst,
    }),
  }

  service { $service_name:
    ensure => running,
    enable => true,
  }

  # Install, then configure; a changed config restarts the daemon.
  Package[$package_name] -> File[$config_file] ~> Service[$service_name]
}
