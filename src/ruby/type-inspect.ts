import { formatFloat } from '../common/index.js';
import {
    PAnyType, PArrayType, PBooleanType, PCollectionType, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PIteratorType,
    PNotUndefType, POptionalType, PSemVerType, PSensitiveType, PStringType, PTupleType, PTypeType, PVariantType, T
} from '../types/index.js';
import { inspectString } from './inspect.js';

/**
 * Ruby's default `inspect` of Puppet's type objects (`#<Puppet::Pops::Types::PIntegerType:0x...
 * @from=-Infinity, @to=Infinity>`), which Ruby's NoMethodError quotes when a plugin calls a
 * String method on a type. The instance variables are the ones each Ruby class sets, in the order
 * it sets them. Ruby prints the object's memory address, which no two runs share: we print zeros
 * (the differential harness and the recorded fixtures compare messages without addresses).
 * Undefined for the types whose Ruby objects carry loader or cache state (aliases, Object types).
 */
export function typeInspect(t: PAnyType): string | undefined {
    const ivars = typeIvars(t);
    if (ivars === undefined) return undefined;
    const head = `#<Puppet::Pops::Types::${rubyClass(t)}:${ADDRESS}`;
    return ivars.length === 0 ? `${head}>` : `${head} ${ivars.map(([k, v]) => `@${k}=${v}`).join(', ')}>`;
}

const ADDRESS = '0x0000000000000000';

const NO_IVARS: Readonly<Record<string, string>> = {
    Any: 'PAnyType', Undef: 'PUndefType', Default: 'PDefaultType', Scalar: 'PScalarType', ScalarData: 'PScalarDataType',
    Unit: 'PUnitType', CatalogEntry: 'PCatalogEntryType', Binary: 'PBinaryType', SemVerRange: 'PSemVerRangeType'
};

function rubyClass(t: PAnyType): string {
    return NO_IVARS[t.kind] ?? `P${t.kind}Type`;
}

const nested = (t: PAnyType | null): string => t === null ? 'nil' : typeInspect(t) ?? 'nil';
const bound = (v: bigint | number | null, inf: string): string => v === null ? inf : typeof v === 'bigint' ? v.toString() : formatFloat(v);
const range = (from: bigint | number | null, to: bigint | number | null): Array<[string, string]> => [['from', bound(from, '-Infinity')], ['to', bound(to, 'Infinity')]];

function typeIvars(t: PAnyType): Array<[string, string]> | undefined {
    if (t.kind in NO_IVARS) return [];
    if (t instanceof PIntegerType || t instanceof PFloatType) return range(t.from, t.to);
    if (t.kind === 'Numeric') return range(null, null);
    if (t instanceof PStringType) return [['size_type_or_value', t.value !== null ? inspectString(t.value) : nested(t.size)]];
    if (t instanceof PBooleanType) return [['value', t.value === null ? 'nil' : String(t.value)]];
    if (t instanceof PEnumType) return [['values', `[${t.values.map(inspectString).join(', ')}]`], ['case_insensitive', String(t.caseInsensitive)]];
    if (t instanceof PCollectionType) return [['size_type', nested(t.size)]];
    if (t instanceof PArrayType) return [['size_type', nested(t.size)], ['element_type', nested(t.element ?? T.any)]];
    if (t instanceof PHashType) return [['size_type', nested(t.size)], ['key_type', nested(t.key ?? T.any)], ['value_type', nested(t.value ?? T.any)]];
    if (t instanceof PTupleType) return [['types', `[${t.types.map(nested).join(', ')}]`], ['size_type', nested(t.size)]];
    if (t instanceof PVariantType) return [['types', `[${t.types.map(nested).join(', ')}]`]];
    if (t instanceof PSensitiveType) return [['type', nested(t.type ?? T.any)]];
    if (t instanceof POptionalType || t instanceof PNotUndefType || t instanceof PTypeType || t instanceof PIterableType || t instanceof PIteratorType) {
        return [['type', nested(t.type)]];
    }
    if (t instanceof PSemVerType) return t.ranges.length === 0 ? [['ranges', '[]']] : undefined;
    return undefined;
}
