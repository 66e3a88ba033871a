import { describe, expect, test } from 'vitest';
import { inspect } from '../../src/ruby/index.js';
import { parseTypeString } from '../../src/types/index.js';

/**
 * Ruby's inspect of Puppet's type objects, as Ruby 3.1 printed them under Puppet 7.23
 * (`TypeParser.singleton.parse(TEXT).inspect`), each address blanked out: Ruby prints the
 * object's address, which differs from run to run, and modelc prints zeros for it.
 */
const RUBY: ReadonlyArray<readonly [string, string]> = [
    ['Integer', '#<Puppet::Pops::Types::PIntegerType:0x @from=-Infinity, @to=Infinity>'],
    ['Integer[1, 5]', '#<Puppet::Pops::Types::PIntegerType:0x @from=1, @to=5>'],
    ['Float[1.5]', '#<Puppet::Pops::Types::PFloatType:0x @from=1.5, @to=Infinity>'],
    ['String', '#<Puppet::Pops::Types::PStringType:0x @size_type_or_value=nil>'],
    ['String[1]', '#<Puppet::Pops::Types::PStringType:0x @size_type_or_value=#<Puppet::Pops::Types::PIntegerType:0x @from=1, @to=Infinity>>'],
    ['Array', '#<Puppet::Pops::Types::PArrayType:0x @size_type=nil, @element_type=#<Puppet::Pops::Types::PAnyType:0x>>'],
    ['Array[Integer, 2]', '#<Puppet::Pops::Types::PArrayType:0x @size_type=#<Puppet::Pops::Types::PIntegerType:0x @from=2, @to=Infinity>, @element_type=#<Puppet::Pops::Types::PIntegerType:0x @from=-Infinity, @to=Infinity>>'],
    ['Hash[String, Integer]', '#<Puppet::Pops::Types::PHashType:0x @size_type=nil, @key_type=#<Puppet::Pops::Types::PStringType:0x @size_type_or_value=nil>, @value_type=#<Puppet::Pops::Types::PIntegerType:0x @from=-Infinity, @to=Infinity>>'],
    ['Boolean', '#<Puppet::Pops::Types::PBooleanType:0x @value=nil>'],
    ['Undef', '#<Puppet::Pops::Types::PUndefType:0x>'],
    ['Scalar', '#<Puppet::Pops::Types::PScalarType:0x>'],
    ['Default', '#<Puppet::Pops::Types::PDefaultType:0x>'],
    ['Binary', '#<Puppet::Pops::Types::PBinaryType:0x>'],
    ['Numeric', '#<Puppet::Pops::Types::PNumericType:0x @from=-Infinity, @to=Infinity>'],
    ['Enum[a]', '#<Puppet::Pops::Types::PEnumType:0x @values=["a"], @case_insensitive=false>'],
    ['Optional', '#<Puppet::Pops::Types::POptionalType:0x @type=nil>'],
    ['Optional[Integer]', '#<Puppet::Pops::Types::POptionalType:0x @type=#<Puppet::Pops::Types::PIntegerType:0x @from=-Infinity, @to=Infinity>>'],
    ['Type[Integer]', '#<Puppet::Pops::Types::PTypeType:0x @type=#<Puppet::Pops::Types::PIntegerType:0x @from=-Infinity, @to=Infinity>>'],
    ['Variant', '#<Puppet::Pops::Types::PVariantType:0x @types=[]>'],
    ['Tuple', '#<Puppet::Pops::Types::PTupleType:0x @types=[], @size_type=nil>'],
    ['Tuple[Integer]', '#<Puppet::Pops::Types::PTupleType:0x @types=[#<Puppet::Pops::Types::PIntegerType:0x @from=-Infinity, @to=Infinity>], @size_type=nil>'],
    ['Sensitive', '#<Puppet::Pops::Types::PSensitiveType:0x @type=#<Puppet::Pops::Types::PAnyType:0x>>'],
    ['Iterable', '#<Puppet::Pops::Types::PIterableType:0x @type=nil>'],
    ['Collection', '#<Puppet::Pops::Types::PCollectionType:0x @size_type=nil>'],
    ['SemVer', '#<Puppet::Pops::Types::PSemVerType:0x @ranges=[]>']
];

describe("Ruby's inspect of a type object", () => {
    test.each(RUBY)('%s', (text, ruby) => {
        expect(inspect(parseTypeString(text)).replace(/:0x0{16}/g, ':0x')).toBe(ruby);
    });
});
