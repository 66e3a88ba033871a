# frozen_string_literal: true
#
# puppet-warm.rb CASE_DIR NODE FACTS_FILE RUNS [ENVIRONMENT_TIMEOUT [WARMUP_RUNS [WARMUP_MS [WARMUP_CAP_MS]]]]
#
# Real Puppet's warm compile time, for `npm run bench`: one Ruby process compiles the same node
# RUNS times after warming up (at least WARMUP_RUNS compiles, default 1, and WARMUP_MS of wall
# time, default 0, but no longer than WARMUP_CAP_MS: the bounds modelc's warm runs get too), so Ruby's start, `require 'puppet'` and
# the first load of each Ruby type and provider are paid once, as in a long-running Puppet server. The oracle has no
# such mode on purpose (it keeps cases apart); a benchmark compiling one case over and over does
# not need that isolation. ENVIRONMENT_TIMEOUT is Puppet's setting: 0 (Puppet 7's default) parses
# the manifests again for every compile, `unlimited` (what Puppet Server setups use) keeps the parsed
# environment between compiles. Prints one JSON line: CPU and wall milliseconds of each timed compile.
# Settings point at a temp tree, as the oracle does, so no state under /etc/puppet is read.

require 'json'
require 'tmpdir'
require 'fileutils'
require 'yaml'

case_dir, node_name, facts_file, runs, env_timeout, warmup_runs, warmup_ms, warmup_cap_ms = ARGV
abort 'usage: puppet-warm.rb CASE_DIR NODE FACTS_FILE RUNS [ENVIRONMENT_TIMEOUT [WARMUP_RUNS [WARMUP_MS [WARMUP_CAP_MS]]]]' unless runs
runs = runs.to_i
warmup_runs = [(warmup_runs || 1).to_i, 1].max
warmup_ms = (warmup_ms || 0).to_f
warmup_cap_ms = (warmup_cap_ms || 30_000).to_f

tmp = Dir.mktmpdir('modelc-bench-puppet-')
at_exit { FileUtils.remove_entry(tmp) }
%w[conf code/modules var run log environments].each { |d| FileUtils.mkdir_p(File.join(tmp, d)) }
File.symlink(File.expand_path(case_dir), File.join(tmp, 'environments', 'production'))
File.write(File.join(tmp, 'conf', 'hiera.yaml'), "---\nversion: 5\nhierarchy: []\n")

facts = facts_file && !facts_file.empty? ? YAML.safe_load(File.read(facts_file), aliases: true) || {} : {}
facts = facts['values'] if facts['values'].is_a?(Hash)

require 'puppet'
require 'puppet/parser/compiler'
Puppet.initialize_settings([
  "--confdir=#{tmp}/conf", "--codedir=#{tmp}/code", "--vardir=#{tmp}/var", "--rundir=#{tmp}/run",
  "--logdir=#{tmp}/log", "--publicdir=#{tmp}/var/public", "--environmentpath=#{tmp}/environments",
  '--environment=production', "--basemodulepath=#{tmp}/code/modules", "--hiera_config=#{tmp}/conf/hiera.yaml",
  "--environment_timeout=#{env_timeout || '0'}"
])
Puppet::Util::Log.close_all

def compile_once(node_name, facts)
  env = Puppet.lookup(:environments).get!('production')
  node = Puppet::Node.new(node_name, environment: env)
  # Facts.new sanitizes and freezes the hash it is given: each compile gets its own copy.
  node.fact_merge(Puppet::Node::Facts.new(node_name, Marshal.load(Marshal.dump(facts))))
  node.add_server_facts({})
  trusted = Puppet::Context::TrustedInformation.new('remote', node_name, {}, {})
  Puppet.override({ current_environment: env, trusted_information: trusted }, 'modelc bench') do
    Puppet::Parser::Compiler.compile(node).resources.size
  end
end

def now(clock) = Process.clock_gettime(clock) * 1000.0

started = now(Process::CLOCK_MONOTONIC)
size = compile_once(node_name, facts)
warmed = 1
# At most 200 warm-up compiles, as modelc's.
while warmed < 200
  elapsed = now(Process::CLOCK_MONOTONIC) - started
  break if elapsed >= warmup_cap_ms || (warmed >= warmup_runs && elapsed >= warmup_ms)
  compile_once(node_name, facts)
  warmed += 1
end
cpu = []
wall = []
runs.times do
  c0 = now(Process::CLOCK_PROCESS_CPUTIME_ID)
  w0 = now(Process::CLOCK_MONOTONIC)
  compile_once(node_name, facts)
  cpu << now(Process::CLOCK_PROCESS_CPUTIME_ID) - c0
  wall << now(Process::CLOCK_MONOTONIC) - w0
end
puts JSON.generate({ 'resources' => size, 'cpu_ms' => cpu, 'wall_ms' => wall })
