bindings warm::default {
  bind Integer, 'warm::extra::size' to 2
  bind to 'ops' in 'warm::admins'
}
