#!/usr/bin/env ruby
# frozen_string_literal: true
#
# yaml-diff.rb DOCS.json: reads each YAML text as Puppet's yaml_data does (Psych safe_load,
# Symbol permitted, aliases on) and prints one JSON line per document: the value as a typed tree,
# or the error class and message. yaml-diff.ts compares these with modelc's reader.
require 'json'
require 'yaml'

def typed(v)
  case v
  when nil then nil
  when true, false then v
  when Integer then { 'i' => v.to_s }
  when Float then { 'f' => v.nan? ? 'nan' : v.infinite? ? (v > 0 ? 'inf' : '-inf') : v.to_s }
  when Symbol then { 'sym' => v.to_s }
  when String then v.dup.force_encoding('UTF-8').valid_encoding? ? v.dup.force_encoding('UTF-8') : { 'bin' => v.bytes }
  when Array then { 'a' => v.map { |x| typed(x) } }
  when Hash then { 'h' => v.map { |k, x| [typed(k), typed(x)] } }
  else { 'other' => v.class.name }
  end
end

JSON.parse(File.read(ARGV[0])).each do |doc|
  begin
    v = YAML.safe_load(doc, permitted_classes: [Symbol], aliases: true)
    puts JSON.generate({ 'ok' => typed(v) })
  rescue Exception => e # rubocop:disable Lint/RescueException
    puts JSON.generate({ 'err' => e.class.name, 'message' => e.message.sub(/\A\(<unknown>\): /, '') })
  end
end
