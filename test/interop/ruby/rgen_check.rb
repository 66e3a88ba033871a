# Interop check of modelc's outputs with stock Ruby RGen (Debian ruby-rgen 0.9).
#
#   ruby rgen_check.rb ecore FILE.rgen.ecore...        load each .ecore and build its Ruby module
#   ruby rgen_check.rb json FILE.rgen.ecore INSTANCE.json   load an RGen JSON instance, print a dump
#
# Exit 0 = everything loaded; 1 = a problem (printed on stderr as "PROBLEM ..."); 2 = usage.
#
# The dump is the shape shared with EmfCheck.java and interop.test.ts: a JSON array of roots, each
# object {"class", "attributes", "references", "contents"}; references are the target's EMF path
# fragment ("/" for the root, "//@layers.0/@bindings.1" below it).

require 'json'
require 'rexml/document'
require 'rgen/environment'
require 'rgen/ecore/ecore'
require 'rgen/ecore/ecore_to_ruby'
require 'rgen/instantiator/ecore_xml_instantiator'
require 'rgen/instantiator/json_instantiator'
require 'rgen/instantiator/qualified_name_resolver'

$problems = 0

def problem(msg)
  $problems += 1
  warn "PROBLEM #{msg}"
end

# ECoreXMLInstantiator only logs (puts) what it cannot map; collect those as problems instead.
class CheckingECoreXMLInstantiator < ECoreXMLInstantiator
  attr_reader :messages

  def initialize(env)
    super(env, WARN)
    @messages = []
  end

  def log(level, msg)
    return if level < WARN || msg =~ /\AFeature not found: (xmi|xsi|xmlns)(:\w+)? on /

    @messages << "#{%w[INFO WARN ERROR][level]}: #{msg}"
  end
end

# Loads one .ecore; returns the root EPackage (or nil) after checking what RGen silently drops.
def load_ecore(file)
  env = RGen::Environment.new
  inst = CheckingECoreXMLInstantiator.new(env)
  inst.instantiate(File.read(file))
  inst.messages.each { |m| problem("#{file}: ECoreXMLInstantiator #{m}") }
  packages = env.find(class: RGen::ECore::EPackage).reject(&:eSuperPackage)
  if packages.size != 1
    problem("#{file}: expected one root EPackage, found #{packages.size}")
    return nil
  end
  pkg = packages.first
  check_resolved(file, pkg)
  pkg
end

# RGen resolves only the 7 built-ins and in-file references; anything else silently becomes nil
# (or disappears from a many-valued list). Compare with the XML to catch that.
def check_resolved(file, pkg)
  pkg.eAllClassifiers.each do |c|
    next unless c.is_a?(RGen::ECore::EClass)

    c.eStructuralFeatures.each do |f|
      problem("#{file}: #{c.name}.#{f.name} has eType nil (unsupported built-in such as EDouble/EDate, or an unresolved reference)") if f.eType.nil?
    end
  end
  doc = REXML::Document.new(File.read(file))
  REXML::XPath.each(doc, '//eClassifiers') do |xc|
    name = xc.attributes['name']
    c = pkg.eAllClassifiers.find { |k| k.name == name }
    next unless c.is_a?(RGen::ECore::EClass)

    declared = (xc.attributes['eSuperTypes'] || '').split(/\s+/).size
    if c.eSuperTypes.size != declared
      problem("#{file}: #{name} has #{c.eSuperTypes.size} eSuperTypes in RGen, #{declared} in the XML (#{xc.attributes['eSuperTypes']})")
    end
    REXML::XPath.each(xc, 'eStructuralFeatures') do |xf|
      next unless xf.attributes['eOpposite']

      f = c.eStructuralFeatures.find { |k| k.name == xf.attributes['name'] }
      problem("#{file}: #{name}.#{xf.attributes['name']} eOpposite #{xf.attributes['eOpposite']} did not resolve") if f && f.eOpposite.nil?
    end
  end
end

# Builds the Ruby module and forces every class's (lazily added) feature methods, which is where
# RGen evaluates instanceClassName and rejects unknown datatypes.
def build_module(file, pkg)
  mod = RGen::ECore::ECoreToRuby.new.create_module(pkg)
  pkg.eAllClassifiers.each do |c|
    next unless c.is_a?(RGen::ECore::EClass)

    begin
      c.instanceClass._ecore_to_ruby.add_features(c)
      c.instanceClass.new unless c.abstract
    rescue StandardError, ScriptError => e
      problem("#{file}: class #{c.name}: #{e.class}: #{e.message}")
    end
  end
  mod
rescue StandardError, ScriptError => e
  problem("#{file}: ECoreToRuby#create_module: #{e.class}: #{e.message}")
  nil
end

def check_ecore(files)
  files.each do |file|
    pkg = load_ecore(file)
    next unless pkg

    before = $problems
    mod = build_module(file, pkg)
    next unless mod && $problems == before

    classes = pkg.eAllClassifiers.count { |c| c.is_a?(RGen::ECore::EClass) }
    enums = pkg.eAllClassifiers.count { |c| c.is_a?(RGen::ECore::EEnum) }
    datatypes = pkg.eAllClassifiers.count { |c| c.instance_of?(RGen::ECore::EDataType) }
    features = pkg.eAllClassifiers.select { |c| c.is_a?(RGen::ECore::EClass) }.sum { |c| c.eStructuralFeatures.size }
    puts "OK #{pkg.name} #{pkg.nsURI} classes=#{classes} enums=#{enums} datatypes=#{datatypes} features=#{features}"
  end
