class warm::extra (Integer $size = 1, Array[String] $flags = []) inherits warm::params {
  Integer[1, $size].each |$i| {
    warm::site { "extra${i}": port => $i + $base_port }
  }
  $merged = { 'a' => 1 } + { 'b' => [1, 2, 3][0, 2] }
  with($merged) |$m| { notice($m.keys) }
  if defined(Class['warm']) { include warm::params }
  require warm::params
}
