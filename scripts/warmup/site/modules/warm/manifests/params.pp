class warm::params (String $service = 'x', String $package = 'y') {
  $base_port = 8000
}
