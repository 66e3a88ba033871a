# frozen_string_literal: true
#
# puppet-batch.rb IN.json OUT.json
#
# Real Puppet 7.23 over many small cases in one Ruby process, for the differential harness
# (test/tools/builtins/): each case is compiled exactly as ../shared/oracle/compile compiles it
# (same temp settings, node, trusted data, log collection and normalized JSON), but `require
# 'puppet'` and the first load of the common core types are paid once. Every case runs in a forked
# child of that warm process, so nothing a compile leaves behind (loaded functions, warn-once
# state, environment caches) reaches the next case: the isolation the oracle keeps by running one
# process per case.
#
# IN.json: [{"id": ..., "dir": CASE_DIR, "node"?: NAME, "settings"?: ["strict=error", ...]}, ...]
# OUT.json: {id: <the oracle's JSON object for that case>, ...}

require 'json'
require 'tmpdir'
require 'fileutils'

in_file, out_file = ARGV
abort 'usage: puppet-batch.rb IN.json OUT.json' unless out_file
CASES = JSON.parse(File.read(in_file))

TMP = Dir.mktmpdir('puppet-batch-')
at_exit { FileUtils.remove_entry(TMP) if File.directory?(TMP) && Process.pid == MAIN_PID }
MAIN_PID = Process.pid
ENVPATH = File.join(TMP, 'environments')
ENV_LINK = File.join(ENVPATH, 'production')
%w[conf code code/modules code/vendor_modules var run log environments].each { |d| FileUtils.mkdir_p(File.join(TMP, d)) }
File.write(File.join(TMP, 'conf', 'hiera.yaml'), "---\nversion: 5\nhierarchy: []\n")

require 'puppet'
require 'puppet/parser/compiler'

Puppet.initialize_settings([
  "--confdir=#{TMP}/conf", "--codedir=#{TMP}/code", "--vardir=#{TMP}/var", "--rundir=#{TMP}/run",
  "--logdir=#{TMP}/log", "--publicdir=#{TMP}/var/public", "--environmentpath=#{ENVPATH}",
  '--environment=production', "--basemodulepath=#{TMP}/code/modules",
  "--vendormoduledir=#{TMP}/code/vendor_modules", "--hiera_config=#{TMP}/conf/hiera.yaml",
  '--environment_timeout=0'
])

# The collector the oracle uses: every message at info and up, with the innermost Puppet
# stack frame's location when the message has none.
LOGS = []
Puppet::Util::Log.newdesttype(:batch_collector) do
  match 'BatchCollector'
  def initialize(collector) = @collector = collector
  def handle(msg) = @collector.record(msg)
end
class BatchCollector
  def record(msg)
    file = msg.file
    line = msg.line
    if file.nil?
      top = Puppet::Pops::PuppetStack.top_of_stack
      file, line = top[0], top[1] unless top.empty?
    end
    entry = { 'level' => msg.level.to_s, 'message' => msg.message.to_s }
    src = msg.source.to_s
    entry['source'] = src unless src.empty? || src == 'Puppet'
    entry['file'] = file if file && file != 'unknown'
    entry['line'] = line if line && line != 0
    LOGS << entry
  end
end

# Types the snippets use most, loaded with their providers before forking.
%i[notify file exec package service user group].each { |t| Puppet::Type.type(t) }

def rel_rules(case_dir)
  [[ENV_LINK + '/', ''], [case_dir + '/', ''], [File.realpath(TMP) + '/', '<tmp>/'], [TMP + '/', '<tmp>/'],
   [ENV_LINK, '.'], [case_dir, '.']]
end

def deep_rel(v, rules)
  case v
  when String then rules.reduce(v) { |s, (from, to)| s.gsub(from, to) }
  when Pathname then deep_rel(v.to_s, rules)
  when Array then v.map { |x| deep_rel(x, rules) }
  when Hash then v.each_with_object({}) { |(k, x), h| h[deep_rel(k, rules)] = deep_rel(x, rules) }
  else v
  end
end

