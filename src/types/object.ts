import { PDeferred, PError, PObjectValue, PRegexp, puppetEquals, type PuppetValue } from '../values/index.js';
import { resolveAlias } from './assignable.js';
import { TypeConstructionError } from './construct.js';
import { quoteValue } from './format-value.js';
import { isInstance } from './instance.js';
import { generalize } from './infer.js';
import { inferSetType } from './mismatch.js';
import { PAnyType, PObjectType, PPatternType, PStructType, PTypeAliasType, type ObjectAttribute, type StructMember } from './model.js';
import type { Signature, SignatureParam } from './signature-mismatch.js';
import { acceptsUndef, typeToString } from './to-string.js';

/** The keys an Object type's initializer hash may have. */
const INIT_KEYS = new Set(['name', 'parent', 'type_parameters', 'attributes', 'constants', 'functions', 'equality', 'equality_include_type', 'checks', 'annotations']);
const MEMBER_NAME = /^[a-z_]\w*$/;
const MEMBER_NAME_TYPE = 'Pattern[/\\A[a-z_]\\w*\\z/]';

const wrongType = (detail: string): TypeConstructionError => new TypeConstructionError(`object initializer has wrong type, ${detail}`, 'RUNTIME_ERROR', undefined, true);

/** `Object[{...}]`: the Object type its initializer hash describes. */
/** Puppet's Pcore TypeName: capitalized `::` segments. */
const TYPE_NAME = /^[A-Z]\w*(?:::[A-Z]\w*)*$/;
const TYPE_NAME_TYPE = 'Pattern[/\\A[A-Z][\\w]*(?:::[A-Z][\\w]*)*\\z/]';

export function objectTypeOf(init: PuppetValue): PObjectType {
    // A string is the type's name (an empty one, like an empty hash, the Object type itself).
    if (typeof init === 'string') {
        if (init !== '' && !TYPE_NAME.test(init)) throw new TypeConstructionError(`object name has wrong type, expects a match for ${TYPE_NAME_TYPE}, got '${init}'`, 'RUNTIME_ERROR', undefined, true);
        return init === '' ? new PObjectType() : objectTypeOf(new Map([['name', init]]));
    }
    if (!(init instanceof Map)) throw new TypeConstructionError(`undefined method \`empty?' for ${rubyInspectScalar(init)}\n\n    hash.nil? || hash.empty? ? PObjectType::DEFAULT : PObjectType.new(hash, loader)\n                     ^^^^^^^`, 'RUNTIME_ERROR', undefined, true);
    for (const k of init.keys()) if (typeof k !== 'string' || !INIT_KEYS.has(k)) throw wrongType(`unrecognized key '${String(k)}'`);
    const name = init.get('name');
    if (name !== undefined && !(typeof name === 'string' && TYPE_NAME.test(name))) {
        throw wrongType(`entry 'name' expects a match for ${TYPE_NAME_TYPE}, got ${typeof name === 'string' ? `'${name}'` : typeToString(generalize(inferSetType(name)))}`);
    }
    const parent = init.get('parent');
    const attributes: ObjectAttribute[] = [];
    const attrs = init.get('attributes');
    if (attrs instanceof Map) {
        for (const [k, spec] of attrs) {
            const n = String(k);
            if (!MEMBER_NAME.test(n)) throw wrongType(`entry 'attributes' key of entry '${n}' expects a match for ${MEMBER_NAME_TYPE}, got '${n}'`);
            if (spec instanceof PAnyType) attributes.push({ name: n, type: spec, kind: null, value: undefined });
            else if (spec instanceof Map) {
                const type = spec.get('type');
                const kind = spec.get('kind');
                attributes.push({
                    name: n, type: type instanceof PAnyType ? type : inferSetType(spec.get('value') ?? null),
                    kind: typeof kind === 'string' ? kind : null, value: spec.has('value') ? spec.get('value') ?? null : undefined
                });
            }
        }
    }
    const constants = init.get('constants');
    if (constants instanceof Map) for (const [k, v] of constants) attributes.push({ name: String(k), type: inferSetType(v), kind: 'constant', value: v });
    const functions = init.get('functions');
    const equality = init.get('equality');
    return new PObjectType(
        typeof name === 'string' ? name : null,
        parent instanceof PAnyType ? parent : null,
        attributes,
        functions instanceof Map ? [...functions].filter(([, t]) => t instanceof PAnyType).map(([k, t]) => ({ name: String(k), type: t as PAnyType })) : [],
        Array.isArray(equality) ? equality.map(String) : typeof equality === 'string' ? [equality] : null
    );
}

