# frozen_string_literal: true
#
# snippets.rb TEXT_FILE OUT.json [PREFIX]: hand-written manifests, separated by lines of `----`
# (a manifest's first line `#stdlib` gives it Debian's stdlib module; `#setting NAME=VALUE` an
# oracle setting), as a snippet list for run.sh.

require 'json'
text = File.read(ARGV[0])
prefix = ARGV[2] || File.basename(ARGV[0], '.*')
out = text.split(/^----\s*$\n?/).map(&:strip).reject(&:empty?).each_with_index.map do |src, i|
  settings = src.scan(/^#setting (\S+)$/).flatten
  { 'id' => format('%s-%03d', prefix, i), 'fn' => prefix, 'origin' => src.start_with?('#stdlib') ? 'stdlib' : 'core',
    'source' => "#{src}\n", 'settings' => settings }
end
File.write(ARGV[1], JSON.pretty_generate(out))
