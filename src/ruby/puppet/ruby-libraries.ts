/**
 * Ruby standard-library classes plugin code builds on, written in the Ruby subset itself and run
 * in a plugin runtime the first time their constant is named (`Gem::Version` comparisons).
 * Only what the module code in Debian's packages calls is here; the behaviour follows Ruby 3.1's.
 */

/**
 * RubyGems' version objects, as plugin code compares Puppet's and the kernel's versions:
 * segments are numbers and letter runs; a letter run sorts before any number (a prerelease) and
 * missing segments count as 0 (1.0 == 1).
 */
const GEM = String.raw`
module Gem
  class Version
    include Comparable

    def self.correct?(version)
      !(version.to_s.strip =~ /\A[0-9]+(\.[0-9a-zA-Z]+)*(-[0-9A-Za-z.-]+)?\z/).nil?
    end

    def self.create(input)
      input.is_a?(Version) ? input : new(input)
    end

    def initialize(version)
      text = version.to_s.strip
      raise ArgumentError, "Malformed version number string #{version}" unless Version.correct?(text)
      @version = text.tr('-', '.pre.')
      @original = text
    end

    def version
      @original
    end
    alias to_s version

    def segments
      @version.scan(/[0-9]+|[a-zA-Z]+/).map { |s| s =~ /\A\d+\z/ ? s.to_i : s }
    end

    def prerelease?
      @version =~ /[a-zA-Z]/ ? true : false
    end

    def release
      return self unless prerelease?
      numbers = []
      segments.each do |s|
        break if s.is_a?(String)
        numbers << s
      end
      Version.new(numbers.join('.'))
    end

    def <=>(other)
      other = Version.new(other) if other.is_a?(String)
      return nil unless other.is_a?(Version)
      mine = segments
      theirs = other.segments
      count = [mine.length, theirs.length].max
      (0...count).each do |i|
        a = mine[i] || 0
        b = theirs[i] || 0
        next if a == b
        return -1 if a.is_a?(String) && b.is_a?(Integer)
        return 1 if a.is_a?(Integer) && b.is_a?(String)
        return a <=> b
      end
      0
    end

    def inspect
      "#<Gem::Version #{@original.inspect}>"
    end
  end
end
`;

/** The libraries by the constant that loads them. */
export const RUBY_LIBRARIES: ReadonlyMap<string, { readonly file: string; readonly source: string }> = new Map([
    ['Gem', { file: '(modelc)/rubygems/version.rb', source: GEM }]
]);
