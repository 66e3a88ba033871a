# A public web server: nginx with the vhosts of roles/web.yaml.
class role::web {
  include profile::base
  include profile::nginx
}
