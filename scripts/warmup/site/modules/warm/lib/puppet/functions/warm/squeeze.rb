# frozen_string_literal: true

# Joins words after squeezing their whitespace (a 4.x function of the warm-up module).
Puppet::Functions.create_function(:'warm::squeeze') do
  dispatch :squeeze do
    param 'Array[String]', :words
    optional_param 'String', :sep
    return_type 'String'
  end

  def squeeze(words, sep = ' ')
    words.map { |w| w.strip.gsub(/\s+/, ' ') }.reject(&:empty?).join(sep)
  end
end
