# The main class: parameters from Hiera (automatic parameter lookup).
class warm (
  String[1]                $owner,
  Array[String[1]]         $names,
  Hash[String, Integer[1]] $ports = {},
  Optional[String]         $motd  = undef,
) {
  File {
    owner => $owner,
    mode  => '0644',
  }
  contain warm::params
  $dir = "/srv/${owner}"
  file { $dir:
    ensure => directory,
    mode   => '0755',
  }
  $names.each |Integer $i, String $n| {
    file { "${dir}/${n}":
      ensure  => file,
      content => template('warm/item.erb'),
      require => File[$dir],
    }
  }
  warm::site { $names:
    port => $ports['http'],
  }
  if $facts['os']['family'] == 'Debian' and $facts['processors']['count'] > 1 {
    package { 'tool': ensure => installed }
  } elsif $owner =~ /^r(oo)?t$/ {
    notify { "root-owned ${1}": }
  } else {
    notice('nothing')
  }
  case $owner {
    'root', 'admin': { $level = 1 }
    /^svc-(.*)$/:    { $level = 2 }
    default:         { $level = 3 }
  }
  $label = $level ? {
    1       => 'one',
    default => 'many',
  }
  unless $label in ['one', 'many'] {
    fail("bad label ${label}")
  }
  @user { ['virt', 'other']:
    ensure => present,
    uid    => 1000 + 2 * $level,
    groups => [],
  }
  User <| title == 'virt' |> { shell => '/bin/sh' }
  realize(User['other'])
  $doubled = $ports.map |$k, $v| { [$k, $v * 2] }.filter |$p| { $p[1] > 0 }
  $lookup = Hash($doubled)
  $total = $ports.reduce(0) |$sum, $kv| { $sum + $kv[1] }
  $text = @("EOT"/L)
    owner=${owner} total=${total} \
    label=${label}
    | EOT
  file { "${dir}/summary":
    ensure  => file,
    content => epp('warm/summary.epp', { 'text' => $text, 'lookup' => $lookup }),
    mode    => sprintf('%04o', 420),
  }
  exec { 'refresh':
    command     => 'true',
    refreshonly => true,
    subscribe   => File["${dir}/summary"],
  }
  service { $warm::params::service:
    ensure => running,
    enable => true,
  }
  Package['tool'] -> File[$dir] ~> Exec['refresh'] ~> Service[$warm::params::service]
  $parts = split('a,b,c', ',')
  $joined = join(sort(unique($parts + ['a'])), '-')
  $version_ok = versioncmp('1.2.10', '1.2.9') > 0
  $motd_text = $motd.lest || { 'none' }.then |$m| { upcase($m) }
  $facts_view = {
    'ip'     => $facts.dig('networking', 'ip'),
    'ok'     => $version_ok,
    'joined' => $joined,
    'size'   => length($names),
    'type'   => type($total, 'generalized'),
    'motd'   => $motd_text,
    'sub'    => regsubst('a-b-c', '-', '_', 'G'),
    'keys'   => keys($ports),
    'hex'    => 0x1F + 1.5e1,
  }
  notify { 'summary': message => String($facts_view) }
  warm_setting { 'greeting':
    value => warm::squeeze([' hello ', 'world  '], ' '),
    path  => "${dir}/settings.conf",
  }
  $count = warm_count($ports)
  assert_type(Warm::Options, { 'tls' => false })
}
