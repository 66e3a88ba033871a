# frozen_string_literal: true
#
# record.rb OUT.json SNIPPETS.json:RUN_DIR[:IDS_FILE] ...: the snippets whose modelc output now
# equals real Puppet's, as fixtures for test/catalog/recorded-snippets.test.ts: the source, Puppet's
# error message (or null), its notices, its warnings, and the resource order when the catalog has
# more than the three resources every catalog has. IDS_FILE (one id a line) limits the selection;
# stdlib snippets are marked "stdlib" (the test runs them when Debian's stdlib is installed).

require 'json'

ADDRESS = /(#<[A-Z][\w:]*:)0x\h{16}/
def without_addresses(text) = text.gsub(ADDRESS, '\\10x')

out = []
NOW = /Timestamp(\.new)?\(\s*\)|strftime\(\s*['"]|Timestamp\.new\(\s*\)/
ARGV[1..].each do |spec|
  snippets_file, run_dir, ids_file = spec.split(':')
  ids = ids_file ? File.readlines(ids_file, chomp: true).reject(&:empty?) : nil
  # Ruby's object addresses are compared blanked out (see compare.rb); the fixture keeps Puppet's text.
  puppet = JSON.parse(File.read(File.join(run_dir, 'puppet.json')))
  modelc = JSON.parse(without_addresses(File.read(File.join(run_dir, 'modelc.json'))))
  JSON.parse(File.read(snippets_file)).each do |s|
    next if ids && !ids.include?(s['id'])
    next if s['source'] =~ NOW # the time of the run: not reproducible
    p = puppet[s['id']]
    next unless p && without_addresses(JSON.generate(p)) == JSON.generate(modelc[s['id']])
    entry = { 'source' => s['source'].chomp, 'message' => p.dig('error', 'message'), 'notices' => p['notices'] }
    entry['stdlib'] = true if s['origin'] == 'stdlib' || s['stdlib']
    warnings = p['logs'].select { |l| l['level'] == 'warning' }.map { |l| l['message'] }
    entry['warnings'] = warnings unless warnings.empty?
    entry['resource_order'] = p['resource_order'] if p['resource_order'] && p['resource_order'].size > 3
    out << entry
  end
end
File.write(ARGV[0], JSON.pretty_generate(out) + "\n")
warn "#{out.size} fixtures"
