# The site definition (ARM-8 `site {}`): how a request is categorized and which bindings
# make up each layer, highest precedence first.
site {
  # The first category has the highest precedence; node and environment are ARM-8's own,
  # role is this site's custom fact (unset on unclassified nodes, so it then never applies).
  categories {
    node        => "$::fqdn",
    role        => "$::role",
    environment => true,
  }
  bindings => [
    # The site's own decisions win over everything else.
    layer { 'site':      include => 'confdir:/default' },
    # Owners and on-call admins from the (external) inventory system.
    layer { 'inventory': include => 'inventory:/owners' },
    # What the external node classifier says about the node.
    layer { 'enc':       include => 'enc:' },
    # Module defaults (modules/*/bindings/default.pp).
    layer { 'modules':   include => 'module:/*::default' },
    # Hiera 5 data is one provider among the others, below every layer of bindings.
    layer { 'data':      include => ['hiera:/global', 'hiera:/', 'hiera:/modules/*'] },
  ]
}
