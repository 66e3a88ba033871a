# frozen_string_literal: true
#
# docs.rb OUT.json: the documentation text of every Puppet 7 core function and every stdlib
# function, as their Ruby sources hold it: the comment lines of a 4.x function file
# (Puppet::Functions.create_function), and the :doc option of a 3.x one
# (Puppet::Parser::Functions.newfunction, captured by loading the file with newfunction
# replaced, so no function body runs). Output: [{"fn", "api", "origin", "file", "doc"}, ...].

require 'json'

CORE = '/usr/lib/ruby/vendor_ruby/puppet'
STDLIB = '/usr/share/puppet/modules.available/puppetlabs-stdlib/lib/puppet'

out = []
[[CORE, 'core'], [STDLIB, 'stdlib']].each do |root, origin|
  Dir[File.join(root, 'functions', '**', '*.rb')].sort.each do |f|
    text = File.read(f)
    doc = text.lines.select { |l| l =~ /\A\s*#/ }.map { |l| l.sub(/\A\s*# ?/, '') }.join
    name = text[/create_function\(\s*:?['"]?([\w:]+)/, 1] || File.basename(f, '.rb')
    out << { 'fn' => name, 'api' => '4x', 'origin' => origin, 'file' => f, 'doc' => doc }
  end
end

DOCS = {}
require 'puppet'
module Puppet
  module Parser
    module Functions
      def self.newfunction(name, opts = {}, &_block) = DOCS[name.to_s] = opts[:doc].to_s
    end
  end
end
[[CORE, 'core'], [STDLIB, 'stdlib']].each do |root, origin|
  Dir[File.join(root, 'parser', 'functions', '*.rb')].sort.each do |f|
    DOCS.clear
    begin
      load f
    rescue Exception => e # rubocop:disable Lint/RescueException
      warn "#{f}: #{e.class}: #{e.message}"
    end
    DOCS.each { |n, d| out << { 'fn' => n, 'api' => '3x', 'origin' => origin, 'file' => f, 'doc' => d } }
  end
end
File.write(ARGV[0], JSON.pretty_generate(out))
