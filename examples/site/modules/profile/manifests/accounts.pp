# Declares every known account, virtually. Whoever needs an account realizes it
# (profile::base realizes the admins listed in Hiera), so one user's attributes are
# defined once even when several profiles want that user.
class profile::accounts (
  Hash[String[1], Struct[{
    uid               => Integer[1000],
    comment           => String,
    Optional[shell]   => String[1],
  }]] $users,
) {
  @group { 'admins':
    ensure => present,
    gid    => 2000,
  }

  $users.each |String $login, Hash $attrs| {
    @user { $login:
      ensure     => present,
      gid        => 'admins',
      managehome => true,
      require    => Group['admins'],
      # Entries without a shell get bash; the splat passes uid, comment (and shell).
      *          => { 'shell' => '/bin/bash' } + $attrs,
    }
  }
}
