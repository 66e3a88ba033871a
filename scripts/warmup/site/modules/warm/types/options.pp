type Warm::Options = Struct[{
  Optional[tls]  => Boolean,
  Optional[name] => String[1],
}]
