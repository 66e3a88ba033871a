# The shape of one entry of profile::nginx::vhosts in Hiera. Typing it here means a
# typo in the YAML (e.g. "alias:") fails the compile instead of being ignored.
# (It cannot be called Profile::Vhost: that name already means the defined type.)
type Profile::VhostSettings = Struct[{
  Optional[port]    => Profile::Port,
  Optional[ssl]     => Boolean,
  Optional[aliases] => Array[String[1]],
  Optional[docroot] => String[1],
}]