def error_hash(e)
  chain = []
  x = e
  while x && chain.size < 10
    chain << x
    x = x.respond_to?(:original) && x.original ? x.original : x.cause
  end
  located = chain.find { |c| c.respond_to?(:file) && c.file } || e
  h = {
    'message' => e.message,
    'file' => located.respond_to?(:file) ? located.file : nil,
    'line' => located.respond_to?(:line) ? located.line : nil
  }
  h['pos'] = located.pos if located.respond_to?(:pos) && located.pos
  h['issue_code'] = located.issue_code.to_s if located.respond_to?(:issue_code) && located.issue_code
  h['basic_message'] = located.basic_message if located.respond_to?(:basic_message) && located.basic_message
  h['class'] = e.class.name
  h['cause_class'] = located.class.name unless located.equal?(e)
  h
end

def normalize(data)
  resources = data['resources'].map do |r|
    out = { 'type' => r['type'], 'title' => r['title'], 'tags' => (r['tags'] || []).sort,
            'exported' => r['exported'] ? true : false }
    out['file'] = r['file'] if r['file']
    out['line'] = r['line'] if r['line']
    out['parameters'] = (r['parameters'] || {}).sort.to_h
    sens = r['sensitive_parameters']
    out['sensitive_parameters'] = sens.sort if sens && !sens.empty?
    out
  end
  order = resources.map { |r| "#{r['type']}[#{r['title']}]" }
  edges = data['edges'].map { |e| { 'source' => e['source'], 'target' => e['target'] } }
  { 'name' => data['name'], 'environment' => data['environment'], 'classes' => data['classes'],
    'tags' => data['tags'].sort, 'resources' => resources.sort_by { |r| [r['type'], r['title']] },
    'edges' => edges.sort_by { |e| [e['source'], e['target']] }, 'resource_order' => order }
end

def log_fields
  { 'notices' => LOGS.select { |l| l['level'] == 'notice' }.map { |l| l['message'] }, 'logs' => LOGS }
end

# Runs in the forked child: one compile, the oracle's object.
def compile_case(c)
  case_dir = File.realpath(c['dir'])
  FileUtils.rm_f(ENV_LINK)
  File.symlink(case_dir, ENV_LINK)
  (c['settings'] || []).each do |s|
    name, value = s.split('=', 2)
    Puppet.settings[name.to_sym] = value
  end
  Puppet::Util::Log.close_all
  Puppet::Util::Log.newdestination(BatchCollector.new)
  Puppet::Util::Log.level = :info
  node_name = c['node'] || 'testnode.example.com'
  result = begin
    catalog = nil
    env = Puppet.lookup(:environments).get!('production')
    node = Puppet::Node.new(node_name, environment: env, classes: [])
    node.fact_merge(Puppet::Node::Facts.new(node_name, {}))
    node.add_server_facts({})
    trusted = Puppet::Context::TrustedInformation.new('remote', node_name, {}, {})
    Puppet.override({ current_environment: env, trusted_information: trusted }, 'puppet batch') do
      catalog = Puppet::Parser::Compiler.compile(node)
    end
    data = Puppet.override(rich_data: true) { catalog.to_data_hash }
    normalize(data).merge(log_fields)
  rescue Exception => e # rubocop:disable Lint/RescueException
    raise if e.is_a?(SystemExit)
    { 'error' => error_hash(e) }.merge(log_fields)
  end
  deep_rel(result, rel_rules(case_dir))
end

results = {}
CASES.each do |c|
  reader, writer = IO.pipe
  pid = fork do
    reader.close
    out = begin
      JSON.generate(compile_case(c), quirks_mode: true)
    rescue Exception => e # rubocop:disable Lint/RescueException
      JSON.generate('driver_error' => "#{e.class}: #{e.message}")
    end
    writer.write(out)
    writer.close
    exit!(0)
  end
  writer.close
  text = reader.read
  reader.close
  Process.wait(pid)
  results[c['id']] = text.empty? ? { 'driver_error' => 'no output' } : JSON.parse(text)
end
File.write(out_file, JSON.pretty_generate(results))
