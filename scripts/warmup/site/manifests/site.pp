# Warm-up manifest (snapshot-warmup.ts): resource defaults at top scope.
Exec {
  path      => ['/usr/bin', '/bin'],
  logoutput => 'on_failure',
}
File { backup => false }
$site_name = 'warm'

/* The node of the warm-up, and a regex node that never matches it. */
node 'warm.example.com' {
  include warm
  class { 'warm::extra': size => 3 }
  warm::site { 'named.example.com':
    port    => 8443,
    options => { 'tls' => true },
  }
}

node /^other\d+$/, default {
  notice("unclassified ${trusted['certname']}")
}
