#!/usr/bin/env ruby
# frozen_string_literal: true
#
# oracle-batch.rb JOBS.json [PARALLEL]
# oracle-batch.rb --cases IN.json OUT.json [PARALLEL]
#
# Runs the oracle's own scripts (`compile`, `lookup` in ORACLE_DIR, default /work/shared/oracle) over
# many cases while paying Puppet's `require` once: this process loads Puppet, then forks one child per
# job, and the child `load`s the unchanged oracle script with the job's ARGV, its stdout sent to the
# job's file. Every child starts from the same freshly-required state and dies after its job, so no
# Puppet state (loaded types and functions, warn-once, settings, environment caches) passes from one
# job to another: the isolation the oracle gets from one process per run, and the output is the
# oracle's byte for byte. The differential tools under test/tools/ all use it.
#
# JOBS.json: [{"tool": "compile"|"lookup", "argv": [...], "out": FILE, "cwd"?: DIR}, ...]. FILE gets
#   the script's stdout, FILE.err its stderr, FILE.rc its exit status ("killed" when it ran longer
#   than ORACLE_TIMEOUT seconds, default 300).
# --cases IN.json: [{"id": ..., "dir": CASE_DIR, "node"?: NAME, "settings"?: ["strict=error", ...],
#   "facts"?: FILE}, ...], each compiled as `compile CASE_DIR --node NAME --setting ...`; OUT.json is
#   {"<id>": <that run's JSON, its text unchanged>, ...} ({"driver_error": ...} when a run printed
#   nothing parseable).
# At most PARALLEL (default 1) children run at once.

require 'json'
require 'tmpdir'
require 'fileutils'

ORACLE_DIR = ENV.fetch('ORACLE_DIR', '/work/shared/oracle')
TIMEOUT = Float(ENV.fetch('ORACLE_TIMEOUT', '300'))

def usage
  abort 'usage: oracle-batch.rb JOBS.json [PARALLEL] | oracle-batch.rb --cases IN.json OUT.json [PARALLEL]'
end

# What the oracle scripts require, loaded before the first fork so that no child pays for it.
def load_puppet
  %w[yaml date optparse].each { |lib| require lib }
  require 'puppet'
  require 'puppet/parser/compiler'
end

# Forks a child per job, at most `parallel` at a time; each child runs one oracle script.
def run_jobs(jobs, parallel)
  running = {}
  reap = lambda do
    loop do
      pid, status = Process.wait2(-1, Process::WNOHANG)
      if pid
        job, = running.delete(pid)
        File.write("#{job['out']}.rc", "#{status.exitstatus || 'killed'}\n") if job
        return
      end
      now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      running.each { |p, (_, t0)| Process.kill('KILL', p) if now - t0 > TIMEOUT rescue nil }
      sleep 0.02
    end
  end
  jobs.each do |job|
    reap.call while running.size >= parallel
    pid = fork do
      Dir.chdir(job['cwd']) if job['cwd']
      $stdout.reopen(job['out'], 'w')
      $stderr.reopen("#{job['out']}.err", 'w')
      script = File.join(ORACLE_DIR, job['tool'])
      ARGV.replace(job['argv'])
      $PROGRAM_NAME = script
      load script
      exit 0
    end
    running[pid] = [job, Process.clock_gettime(Process::CLOCK_MONOTONIC)]
  end
  reap.call until running.empty?
end

# The --cases form: compile jobs into a scratch directory, then their outputs gathered by id.
def run_cases(in_file, out_file, parallel)
  cases = JSON.parse(File.read(in_file))
  Dir.mktmpdir('oracle-batch-') do |scratch|
    jobs = cases.each_with_index.map do |c, i|
      argv = [File.expand_path(c['dir']), '--node', c['node'] || 'testnode.example.com']
      argv += ['--facts', File.expand_path(c['facts'])] if c['facts']
      (c['settings'] || []).each { |s| argv += ['--setting', s] }
      { 'tool' => 'compile', 'argv' => argv, 'out' => File.join(scratch, "#{i}.json") }
    end
    run_jobs(jobs, parallel)
    members = cases.zip(jobs).map do |c, job|
      text = File.exist?(job['out']) ? File.read(job['out']).strip : ''
      text = JSON.generate('driver_error' => driver_error(job)) unless parses?(text)
      "#{JSON.generate(c['id'].to_s)}: #{text}"
    end
    File.write(out_file, "{\n#{members.join(",\n")}\n}\n")
  end
end

def parses?(text)
  JSON.parse(text)
  true
rescue JSON::ParserError
  false
end

def driver_error(job)
  rc = File.exist?("#{job['out']}.rc") ? File.read("#{job['out']}.rc").strip : 'none'
  err = File.exist?("#{job['out']}.err") ? File.read("#{job['out']}.err").strip : ''
  "oracle exit #{rc}: #{err.lines.first(3).join.strip}"
end

if ARGV[0] == '--cases'
  usage unless ARGV.size.between?(3, 4)
  load_puppet
  run_cases(ARGV[1], ARGV[2], Integer(ARGV[3] || '1'))
else
  usage unless ARGV.size.between?(1, 2)
  jobs = JSON.parse(File.read(ARGV[0]))
  load_puppet
  run_jobs(jobs, Integer(ARGV[1] || '1'))
end
