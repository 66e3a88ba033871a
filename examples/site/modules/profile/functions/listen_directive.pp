# The nginx "listen" line for a vhost. Kept in one place so every vhost gets the same
# TLS options.
function profile::listen_directive(Profile::Port $port, Boolean $ssl = false) >> String {
  $ssl ? {
    true    => "listen ${port} ssl;",
    default => "listen ${port};",
  }
}
