# frozen_string_literal: true
#
# compare.rb PUPPET.json MODELC.json [SNIPPETS.json]: the cases whose normalized outputs differ,
# with the first difference of each (error message, notices, logs, then the catalog), and the counts.

require 'json'

# Ruby prints an object's memory address in its default inspect (`#<Puppet::Pops::Evaluator::PuppetProc:0x00007f46663804b0 ...>`):
# it differs from run to run, and modelc prints zeros for it. Outputs are compared with the address
# blanked out of such texts only, so a difference anywhere else still counts.
ADDRESS = /(#<[A-Z][\w:]*:)0x\h{16}/
def without_addresses(text) = text.gsub(ADDRESS, '\\10x')

puppet = JSON.parse(without_addresses(File.read(ARGV[0])))
modelc = JSON.parse(without_addresses(File.read(ARGV[1])))
sources = ARGV[2] ? JSON.parse(File.read(ARGV[2])).to_h { |s| [s['id'], s['source']] } : {}

def first_difference(p, m)
  return ['error', p.dig('error', 'message'), m.dig('error', 'message')] if p.dig('error', 'message') != m.dig('error', 'message')
  %w[notices logs resources edges resource_order classes tags error].each do |k|
    return [k, p[k], m[k]] if JSON.generate(p[k]) != JSON.generate(m[k])
  end
  nil
end

equal = 0
differ = []
puppet.each do |id, p|
  m = modelc[id] || { 'missing' => true }
  d = first_difference(p, m)
  if d.nil? && JSON.generate(p) == JSON.generate(m) then equal += 1
  else differ << [id, d || ['other', p, m]]
  end
end
differ.each do |id, (k, pv, mv)|
  puts "=== #{id} (#{k})"
  puts sources[id].to_s.gsub(/^/, '  | ') if sources[id] && ENV['SHOW_SOURCE']
  puts "  puppet: #{JSON.generate(pv)[0, 600]}"
  puts "  modelc: #{JSON.generate(mv)[0, 600]}"
end
puts "#{equal} equal, #{differ.size} differ"
