# A setting in a file (a resource type of the warm-up module).
Puppet::Type.newtype(:warm_setting) do
  @doc = 'A setting in a file.'

  ensurable do
    defaultvalues
    defaultto :present
  end

  newparam(:name, namevar: true) do
    desc 'The setting name.'
  end

  newproperty(:value) do
    desc 'The value.'
    validate do |v|
      raise ArgumentError, 'value must be a string' unless v.is_a?(String)
    end
  end

  newparam(:path) do
    desc 'The file.'
    defaultto '/etc/warm.conf'
  end

  autorequire(:file) { [self[:path]] }
end
