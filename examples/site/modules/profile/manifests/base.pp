# The baseline of every machine: admin accounts, time sync, a few packages, a motd.
class profile::base (
  String[1] $motd_contact,
) {
  # Packages and admins are *added* by every Hiera level (common, role, node), so they
  # are read with a unique merge rather than as class parameters, which would only
  # see the most specific level.
  $packages = lookup('profile::base::packages', Array[String[1]], 'unique', [])
  $admins   = lookup('profile::base::admins', Array[String[1]], 'unique', [])

  # Resource defaults follow dynamic scope: they reach the files of this class and of
  # the classes it declares *after* this point (profile::ntp below), so they come first.
  File {
    owner => 'root',
    group => 'root',
    mode  => '0644',
  }

  include profile::accounts
  include profile::ntp

  package { $packages:
    ensure => installed,
  }

  # profile::accounts declares everyone virtually; a node only gets its admins.
  Group <| title == 'admins' |>
  realize(User[$admins])

  $role = $facts['role'].lest || { 'unclassified' }

  file { '/etc/motd':
    ensure  => file,
    content => @("MOTD"/L),
      ${facts['networking']['fqdn']} (${facts['os']['name']} ${facts['os']['release']['full']}), \
      role: ${role}
      Managed by Puppet: local changes will be overwritten. Questions: ${motd_contact}
      | MOTD
  }
}
