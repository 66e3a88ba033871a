# Edits a model with stock Ruby RGen (Debian ruby-rgen 0.9), as a Ruby tool would:
#
#   ruby rgen_edit.rb FILE.rgen.ecore IN.json OUT.json (CLASS FEATURE TEXT)...
#
# loads IN.json (RGen's JSON dialect, e.g. modelc's `convert --to rgen`) with JsonInstantiator,
# sets FEATURE of every CLASS object to TEXT (a Data value is its rich-data JSON text in the RGen
# profile), and saves the roots with RGen's own JsonSerializer. Exit 1 on any problem.

require 'rgen/environment'
require 'rgen/ecore/ecore'
require 'rgen/ecore/ecore_to_ruby'
require 'rgen/instantiator/ecore_xml_instantiator'
require 'rgen/instantiator/json_instantiator'
require 'rgen/instantiator/qualified_name_resolver'
require 'rgen/serializer/json_serializer'

abort('usage: rgen_edit.rb FILE.rgen.ecore IN.json OUT.json (CLASS FEATURE TEXT)...') unless ARGV.size >= 6 && (ARGV.size % 3).zero?
ecore_file, in_file, out_file, *edits = ARGV

meta = RGen::Environment.new
ECoreXMLInstantiator.new(meta).instantiate(File.read(ecore_file))
pkg = meta.find(class: RGen::ECore::EPackage).reject(&:eSuperPackage).first
mod = RGen::ECore::ECoreToRuby.new.create_module(pkg)
pkg.eAllClassifiers.each { |c| c.instanceClass._ecore_to_ruby.add_features(c) if c.is_a?(RGen::ECore::EClass) }

env = RGen::Environment.new
roots = []
unresolved = RGen::Instantiator::JsonInstantiator.new(env, mod).instantiate(File.read(in_file, encoding: 'UTF-8'), root_elements: roots)
unless unresolved.empty?
  RGen::Instantiator::QualifiedNameResolver.new(roots).resolveReferences(unresolved)
end

edits.each_slice(3) do |class_name, feature, text|
  edited = env.elements.select { |e| e.class.ecore.name == class_name }
  abort("no #{class_name} in #{in_file}") if edited.empty?
  edited.each { |e| e.setGeneric(feature, text) }
  puts "edited #{edited.size} #{class_name}.#{feature}"
end

File.open(out_file, 'w') { |f| RGen::Serializer::JsonSerializer.new(f).serialize(roots) }
