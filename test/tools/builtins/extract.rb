# frozen_string_literal: true
#
# extract.rb DOCS.json OUT.json
#
# The code examples of the function documentation (docs.rb's output), made into manifests that
# show their values: fenced blocks, YARD @example blocks and indented code blocks are taken as
# written; then, with Puppet's own parser, each top-level statement that only computes a value is
# wrapped in notice(), and each assignment is followed by a notice() of the variables it sets
# (what the example's "# would notice ..." or "# $x = ..." comments say). An example that
# assigns a variable twice (alternatives shown one after the other) is cut into several
# manifests, each keeping the other statements before it. Prose lines inside an @example are
# kept as comments. Output: [{"id", "fn", "api", "origin", "source"}, ...], one per manifest,
# without duplicates.

require 'json'
require 'puppet'

docs = JSON.parse(File.read(ARGV[0]))

# Code blocks of one documentation text.
def code_blocks(doc)
  blocks = []
  lines = doc.lines.map(&:chomp)
  i = 0
  while i < lines.size
    line = lines[i]
    if (m = line.match(/\A(\s*)```\s*([\w-]*)\s*\z/))
      lang = m[2]
      body = []
      i += 1
      while i < lines.size && lines[i] !~ /\A\s*```\s*\z/
        body << lines[i]
        i += 1
      end
      blocks << body.join("\n") if lang.empty? || lang == 'puppet' || lang == 'pp'
    elsif (m = line.match(/```(.+?)```/))
      blocks << m[1]
    elsif (m = line.match(/\A(\s*)@example/))
      indent = m[1].size
      body = []
      j = i + 1
      while j < lines.size
        l = lines[j]
        break if l =~ /\A\s*@\w/ && l[/\A\s*/].size <= indent
        break if !l.strip.empty? && l[/\A\s*/].size <= indent && l !~ /\A\s*```/
        body << l
        j += 1
      end
      if body.any? { |l| l =~ /```/ }
        i += 1 # the fenced blocks inside are taken on their own
        next
      end
      blocks << body.map { |l| prose?(l) ? "# #{l.strip}" : l }.join("\n") unless body.all? { |l| l.strip.empty? }
      i = j
      next
    end
    i += 1
  end
  blocks.map { |b| dedent(b) }.reject { |b| b.strip.empty? }
end

# A line of English in the middle of an example ("Encode and decode a string").
def prose?(line)
  s = line.strip
  return false if s.empty? || s.start_with?('#')
  s =~ /\A[A-Z][a-z]+,? [a-z]/ && s !~ /[${}=]/ || s =~ /\A(Would|Results?|Returns?|Outputs?) /
end

def dedent(text)
  ind = text.lines.reject { |l| l.strip.empty? }.map { |l| l[/\A */].size }.min || 0
  text.lines.map { |l| l.strip.empty? ? "\n" : l[ind..] }.join.rstrip + "\n"
end

STATEMENT_FUNCTIONS = %w[notice info warning err debug alert crit emerg fail include contain require realize tag
                         create_resources ensure_resource ensure_resources ensure_packages break next return
                         assert_private validate_legacy deprecation].freeze

# The variables an assignment sets.
def assigned(expr)
  case expr
  when Puppet::Pops::Model::VariableExpression then [expr.expr.value]
  when Puppet::Pops::Model::LiteralList then expr.values.flat_map { |v| assigned(v) }
  when Puppet::Pops::Model::LiteralHash then expr.entries.flat_map { |e| assigned(e.key) }
  when Puppet::Pops::Model::LiteralString then [expr.value]
  else []
  end
end

def value_only?(stmt)
  case stmt
  when Puppet::Pops::Model::CallNamedFunctionExpression
    !STATEMENT_FUNCTIONS.include?(stmt.functor_expr.respond_to?(:value) ? stmt.functor_expr.value : '')
  when Puppet::Pops::Model::CallMethodExpression
    name = stmt.functor_expr.respond_to?(:right_expr) ? stmt.functor_expr.right_expr.value : ''
    !STATEMENT_FUNCTIONS.include?(name)
  when Puppet::Pops::Model::Definition, Puppet::Pops::Model::AbstractResource, Puppet::Pops::Model::IfExpression,
       Puppet::Pops::Model::UnlessExpression, Puppet::Pops::Model::CaseExpression, Puppet::Pops::Model::RelationshipExpression,
       Puppet::Pops::Model::CollectExpression, Puppet::Pops::Model::NodeDefinition, Puppet::Pops::Model::TypeAlias,
       Puppet::Pops::Model::TypeMapping, Puppet::Pops::Model::Nop, Puppet::Pops::Model::QualifiedName,
       Puppet::Pops::Model::AssignmentExpression, Puppet::Pops::Model::BlockExpression
    false
  else true
  end
end

PARSER = Puppet::Pops::Parser::Parser.new

# The source range of a statement: a binary expression is positioned at its operator, so the
# range is the union of its own and all its contents' ranges.
def span(stmt)
  lo = stmt.offset
  hi = stmt.offset + stmt.length
  stmt._pcore_all_contents([]) do |o|
    next unless o.respond_to?(:offset) && o.offset
    lo = [lo, o.offset].min
    hi = [hi, o.offset + o.length].max
  end
  lo...hi
end

# The manifests one code block gives: [source, ...].
def manifests(code)
  program = begin
    PARSER.parse_string(code, 'example.pp').model
  rescue StandardError
    return [code] # a syntax error is compared as it is
  end
  body = program.body
  stmts = body.is_a?(Puppet::Pops::Model::BlockExpression) ? body.statements : [body].compact
  return [code] if stmts.empty?
  out = []
  current = [] # [text, vars]
  stmts.each do |s|
    text = code[span(s)]
    if s.is_a?(Puppet::Pops::Model::AssignmentExpression)
      vars = assigned(s.left_expr)
      if current.any? { |_, v| (v & vars).any? }
        out << current.map(&:first).join("\n")
        current = current.reject { |_, v| (v & vars).any? }
      end
      current << ["#{text}\n#{vars.map { |v| "notice($#{v})" }.join("\n")}", vars]
    elsif value_only?(s)
      current << ["notice(#{text})", []]
    else
      current << [text, []]
    end
  end
  out << current.map(&:first).join("\n")
  out.map { |m| "#{m}\n" }
end

seen = {}
result = []
docs.each do |d|
  code_blocks(d['doc']).each_with_index do |block, bi|
    manifests(block).each_with_index do |src, mi|
      key = [d['origin'] == 'stdlib', src]
      next if seen[key]
      seen[key] = true
      result << { 'id' => "#{d['origin']}-#{d['api']}-#{d['fn']}-#{bi}-#{mi}", 'fn' => d['fn'], 'api' => d['api'],
                  'origin' => d['origin'], 'source' => src }
    end
  end
end
File.write(ARGV[1], JSON.pretty_generate(result))
warn "#{result.size} manifests from #{docs.size} documented functions"