end

def containment_features(obj)
  obj.class.ecore.eAllReferences.select(&:containment)
end

# EMF path fragments for every object reachable by containment, as EmfCheck.java computes them.
def index_paths(roots)
  paths = {}
  walk = lambda do |obj, path|
    paths[obj.object_id] = path
    containment_features(obj).each do |f|
      values = obj.getGenericAsArray(f.name)
      values.each_with_index do |child, i|
        seg = f.many ? "@#{f.name}.#{i}" : "@#{f.name}"
        walk.call(child, path == '/' ? "//#{seg}" : "#{path}/#{seg}")
      end
    end
  end
  roots.each_with_index { |r, i| walk.call(r, i.zero? ? '/' : "/#{i}") }
  paths
end

def plain_value(v)
  case v
  when Symbol then v.to_s
  when Array then v.map { |e| plain_value(e) }
  when Hash then v.to_h { |k, e| [k.to_s, plain_value(e)] }
  else v
  end
end

def ref_target(paths, from_path, target)
  if target.is_a?(RGen::MetamodelBuilder::MMProxy)
    problem("unresolved reference from #{from_path} to #{target.targetIdentifier}")
    return "UNRESOLVED #{target.targetIdentifier}"
  end
  paths.fetch(target.object_id) do
    problem("reference from #{from_path} to an object outside the loaded model")
    'OUTSIDE'
  end
end

def dump(obj, paths)
  ecls = obj.class.ecore
  attributes = {}
  defaults = {}
  ecls.eAllAttributes.sort_by(&:name).each do |a|
    v = obj.getGeneric(a.name)
    next if v.nil? || (v.is_a?(Array) && v.empty?)

    # Like EMF's eIsSet: a value the instance did not give is the feature's default.
    (obj.eIsSet(a.name) ? attributes : defaults)[a.name] = plain_value(v)
  end
  references = {}
  contents = {}
  ecls.eAllReferences.sort_by(&:name).each do |r|
    next if r.eOpposite&.containment # the container side of a bidirectional containment

    if r.containment
      if r.many
        children = obj.getGenericAsArray(r.name)
        contents[r.name] = children.map { |c| dump(c, paths) } unless children.empty?
      else
        child = obj.getGeneric(r.name)
        contents[r.name] = dump(child, paths) if child
      end
    elsif r.many
      targets = obj.getGenericAsArray(r.name)
      references[r.name] = targets.map { |t| ref_target(paths, paths[obj.object_id], t) } unless targets.empty?
    else
      t = obj.getGeneric(r.name)
      references[r.name] = ref_target(paths, paths[obj.object_id], t) if t
    end
  end
  result = { 'class' => ecls.name, 'attributes' => attributes }
  result['defaults'] = defaults unless defaults.empty?
  result.merge('references' => references, 'contents' => contents)
end

def check_json(ecore_file, instance_file)
  pkg = load_ecore(ecore_file)
  return unless pkg && $problems.zero?

  mod = build_module(ecore_file, pkg)
  return unless mod && $problems.zero?

  env = RGen::Environment.new
  roots = []
  begin
    unresolved = RGen::Instantiator::JsonInstantiator.new(env, mod).instantiate(File.read(instance_file, encoding: 'UTF-8'), root_elements: roots)
  rescue StandardError, ScriptError => e
    problem("#{instance_file}: JsonInstantiator: #{e.class}: #{e.message}")
    return
  end
  unless unresolved.empty?
    # Say why: re-resolve the identifiers the way the instantiator does (names, "/" separated).
    resolver = RGen::Instantiator::QualifiedNameResolver.new(roots)
    unresolved.each do |ur|
      found = resolver.resolveIdentifier(ur.proxy.targetIdentifier)
      why = if found.is_a?(Array) then "not unique (#{found.size} objects have that name path)"
            elsif found.nil? then 'no object has that name path'
            else "target type #{found.class.ecore.name} does not fit"
            end
      problem("#{instance_file}: unresolved reference #{ur.element.class.ecore.name}.#{ur.feature_name} -> " \
              "#{ur.proxy.targetIdentifier.inspect}: #{why}")
    end
  end
  paths = index_paths(roots)
  out = roots.map { |r| dump(r, paths) }
  puts JSON.pretty_generate(out)
end

case ARGV[0]
when 'ecore'
  abort('usage: rgen_check.rb ecore FILE...') if ARGV.size < 2
  check_ecore(ARGV[1..])
when 'json'
  if ARGV.size != 3
    warn 'usage: rgen_check.rb json FILE.ecore INSTANCE.json'
    exit 2
  end
  check_json(ARGV[1], ARGV[2])
else
  warn 'usage: rgen_check.rb ecore FILE... | rgen_check.rb json FILE.ecore INSTANCE.json'
  exit 2
end
exit($problems.zero? ? 0 : 1)
