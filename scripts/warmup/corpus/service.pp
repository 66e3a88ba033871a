# A service module in the usual shape: install, configure, run (parsed only, never compiled).
class example::service (
  Enum['present', 'absent', 'latest'] $package_ensure  = 'present',
  Variant[String[1], Array[String[1]]] $package_name  = $example::params::package_name,
  Boolean                              $service_manage = true,
  Stdlib::Absolutepath                 $config_dir     = '/etc/example',
  Optional[Integer[1, 65535]]          $port           = undef,
  Hash[String, Variant[String, Integer, Boolean]] $settings = {},
  Array[Struct[{ name => String, Optional[weight] => Integer }]] $backends = [],
  Sensitive[String]                    $secret         = Sensitive('changeme'),
) inherits example::params {
  contain example::service::install
  contain example::service::config
  contain example::service::run

  Class['example::service::install']
  -> Class['example::service::config']
  ~> Class['example::service::run']

  if $port != undef and $port < 1024 {
    warning("port ${port} needs privileges")
  }
}

class example::service::install {
  $names = $example::service::package_name ? {
    Array   => $example::service::package_name,
    default => [$example::service::package_name],
  }
  package { $names:
    ensure => $example::service::package_ensure,
    tag    => ['example', 'install'],
  }
  if $facts['os']['family'] in ['RedHat', 'Suse'] {
    $repo = "${facts['os']['name']}-${facts['os']['release']['major']}"
    yumrepo { "example-${repo}":
      baseurl  => "https://repo.example.com/${repo}/\$basearch",
      gpgcheck => 1,
      enabled  => true,
    }
  }
}

class example::service::config {
  $dir = $example::service::config_dir
  file { [$dir, "${dir}/conf.d"]:
    ensure  => directory,
    owner   => 'root',
    group   => 0,
    mode    => '0750',
    recurse => true,
    purge   => false,
  }
  $lines = $example::service::settings.map |String $key, $value| {
    $shown = $value ? {
      Boolean => bool2str($value, 'yes', 'no'),
      default => String($value),
    }
    "${key} = ${shown}"
  }
  file { "${dir}/example.conf":
    ensure    => file,
    content   => join(sort($lines), "\n"),
    show_diff => false,
  }
  $example::service::backends.each |Integer $index, Hash $backend| {
    file { "${dir}/conf.d/${index}-${backend['name']}.conf":
      ensure  => file,
      content => "server ${backend['name']} weight=${backend.get('weight', 1)}\n",
      notify  => Service['example'],
    }
  }
  file_line { 'example-limits':
    path  => '/etc/security/limits.conf',
    line  => 'example soft nofile 65536',
    match => '^example\s+soft\s+nofile',
  }
}

class example::service::run {
  if $example::service::service_manage {
    service { 'example':
      ensure     => running,
      enable     => true,
      hasrestart => true,
      subscribe  => [File["${example::service::config_dir}/example.conf"], Package[$example::service::install::names]],
    }
  }
  exec { 'example-reload':
    command     => ['/usr/bin/systemctl', 'reload', 'example'],
    refreshonly => true,
    onlyif      => 'test -f /run/example.pid',
    unless      => "grep -q '^ready' ${example::service::config_dir}/state",
    timeout     => 300,
    tries       => 3,
  }
}
