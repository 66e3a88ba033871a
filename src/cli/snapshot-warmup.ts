import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CliIo } from './io.js';

/**
 * A small environment of our own that the CLI's startup snapshot is built after compiling: the
 * snapshot then holds the bytecode of the code a compile runs and the parser's lookahead for
 * the common constructs, instead of compiling them again in every process. It uses the language
 * broadly (classes with typed parameters, defines, iteration, conditionals, selectors, virtual
 * resources and collectors, relationships, heredocs, EPP and ERB templates, Hiera data with
 * automatic parameter lookup, ARM-8 bindings) and nothing of any user's site: what it warms is
 * the code, not answers. A compile keeps no state between runs apart from caches keyed by file
 * (the services are built per run), so the real command starts as if nothing had run before.
 */
const FILES: Readonly<Record<string, string>> = {
    'environment.conf': 'modulepath = modules:$basemodulepath\nmanifest = manifests/site.pp\n',
    'hiera.yaml': [
        '---', 'version: 5', 'defaults:', '  datadir: data', '  data_hash: yaml_data', 'hierarchy:',
        '  - name: "nodes"', '    path: "nodes/%{trusted.certname}.yaml"',
        '  - name: "common"', '    path: "common.yaml"', ''
    ].join('\n'),
    'data/common.yaml': [
        '---', "warm::owner: 'root'", 'warm::ports:', '  http: 80', '  https: 443',
        "warm::names: ['alpha', 'beta', 'gamma']", "warm::motd: 'Managed on %{facts.networking.fqdn}'", ''
    ].join('\n'),
    'data/nodes/warm.example.com.yaml': "---\nwarm::owner: 'admin'\n",
    'facts.yaml': [
        'fqdn: warm.example.com', 'hostname: warm', 'kernel: Linux',
        'networking:', '  fqdn: warm.example.com', '  ip: 10.0.0.1', '  interfaces:', '    eth0:', '      ip: 10.0.0.1',
        'os:', '  family: Debian', '  release:', '    major: "12"', 'processors:', '  count: 2', ''
    ].join('\n'),
    'manifests/site.pp': `# Warm-up manifest (snapshot-warmup.ts).
Exec { path => ['/usr/bin', '/bin'] }
File { backup => false }
$site_name = 'warm'

node 'warm.example.com' {
  include warm
  class { 'warm::extra': size => 3 }
}

node /^other\\d+$/, default {
  notice("unclassified \${trusted['certname']}")
}
`,
    'modules/warm/manifests/init.pp': `class warm (
  String[1]                $owner,
  Array[String[1]]         $names,
  Hash[String, Integer[1]] $ports = {},
  Optional[String]         $motd  = undef,
) {
  $dir = "/srv/\${owner}"
  file { $dir:
    ensure => directory,
    mode   => '0755',
  }
  $names.each |Integer $i, String $n| {
    file { "\${dir}/\${n}":
      ensure  => file,
      content => template('warm/item.erb'),
      require => File[$dir],
    }
  }
  warm::site { $names:
    port => $ports['http'],
  }
  if $facts['os']['family'] == 'Debian' and $facts['processors']['count'] > 1 {
    package { 'tool': ensure => installed }
  } elsif $owner =~ /^r(oo)?t$/ {
    notify { 'root-owned': }
  } else {
    notice('nothing')
  }
  case $owner {
    'root', 'admin': { $level = 1 }
    /^svc-/:         { $level = 2 }
    default:         { $level = 3 }
  }
  $label = $level ? {
    1       => 'one',
    default => 'many',
  }
  unless $label in ['one', 'many'] {
    fail("bad label \${label}")
  }
  @user { ['virt', 'other']:
    ensure => present,
    uid    => 1000 + 2 * $level,
  }
  User <| title == 'virt' |> { shell => '/bin/sh' }
  realize(User['other'])
  $doubled = $ports.map |$k, $v| { [$k, $v * 2] }.filter |$p| { $p[1] > 0 }
  $lookup = Hash($doubled)
  $total = $ports.reduce(0) |$sum, $kv| { $sum + $kv[1] }
  $text = @("EOT"/L)
    owner=\${owner} total=\${total} \\
    label=\${label}
    | EOT
  file { "\${dir}/summary":
    ensure  => file,
    content => epp('warm/summary.epp', { 'text' => $text, 'lookup' => $lookup }),
    mode    => sprintf('%04o', 420),
  }
  exec { 'refresh':
    command     => 'true',
    refreshonly => true,
    subscribe   => File["\${dir}/summary"],
  }
  Package['tool'] -> File[$dir] ~> Exec['refresh']
  $parts = split('a,b,c', ',')
  $joined = join(sort(unique($parts + ['a'])), '-')
  $version_ok = versioncmp('1.2.10', '1.2.9') > 0
  $facts_view = { 'ip' => $facts.dig('networking', 'ip'), 'ok' => $version_ok, 'joined' => $joined }
  notify { 'summary': message => String($facts_view) }
}
`,
    'modules/warm/manifests/extra.pp': `class warm::extra (Integer $size = 1) inherits warm::params {
  Integer[1, $size].each |$i| {
    warm::site { "extra\${i}": port => $i + $base_port }
  }
  $merged = { 'a' => 1 } + { 'b' => [1, 2, 3][0, 2] }
  with($merged) |$m| { notice($m.keys) }
  if defined(Class['warm']) { include warm::params }
}
`,
    'modules/warm/manifests/params.pp': "class warm::params {\n  $base_port = 8000\n}\n",
    'modules/warm/manifests/site.pp': `define warm::site (Integer $port, Enum['present', 'absent'] $ensure = 'present') {
  $conf = "/etc/warm/\${title}.conf"
  file { $conf:
    ensure  => $ensure ? { 'present' => file, default => absent },
    content => inline_epp('port=<%= $port %>', { 'port' => $port }),
    tag     => ['warm', $title],
  }
  File <| tag == 'warm' |>
}
`,
    'modules/warm/templates/item.erb': '# <%= @n %> owned by <%= @owner %>\n<% @names.each do |n| -%>\nname <%= n.upcase %>\n<% end -%>\n',
    'modules/warm/templates/summary.epp': '<%- | String $text, Hash $lookup | -%>\n<%= $text %>\n<% $lookup.each |$k, $v| { -%>\n<%= $k %> = <%= $v %>\n<% } -%>\n',
    'modules/warm/bindings/default.pp': "bindings warm::default {\n  bind Integer, 'warm::extra::size' to 2\n  bind to 'ops' in 'warm::admins'\n}\n",
    'bindings/site.pp': `site {
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
`,
    'bindings/default.pp': `bindings default {
  multibind Array[String], 'warm::admins' as 'warm::admins'
  bind to 'root' in 'warm::admins'
  when node 'warm.example.com' {
    bind String, 'warm::motd' to "Managed on \${::fqdn}"
  }
  bind variables to { warm_site => 'example' }
}
`
};

