# Counts the entries of a hash or an array (a 3.x function of the warm-up module).
module Puppet::Parser::Functions
  newfunction(:warm_count, type: :rvalue, doc: 'Counts the entries of a hash or an array.') do |args|
    raise Puppet::ParseError, "warm_count(): expects 1 argument, got #{args.size}" unless args.size == 1

    value = args[0]
    case value
    when Hash, Array then value.size
    else 0
    end
  end
end
