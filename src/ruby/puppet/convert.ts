import { PDefault, PObjectValue, PRegexp, PSemVer, PSemVerRange, PTimespan, PTimestamp, PBinary, type PuppetValue } from '../../values/index.js';
import { formatValue, PClassType, PResourceType } from '../../types/index.js';
import { RClass, RObject, RProc, RRange, RSymbol, rubyError, type RValue } from '../objects.js';

/** Puppet::Resource objects plugin code holds: back in Puppet they are resource references. */
export const resourceRefs = new WeakMap<RObject, { type: string; title: string }>();

/** Values handed back to Puppet: symbols become strings (`:undef` undef, `:default` default), deeply. */
export function toPuppet(v: RValue): PuppetValue {
    if (v instanceof RObject) {
        const ref = resourceRefs.get(v);
        if (ref) return ref.type === 'Class' ? new PClassType(ref.title.toLowerCase()) : new PResourceType(ref.type, ref.title);
    }
    if (v instanceof RSymbol) return v.name === 'undef' ? null : v.name === 'default' ? PDefault.instance : v.name;
    if (Array.isArray(v)) return v.map(toPuppet);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [toPuppet(k), toPuppet(x)]));
    if (v instanceof RRange || v instanceof RProc || v instanceof RObject || v instanceof RClass) {
        throw rubyError('ArgumentError', `a ${v instanceof RObject ? v.cls.name : v.constructor.name} cannot be handed to Puppet`);
    }
    return v as PuppetValue;
}

/**
 * Arguments as a 3.x function receives them (Puppet's Runtime3FunctionArgumentConverter): a
 * top-level undef is '', nested undef stays nil, regexps are their source text, versions,
 * timestamps and binaries their strings.
 */
export function to3x(v: PuppetValue, inner = false, reference?: (t: PResourceType | PClassType) => RValue): RValue {
    if (v === null) return inner ? null : '';
    if (reference && ((v instanceof PResourceType && v.typeName !== null && v.title !== null) || (v instanceof PClassType && v.className !== null))) return reference(v);
    if (v instanceof PRegexp) return `/${v.source}/`;
    if (v instanceof PSemVer || v instanceof PSemVerRange || v instanceof PTimespan || v instanceof PTimestamp || v instanceof PBinary) return formatValue(v);
    if (Array.isArray(v)) return v.map(x => to3x(x, true, reference));
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [to3x(k, true, reference), to3x(x, true, reference)]));
    return v;
}

/**
 * A Pcore object's methods as Ruby calls them: the functions its runtime implements
 * (Puppet::LookupContext's not_found, cache, interpolate...), then its attributes.
 */
export function objectMethod(obj: PObjectValue, name: string, args: RValue[], block: RProc | undefined): RValue | undefined {
    if (name.startsWith('respond_to?:')) {
        const m = name.slice('respond_to?:'.length);
        return obj.methods?.has(m) === true || obj.values.has(m);
    }
    if (obj.methods?.has(name)) return obj.methods.call(name, args.map(toPuppet), block && ((...a: PuppetValue[]) => toPuppet(block.call(a))));
    if (args.length === 0 && obj.values.has(name)) return obj.values.get(name) ?? null;
    return undefined;
}
