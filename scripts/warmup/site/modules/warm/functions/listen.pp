# The listen line of a site.
function warm::listen(Warm::Port $port, Boolean $tls = false) >> String {
  $tls ? {
    true    => "listen ${port} ssl;",
    default => "listen ${port};",
  }
}
