#!/usr/bin/env ruby
# frozen_string_literal: true
#
# oracle-batch.rb JOBS.json [PARALLEL]
#
# Runs many `oracle/lookup` (or `oracle/compile`) invocations while paying Puppet's ~0.6 s
# `require` once: the parent loads Puppet, then forks one child per job, and the child `load`s
# the unchanged oracle script with the job's ARGV and its stdout sent to the job's file. Each
# child starts from the same freshly-required state and dies after its job, so no Puppet state
# (loaded types, warn-once, settings, caches) leaks from one job into another, which is why the
# oracle itself refuses a batch mode. JOBS.json: [{"tool": "lookup"|"compile", "argv": [...],
# "out": FILE, "cwd": DIR}]. Exit status of each child goes to FILE.rc.
require 'json'

ORACLE_DIR = ENV.fetch('ORACLE_DIR', '/work/shared/oracle')
jobs = JSON.parse(File.read(ARGV[0]))
parallel = (ARGV[1] || '1').to_i

require 'yaml'
require 'date'
require 'tmpdir'
require 'fileutils'
require 'optparse'
require 'puppet'
require 'puppet/parser/compiler'

running = {}
started = {}
run_one = lambda do |job|
  pid = fork do
    Dir.chdir(job['cwd']) if job['cwd']
    $stdout.reopen(job['out'], 'w')
    $stderr.reopen("#{job['out']}.err", 'w')
    ARGV.replace(job['argv'])
    script = File.join(ORACLE_DIR, job['tool'])
    $0 = script
    load script
    exit 0
  end
  running[pid] = job
  started[pid] = Process.clock_gettime(Process::CLOCK_MONOTONIC)
end
TIMEOUT = 120
reap = lambda do
  loop do
    pid, status = Process.wait2(-1, Process::WNOHANG)
    if pid
      job = running.delete(pid)
      File.write("#{job['out']}.rc", (status.exitstatus || 'killed').to_s) if job
      return
    end
    # A child that runs too long is killed; its job is recorded as such.
    now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    running.each_key { |p| Process.kill('KILL', p) if now - started[p] > TIMEOUT rescue nil }
    sleep 0.02
  end
end
jobs.each do |job|
  reap.call while running.size >= parallel
  run_one.call(job)
end
reap.call until running.empty?
