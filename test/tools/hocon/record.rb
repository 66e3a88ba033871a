# frozen_string_literal: true
#
# record.rb FIXTURE_DIR: what ruby-hocon 1.3.1 (the gem Puppet 7.23's hocon_data and stdlib's
# parsehocon call) gives for each line of FIXTURE_DIR/cases.txt (HOCON text, `\n` for a newline),
# parsed as Hocon.parse parses a string, with FIXTURE_DIR as the working directory (where a
# file() include is opened). Writes FIXTURE_DIR/expected.json: per case the value, or the error's
# class and first line, the fixture directory's path written <DIR>.
# test/values/hocon-include.test.ts reads it.

require 'hocon'
require 'json'

dir = File.expand_path(ARGV.fetch(0))
Dir.chdir(dir)
cases = File.readlines('cases.txt', chomp: true).reject(&:empty?).map do |line|
  text = line.gsub('\n', "\n")
  begin
    { 'source' => line, 'value' => Hocon.parse(text) }
  rescue Exception => e # rubocop:disable Lint/RescueException -- the gem's NoMethodErrors are part of its behaviour
    message = e.message.lines.first.chomp.gsub(dir, '<DIR>').gsub(/0x\h{16}/, '0x0000000000000000')
    { 'source' => line, 'error' => { 'class' => e.class.name, 'message' => message } }
  end
end
File.write('expected.json', JSON.pretty_generate(cases) + "\n")
warn "#{cases.size} cases"
