# The baseline every machine gets, also used for nodes that have no role yet.
class role::base {
  include profile::base
}
