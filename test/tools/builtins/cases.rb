# frozen_string_literal: true
#
# cases.rb SNIPPETS.json WORK_DIR: one environment per manifest (WORK_DIR/cases/ID/manifests/site.pp;
# stdlib's examples get modules/stdlib, Debian's puppetlabs-stdlib), and WORK_DIR/in.json, the case
# list oracle-batch.rb --cases and modelc-batch.mjs read. A snippet may carry "settings" (oracle --setting).

require 'json'
require 'fileutils'

STDLIB = '/usr/share/puppet/modules.available/puppetlabs-stdlib'
snippets = JSON.parse(File.read(ARGV[0]))
work = File.expand_path(ARGV[1])
list = snippets.map do |s|
  dir = File.join(work, 'cases', s['id'])
  FileUtils.rm_rf(dir)
  FileUtils.mkdir_p(File.join(dir, 'manifests'))
  File.write(File.join(dir, 'manifests', 'site.pp'), s['source'])
  if s['origin'] == 'stdlib' || s['stdlib']
    FileUtils.mkdir_p(File.join(dir, 'modules'))
    File.symlink(STDLIB, File.join(dir, 'modules', 'stdlib'))
  end
  { 'id' => s['id'], 'dir' => dir, 'settings' => s['settings'] || [] }
end
File.write(File.join(work, 'in.json'), JSON.generate(list))