export function rubyInspectScalar(v: PuppetValue): string {
    if (typeof v === 'bigint') return `${v}:Integer`;
    if (typeof v === 'string') return `"${v}":String`;
    if (typeof v === 'number') return `${v}:Float`;
    if (typeof v === 'boolean') return `${v}:${v ? 'TrueClass' : 'FalseClass'}`;
    return 'nil:NilClass';
}

/** The plain `Object` (no name, no parent, no members). */
export const isPlainObject = (t: PObjectType): boolean => t.name === null && t.parent === null && t.attributes.length === 0 && t.functions.length === 0;

/** The parent Object type, resolved through aliases. */
function parentOf(t: PObjectType): PObjectType | null {
    const p = t.parent === null ? null : resolveAlias(t.parent);
    return p instanceof PObjectType ? p : null;
}

/** All attributes, a parent's first. */
export function allAttributes(t: PObjectType): ObjectAttribute[] {
    const p = parentOf(t);
    return [...(p ? allAttributes(p) : []), ...t.attributes];
}

/** The attributes `new` takes: the ones neither constant nor derived. */
const settable = (t: PObjectType): ObjectAttribute[] => allAttributes(t).filter(a => a.kind !== 'constant' && a.kind !== 'derived' && a.kind !== 'given_or_derived');
const optional = (a: ObjectAttribute): boolean => a.value !== undefined || acceptsUndef(a.type);

/** Whether `t` is `ancestor` or descends from it. */
export function descendsFrom(t: PObjectType, ancestor: PObjectType): boolean {
    for (let c: PObjectType | null = t; c !== null; c = parentOf(c)) if (c === ancestor || c.equalsType(ancestor)) return true;
    return false;
}

/** Instances of Object types: of the plain Object every Pcore object (types, Deferred, Error too); else values of the type or a descendant. */
export function isObjectInstance(t: PObjectType, v: PuppetValue): boolean {
    if (isPlainObject(t)) return v instanceof PObjectValue || v instanceof PDeferred || v instanceof PError || v instanceof PAnyType;
    return v instanceof PObjectValue && v.type instanceof PObjectType && descendsFrom(v.type, t);
}

export function isObjectAssignable(t: PObjectType, o: PAnyType): boolean {
    if (isPlainObject(t)) return o instanceof PObjectType || o.kind === 'Deferred' || o.kind === 'Error';
    return o instanceof PObjectType && descendsFrom(o, t);
}

/** The signatures of an Object type's new function: its attributes as one hash, then one by one. */
export function objectNewSignatures(t: PObjectType): Signature[] {
    const attrs = settable(t);
    // A key may be left out when its attribute has a value; the Struct takes that as given for a type that takes undef.
    const members: StructMember[] = attrs.map(a => ({ name: a.name, keyType: a.value !== undefined && !acceptsUndef(a.type) ? 'optional' : 'plain', value: a.type }));
    const hashSig: Signature = { params: [{ name: 'hash', type: new PStructType(members) }], required: 1, repeated: false };
    const positional = positionalAttributes(t);
    const params: SignatureParam[] = positional.map(a => ({ name: a.name, type: a.type }));
    return [hashSig, { params, required: positional.filter(a => !optional(a)).length, repeated: false }];
}

