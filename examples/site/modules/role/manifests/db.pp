# A PostgreSQL server.
class role::db {
  include profile::base
  include profile::postgres

  # The admin accounts (profile::base) must exist before PostgreSQL creates its
  # databases, because the ident mapping names them.
  Class['profile::base'] -> Class['profile::postgres']
}
