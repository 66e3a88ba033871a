# The profile module's default bindings (module:/profile::default).
bindings profile::default {
  # The profile module's own admin; the site adds its own to the multibind.
  bind to 'bob' in 'site::admins'

  # The module's opinion; the site layer overrides it for web nodes.
  bind Integer, 'profile::nginx::worker_processes' to 2

  # Parameters of the ntp profile, bound per parameter (/param/Class[profile::ntp]/...).
  bind parameters profile::ntp to { iburst => true }
}
