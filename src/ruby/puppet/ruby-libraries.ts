/**
 * Ruby standard-library classes plugin code builds on, written in the Ruby subset itself and run
 * in a plugin runtime the first time their constant is named (firewall's `IPCidr < IPAddr`,
 * `Gem::Version` comparisons).
 * Only what the module code in Debian's packages calls is here; the behaviour follows Ruby 3.1's
 * documented results (addresses masked by their prefix, IPv6 printed with the longest zero run
 * compressed).
 */
const IPADDR = String.raw`
module Socket
  AF_UNSPEC = 0
  AF_INET = 2
  AF_INET6 = 10
end

class IPAddr
  include Comparable
  IN4MASK = 0xffffffff
  IN6MASK = 0xffffffffffffffffffffffffffffffff
  class Error < ArgumentError; end
  class InvalidAddressError < Error; end
  class AddressFamilyError < Error; end
  class InvalidPrefixError < InvalidAddressError; end

  attr_reader :family

  def initialize(addr = '::', family = Socket::AF_UNSPEC)
    if addr.is_a?(Integer)
      raise AddressFamilyError, 'address family must be specified' if family == Socket::AF_UNSPEC
      @family = family
      @mask_addr = family == Socket::AF_INET ? IN4MASK : IN6MASK
      raise InvalidAddressError, 'invalid address' if addr < 0 || addr > @mask_addr
      @addr = addr
      return
    end
    text = addr.to_s
    host, len = text.split('/', 2)
    host = host[1..-2] if host.start_with?('[') && host.end_with?(']')
    host = host.sub(/%.*\z/, '')
    if host.include?(':')
      @family = Socket::AF_INET6
      @addr = parse_v6(host, text)
    else
      @family = Socket::AF_INET
      @addr = parse_v4(host, text)
    end
    raise AddressFamilyError, 'address family mismatch' if family != Socket::AF_UNSPEC && family != @family
    @mask_addr = ipv4? ? IN4MASK : IN6MASK
    mask!(len) unless len.nil?
  end

  def ipv4?
    @family == Socket::AF_INET
  end

  def ipv6?
    @family == Socket::AF_INET6
  end

  def to_i
    @addr
  end

  def prefix
    bits = ipv4? ? 32 : 128
    m = @mask_addr
    n = 0
    while n < bits && (m >> (bits - 1 - n)) & 1 == 1
      n += 1
    end
    n
  end

  def mask(len)
    copy = self.class.new(to_string, @family)
    copy.mask!(len)
  end

  def include?(other)
    other = self.class.new(other.to_s) unless other.is_a?(IPAddr)
    return false unless other.family == @family
    (other.to_i & @mask_addr) == (@addr & @mask_addr)
  end
  alias === include?

  def to_range
    low = @addr & @mask_addr
    high = low | (@mask_addr ^ (ipv4? ? IN4MASK : IN6MASK))
    self.class.new(low, @family)..self.class.new(high, @family)
  end

  def <=>(other)
    return nil unless other.is_a?(IPAddr) && other.family == @family
    @addr <=> other.to_i
  end

  def ==(other)
    other.is_a?(IPAddr) && other.family == @family && other.to_i == @addr
  end

  def eql?(other)
    self == other && other.prefix == prefix
  end

  def hash
    [@addr, @mask_addr, @family].hash
  end

  def to_string
    _to_string(@addr)
  end

  def to_s
    return to_string if ipv4?
    groups = (0..7).map { |i| ((@addr >> (112 - 16 * i)) & 0xffff).to_s(16) }
    best_at = nil
    best_len = 1
    i = 0
    while i < 8
      if groups[i] == '0'
        j = i
        j += 1 while j < 8 && groups[j] == '0'
        if j - i > best_len
          best_at = i
          best_len = j - i
        end
        i = j
      else
        i += 1
      end
    end
    text = if best_at.nil?
             groups.join(':')
           else
             groups[0, best_at].join(':') + '::' + groups[(best_at + best_len)..-1].join(':')
           end
    m = /\A::(ffff:)?([\da-f]{1,4}):([\da-f]{1,4})\z/.match(text)
    if m
      hi = m[2].hex
      lo = m[3].hex
      text = "::#{m[1]}#{hi / 256}.#{hi % 256}.#{lo / 256}.#{lo % 256}"
    end
    text
  end

  def inspect
    "#<IPAddr: #{ipv4? ? 'IPv4' : 'IPv6'}:#{to_string}/#{_to_string(@mask_addr)}>"
  end

  def mask!(len)
    text = len.to_s
    if text =~ /\A\d+\z/
      bits = ipv4? ? 32 : 128
      n = text.to_i
      raise InvalidPrefixError, "invalid length: #{text}" if n > bits
      all = ipv4? ? IN4MASK : IN6MASK
      @mask_addr = (all << (bits - n)) & all
    else
      m = self.class.new(text, @family)
      @mask_addr = m.to_i
    end
    @addr &= @mask_addr
    self
  end

  protected :mask!

  private

  def _to_string(value)
    if ipv4?
      (0..3).map { |i| (value >> (24 - 8 * i)) & 0xff }.join('.')
    else
      (0..7).map { |i| format('%.4x', (value >> (112 - 16 * i)) & 0xffff) }.join(':')
    end
  end

  def parse_v4(host, text)
    parts = host.split('.', -1)
    raise InvalidAddressError, "invalid address: #{text}" unless parts.length == 4 && parts.all? { |p| p =~ /\A\d{1,3}\z/ }
    parts.inject(0) do |acc, p|
      raise InvalidAddressError, "invalid address: #{text}" if p.to_i > 255 || (p.length > 1 && p.start_with?('0'))
      (acc << 8) | p.to_i
    end
  end

  def parse_v6(host, text)
    tail = []
    if host =~ /\A(.*:)(\d+\.\d+\.\d+\.\d+)\z/
      v4 = parse_v4(Regexp.last_match(2), text)
      host = Regexp.last_match(1) + format('%x:%x', v4 >> 16, v4 & 0xffff)
    end
    halves = host.split('::', -1)
    raise InvalidAddressError, "invalid address: #{text}" if halves.length > 2
    head = halves[0].empty? ? [] : halves[0].split(':', -1)
    tail = halves[1].nil? || halves[1].empty? ? [] : halves[1].split(':', -1)
    groups = head + tail
    valid = groups.all? { |g| g =~ /\A[\da-fA-F]{1,4}\z/ }
    count_ok = halves.length == 2 ? groups.length < 8 : groups.length == 8
    raise InvalidAddressError, "invalid address: #{text}" unless valid && count_ok
    full = head + Array.new(8 - groups.length, '0') + tail
    full.inject(0) { |acc, g| (acc << 16) | g.hex }
  end
end
`;

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
    ['IPAddr', { file: '(modelc)/ipaddr.rb', source: IPADDR }],
    ['Socket', { file: '(modelc)/ipaddr.rb', source: IPADDR }],
    ['Gem', { file: '(modelc)/rubygems/version.rb', source: GEM }]
]);