/** The commands run before the snapshot is taken, each as a user would type it. */
function commands(dir: string): string[][] {
    const node = ['--node', 'warm.example.com', '--facts', join(dir, 'facts.yaml')];
    return [
        ['compile', dir, ...node],
        ['compile', dir, ...node, '--no-bindings', '--format', 'puppet'],
        ['parse', join(dir, 'modules', 'warm', 'manifests', 'init.pp')],
        ['lookup', dir, 'warm::ports', ...node]
    ];
}

/**
 * Writes the environment to a temporary directory, runs every command of `commands` through
 * `main` with the output discarded, and removes it. A command that fails is an error: the
 * snapshot would silently warm less than it should.
 */
export async function warmUp(main: (argv: readonly string[], io: CliIo) => Promise<number>): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'modelc-warmup-'));
    try {
        for (const [file, text] of Object.entries(FILES)) {
            mkdirSync(dirname(join(dir, file)), { recursive: true });
            writeFileSync(join(dir, file), text);
        }
        for (const args of commands(dir)) {
            let err = '';
            const code = await main(['node', 'modelc', ...args], { out: () => undefined, err: s => { err += s; } });
            if (code !== 0) throw new Error(`modelc ${args.join(' ')} exited with ${code}: ${err.trim()}`);
        }
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
