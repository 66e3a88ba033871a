# One site: its config file, from a Puppet-language function.
define warm::site (
  Warm::Port                $port,
  Enum['present', 'absent'] $ensure  = 'present',
  Warm::Options             $options = {},
) {
  $conf = "/etc/warm/${title}.conf"
  $attrs = {
    ensure  => $ensure ? { 'present' => file, default => absent },
    content => inline_epp('<%= $line %>', { 'line' => warm::listen($port, $options['tls'] =~ NotUndef) }),
    tag     => ['warm', $title],
  }
  file { $conf:
    * => $attrs,
  }
  File <| tag == 'warm' |>
}
