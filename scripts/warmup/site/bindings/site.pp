site {
  categories {
    node        => "$::fqdn",
    environment => true,
  }
  bindings => [
    layer { 'site':    include => 'confdir:/default' },
    layer { 'modules': include => 'module:/*::default' },
    layer { 'data':    include => ['hiera:/', 'hiera:/modules/*'] },
  ]
}
