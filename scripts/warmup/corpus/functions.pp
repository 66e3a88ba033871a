# Functions, types and expressions (parsed only).
type Example::Port = Integer[1, 65535]
type Example::Endpoint = Struct[{
  host           => String[1],
  port           => Example::Port,
  Optional[path] => Pattern[/\A\//],
  tls            => Optional[Boolean],
}]
type Example::Level = Enum['debug', 'info', 'warn', 'error']
type Example::Value = Variant[Scalar, Array[Example::Value], Hash[String, Example::Value]]

function example::url(Example::Endpoint $ep) >> String {
  $scheme = $ep['tls'] ? { true => 'https', default => 'http' }
  $path = $ep.dig('path').lest || { '/' }
  "${scheme}://${ep['host']}:${ep['port']}${path}"
}

function example::merge_all(Array[Hash] *$hashes) >> Hash {
  $hashes.reduce({}) |Hash $memo, Hash $h| { $memo + $h }
}

function example::first_free(Array[Integer] $used, Integer $from = 1024) {
  Integer[$from, 65535].each |$p| {
    unless $p in $used { return($p) }
  }
  undef
}

function example::classify(Any $v) >> String {
  case $v {
    Undef:                 { 'nothing' }
    Integer[0, default]:   { 'count' }
    Float, Integer:        { 'number' }
    /^\d+(\.\d+)*$/:       { 'version' }
    String[0, 0]:          { 'empty' }
    Array[String], Tuple:  { "list of ${v.length}" }
    Hash:                  { "map of ${v.keys.join(',')}" }
    default:               { 'other' }
  }
}

$numbers = [0, 1, -2, 0x1f, 0755, 3.14, 6.02e23, -1.5e-3]
$strings = ['single \'quoted\'', "double \"quoted\" \t \n \u00e9 \u{1F600} \$money", "${numbers[0]} and ${numbers[-1]}"]
$slice = $numbers[1, 3]
$nested = { 'a' => { 'b' => [1, { 'c' => true }] }, "k-${numbers[2]}" => undef, 1 => default }
$math = (1 + 2) * 3 - 4 / 2 % 3 << 1 >> 1
$logic = !($math > 10) and ($math <= 20 or $math == 0) and $math != 5
$matched = 'release-7.23' =~ /^release-(\d+)\.(\d+)$/
$version = "${1}.${2}"
$in = 'b' in ['a', 'b'] and 'key' in { 'key' => 1 } and 'ell' in 'hello' and /^h/ in ['hi']
$chained = $numbers.filter |$n| { $n > 0 }.map |$n| { $n * 2 }.sort.unique.slice(2).flatten
$typed = Integer('42') + Float('1.5') + Numeric('7')
$str = String(255, '%x')
$arr = Array($nested, true)
$conv = Hash([['a', 1], ['b', 2]])
$t = Optional[Array[Variant[String, Integer], 1, 10]]
$ok = $numbers =~ Array[Numeric] and !($strings =~ Array[Integer])
$sens = Sensitive('hunter2').unwrap |$s| { $s.length }
$stepped = Integer[1, 10].step(3).map |$x| { $x }
$sorted = sort($strings) |$a, $b| { compare($a.length, $b.length) }
$lambda_defaults = [1, 2].map |Integer $x, Integer $y = 10, *$rest| { $x + $y }
$json = @(JSON:json)
  {"key": [1, 2, 3], "nested": {"ok": true}}
  | JSON
$text = @("TEXT"/$L)
    Host: ${facts['networking']['fqdn']}
    Path: \$PATH stays \
    one line
    |- TEXT
if $facts['kernel'] == 'Linux' {
  notice(example::url({ host => 'localhost', port => 8080, tls => false }))
} elsif $facts['kernel'] =~ /BSD$/ {
  debug('bsd')
} else {
  err("unsupported ${facts['kernel']}")
}
unless defined('$version') { fail('no version') }
$selected = $facts['os']['family'] ? {
  'Debian'           => 'apt',
  /^(RedHat|Fedora)/ => 'dnf',
  default            => undef,
}
