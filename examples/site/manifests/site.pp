# site.pp: node classification for the example.com site.
#
# Each node gets exactly one role class; roles only include profiles, and profiles
# hold the actual resources (the roles/profiles pattern). Data differences between
# nodes belong in Hiera (data/), not here.

# Resource defaults at top scope apply to every class of the catalog (dynamic scope).
# Execs must never depend on the agent's PATH.
Exec {
  path      => ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'],
  logoutput => 'on_failure',
}

# We keep configuration in git, so the filebucket copies are just noise.
File {
  backup => false,
}

# The primary database server.
node 'db01.example.com' {
  include role::db
}

# web01 predates the naming scheme and still serves the legacy shop on port 8080
# until its DNS is moved; new web nodes only get what the role gives them.
node 'web01.example.com' {
  include role::web

  profile::vhost { 'legacy-shop.example.com':
    port    => 8080,
    docroot => '/srv/legacy-shop',
  }
}

# Any other web node (web02, web03, ...). The exact node above wins for web01.
node /^web\d+\.example\.com$/ {
  include role::web
}

# Unclassified machines still get the baseline (accounts, NTP, packages, motd).
node default {
  include role::base
}