/** The attributes `new` takes one by one: the required ones first, then the ones that may be left out. */
const positionalAttributes = (t: PObjectType): ObjectAttribute[] => {
    const attrs = settable(t);
    return [...attrs.filter(a => !optional(a)), ...attrs.filter(optional)];
};

/** The name of an Object type's new function (Puppet's Ruby fails on an unnamed type, subst'ing its nil name). */
export function objectNewName(t: PObjectType): string {
    if (t.name === null) {
        throw new TypeConstructionError("undefined method `sub' for nil:NilClass\n\n          substituted = name.sub(*subst)\n                            ^^^^", 'RUNTIME_ERROR', undefined, true);
    }
    return `new_${t.name.replace(/::/g, '_')}`;
}

/** A new instance from arguments the new function's signatures accepted (one hash, or the attributes in order). */
export function newObject(t: PObjectType, args: readonly PuppetValue[]): PObjectValue {
    const byHash = args.length === 1 && args[0] instanceof Map && isInstance(objectNewSignatures(t)[0].params[0].type, args[0]);
    const positional = positionalAttributes(t);
    const values = new Map<string, PuppetValue>();
    // The values are kept in the attributes' order, whichever way they were given.
    for (const a of settable(t)) {
        const i = positional.indexOf(a);
        const given = byHash ? (args[0] as Map<PuppetValue, PuppetValue>).has(a.name) : i < args.length;
        const v = byHash ? (args[0] as Map<PuppetValue, PuppetValue>).get(a.name) ?? null : args[i] ?? null;
        if (given && !atDefault(a, v)) values.set(a.name, v);
    }
    return new PObjectValue(t, values);
}

/** Whether an attribute's value is its default (undef where it has none). */
const atDefault = (a: ObjectAttribute, v: PuppetValue): boolean => a.value !== undefined ? puppetEquals(v, a.value) : v === null;

/** An attribute (or constant) of an Object value read as a method; undefined when it has none of the name. */
export function objectValueAttribute(v: PObjectValue, name: string): PuppetValue | undefined {
    if (v.values.has(name)) return v.values.get(name) ?? null;
    const a = v.type instanceof PObjectType ? allAttributes(v.type).find(x => x.name === name) : undefined;
    return a === undefined ? undefined : a.value ?? null;
}

/** `Person({'name' => 'Bob'})`: the type's name and the attributes not at their default. */
export function objectValueString(v: PObjectValue): string {
    const t = v.type as PObjectType;
    return `${t.name ?? 'Object'}({${[...v.values].map(([k, x]) => `'${k}' => ${quoteValue(x)}`).join(', ')}})`;
}

/** Pcore's own types a manifest can name: the Annotation and Pcore Object types and the Pcore::MemberName alias's body. */
export function pcoreType(name: string): PAnyType | undefined {
    switch (name) {
        case 'Annotation': return ANNOTATION ??= new PObjectType('Annotation');
        case 'Pcore': return PCORE ??= new PObjectType('Pcore');
        // What Hiera passes its data provider functions (src/bindings/hiera builds the values).
        case 'Puppet::LookupContext': return LOOKUP_CONTEXT ??= new PObjectType('Puppet::LookupContext');
        case 'Pcore::MemberName': {
            if (MEMBER_NAME_ALIAS === undefined) {
                MEMBER_NAME_ALIAS = new PTypeAliasType('Pcore::MemberName');
                MEMBER_NAME_ALIAS.resolved = new PPatternType([new PRegexp('\\A[a-z_]\\w*\\z')]);
            }
            return MEMBER_NAME_ALIAS;
        }
        default: return undefined;
    }
}
let ANNOTATION: PObjectType | undefined;
let PCORE: PObjectType | undefined;
let LOOKUP_CONTEXT: PObjectType | undefined;
let MEMBER_NAME_ALIAS: PTypeAliasType | undefined;
