# A PostgreSQL server from the distribution packages.
class profile::postgres (
  Pattern[/\A\d+\z/]                         $version   = '15',
  Hash[String[1], Variant[String, Integer]]  $settings  = {},
  Array[Pattern[/\A[a-z_][a-z0-9_]*\z/]]     $databases = [],
) {
  $confdir = "/etc/postgresql/${version}/main"

  package { "postgresql-${version}":
    ensure => installed,
  }

  # Our settings go into conf.d so the distribution's postgresql.conf stays untouched
  # and package upgrades do not ask about it. Sorted for a stable file.
  $lines = $settings.keys.sort.map |$key| { "${key} = '${settings[$key]}'" }

  file { "${confdir}/conf.d/90-puppet.conf":
    ensure  => file,
    owner   => 'postgres',
    group   => 'postgres',
    mode    => '0640',
    content => "# Managed by Puppet (profile::postgres)\n${lines.join("\n")}\n",
  }

  service { 'postgresql':
    ensure => running,
    enable => true,
  }

  Package["postgresql-${version}"] -> File["${confdir}/conf.d/90-puppet.conf"] ~> Service['postgresql']

  $databases.each |$db| {
    exec { "createdb ${db}":
      command => "createdb ${db}",
      unless  => "psql -Atc \"SELECT 1 FROM pg_database WHERE datname = '${db}'\" | grep -q 1",
      user    => 'postgres',
      require => Service['postgresql'],
    }
  }
}
