#!/usr/bin/env ruby
# frozen_string_literal: true
#
# oracle-batch.rb ORACLE_COMPILE JOBS < LIST
#
# Runs the oracle's `compile` script on many cases while paying for `require 'puppet'` once:
# Puppet is loaded here, then every case runs in a fork of this process that loads the oracle
# script itself with the case's arguments. Each case thus gets a fresh process image (no Ruby
# types, functions or warn-once state of another case), and its output is the script's own.
#
# LIST: one case per line, `CASE_DIR<TAB>OUT_FILE<TAB>ARG...` (the oracle's options, e.g.
# `--node web01.example.com --facts /path/facts.yaml`). OUT_FILE receives stdout; OUT_FILE.rc
# the exit status; OUT_FILE.err stderr. At most JOBS children run at once.

oracle = ARGV.fetch(0)
jobs = Integer(ARGV.fetch(1, '1'))
require 'json'
require 'yaml'
require 'date'
require 'tmpdir'
require 'fileutils'
require 'optparse'
require 'puppet'
require 'puppet/parser/compiler'

running = {}
$stdin.each_line do |line|
  fields = line.chomp.split("\t")
  next if fields.size < 2
  dir, out, *args = fields
  while running.size >= jobs
    pid, status = Process.wait2
    File.write("#{running.delete(pid)}.rc", "#{status.exitstatus}\n")
  end
  pid = fork do
    $stdout.reopen(out, 'w')
    $stderr.reopen("#{out}.err", 'w')
    ARGV.replace([dir, *args])
    $PROGRAM_NAME = oracle
    load oracle
  end
  running[pid] = out
end
until running.empty?
  pid, status = Process.wait2
  File.write("#{running.delete(pid)}.rc", "#{status.exitstatus}\n")
end
