import { assertUnreachable } from '../common/index.js';
import { capitalizeTypeName, formatFloat, formatTimespan, formatTimestamp, PTimespan, PTimestamp, PTypeValue, regexpLiteral } from '../values/index.js';
import type { ObjectAttribute, PAnyType, PCallableType, PErrorType, PInitType, PIntegerType, PRuntimeType, PSemVerType, PTypeReferenceType, PTypeSetType, PURIType, PSimpleType, PTimeType } from './model.js';
import { PObjectType, PSimpleType as PSimple, PTypeSetType as PTypeSetTypeClass } from './model.js';
import {
    PArrayType, PBooleanType, PClassType, PCollectionType, PEnumType, PFloatType, PHashType, PIntegerType as IntType, PIterableType, PIteratorType,
    PNotUndefType, POptionalType, PPatternType, PRegexpType, PResourceType, PSensitiveType, PStringType, PStructType, PTupleType,
    PTypeAliasType, PTypeType, PVariantType
} from './model.js';

/**
 * Puppet's StringConverter#puppet_quote: single quotes with `'` escaped and a backslash kept
 * with the character it escapes (a trailing one doubled); double quotes when the text has
 * control characters.
 */
export function puppetQuote(s: string): string {
    if (/[\x00-\x1f]/.test(s)) {
        return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t').replace(/\$/g, '\\$')}"`;
    }
    let out = "'";
    let escaped = false;
    for (const ch of s) {
        if (escaped) { out += `\\${ch}`; escaped = false; }
        else if (ch === "'") out += "\\'";
        else if (ch === '\\') escaped = true;
        else out += ch;
    }
    if (escaped) out += '\\\\';
    return `${out}'`;
}

const DEFERRED_TYPE = "Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}]";

/** A type parameter that is a value (Init's init args), as Puppet prints it in the type's string. */
function argText(v: unknown, str: (t: PAnyType) => string): string {
    if (v === null || v === undefined) return 'undef';
    if (typeof v === 'string') return puppetQuote(v);
    if (typeof v === 'number') return formatFloat(v);
    if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
    if (Array.isArray(v)) return `[${v.map(x => argText(x, str)).join(', ')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${argText(k, str)} => ${argText(x, str)}`).join(', ')}}`;
    if (v instanceof PTypeValue) return str(v as PAnyType);
    return String(v);
}

/** Callable's string form: the parameter types (Unit left out), their counts, the block; with a return type the parameters in brackets. */
function callableString(t: PCallableType, str: (t: PAnyType) => string): string {
    if (t.params === null) return t.returnType === null ? 'Callable' : `Callable[[], ${str(t.returnType)}]`;
    const p = t.params;
    const parts = p.types.filter(x => x.kind !== 'Unit').map(str);
    if (p.types.length === 0) parts.push('0', '0');
    else parts.push(...rangePart(p.size === null ? null : { from: p.size.from, to: p.size.to }));
    if (t.block !== null) parts.push(str(t.block));
    if (t.returnType === null) return `Callable[${parts.join(', ')}]`;
    return `Callable[[${parts.join(', ')}], ${str(t.returnType)}]`;
}

/** The Object type's string form: its initializer hash as Puppet prints it (name, parent, attributes, constants, functions, equality). */
function objectTypeString(t: PObjectType, str: (t: PAnyType) => string): string {
    const parts: string[] = [];
    if (t.name !== null) parts.push(`name => '${t.name}'`);
    if (t.parent !== null) parts.push(`parent => ${parentName(t.parent, str)}`);
    const attrs = t.attributes.filter(a => a.kind !== 'constant');
    if (attrs.length) parts.push(`attributes => {${attrs.map(a => `'${a.name}' => ${attributeText(a, str)}`).join(', ')}}`);
    const consts = t.attributes.filter(a => a.kind === 'constant');
    if (consts.length) parts.push(`constants => {${consts.map(a => `'${a.name}' => ${argText(a.value, str)}`).join(', ')}}`);
    if (t.functions.length) parts.push(`functions => {${t.functions.map(f => `'${f.name}' => ${str(f.type)}`).join(', ')}}`);
    if (t.equality !== null) parts.push(`equality => [${t.equality.map(e => `'${e}'`).join(', ')}]`);
    return `Object[{${parts.join(', ')}}]`;
}

/** A parent is printed by its name (a named Object type, an alias). */
function parentName(t: PAnyType, str: (t: PAnyType) => string): string {
    let r = t;
    for (let i = 0; r instanceof PTypeAliasType && r.resolved !== null && i < 100; i++) r = r.resolved;
    return r.kind === 'Object' && (r as PObjectType).name !== null ? (r as PObjectType).name as string : str(t);
}

function attributeText(a: ObjectAttribute, str: (t: PAnyType) => string): string {
    if (a.kind === null && a.value === undefined) return str(a.type);
    const parts = [`type => ${str(a.type)}`];
    if (a.kind !== null) parts.push(`kind => ${a.kind}`);
    if (a.value !== undefined) parts.push(`value => ${argText(a.value, str)}`);
    return `{${parts.join(', ')}}`;
}

function rangePart(r: { from: bigint | number | null; to: bigint | number | null } | null, float = false): string[] {
    if (r === null || (r.from === null && r.to === null)) return [];
    const show = (x: bigint | number): string => float && typeof x === 'number' ? formatFloat(x) : String(x);
    const out = [r.from === null ? 'default' : show(r.from)];
    if (r.to !== null) out.push(show(r.to));
    return out;
}

function sizePart(size: PIntegerType | null): string[] {
    if (size === null) return [];
    return rangePart({ from: size.from ?? 0n, to: size.to });
}

function wrap(name: string, parts: string[]): string {
    return parts.length === 0 ? name : `${name}[${parts.join(', ')}]`;
}


export function isEmptySize(size: PIntegerType | null): boolean {
    return size !== null && size.to === 0n && (size.from === 0n || size.from === null);
}

/**
 * The string form of a type exactly as Puppet's TypeFormatter prints it with aliases expanded
 * (`Port = Integer[1, 65535]`), as mismatch messages show expected types (`to_alias_expanded_s`).
 * An alias met again inside its own expansion prints as its name (`Tree = Array[Tree]`).
 */
export function typeToString(t: PAnyType): string {
    return formatType(t, { expand: true, expanding: new Set() });
}

/**
 * Puppet's `to_s` of a type, what `notice` and function signatures print: aliases inside another
 * type print as their names (`Array[Port]`); an alias itself prints expanded, all the way down.
 */
export function typeToPlainString(t: PAnyType): string {
    // A named Object type itself prints in full, with the types inside it as `to_s` prints them.
    if (t instanceof PObjectType) return objectTypeString(t, x => formatType(x, { expand: false, expanding: new Set() }));
    if (t.kind === 'Deferred') return DEFERRED_TYPE;
    return formatType(t, { expand: t instanceof PTypeAliasType, expanding: new Set() });
}

interface FormatState {
    readonly expand: boolean;
    /** The aliases being expanded, so that a self-recursive alias prints its name inside itself. */
    readonly expanding: Set<PTypeAliasType>;
}

/**
 * Timestamp/Timespan with their bounds quoted: one bound when both are the same time or the upper
 * is open, `default` for an open lower bound.
 */
function timeTypeString(t: PTimeType): string {
    if (t.from === null && t.to === null) return t.kind;
    const text = (n: bigint, raw: boolean): string => {
        if (t.kind === 'Timestamp') return `'${formatTimestamp(new PTimestamp(n))}'`;
        const s = formatTimespan(new PTimespan(n));
        return `'${raw ? `${s.slice(0, s.lastIndexOf('.'))}.${(n < 0n ? -n : n) % 1_000_000_000n}` : s}'`;
    };
    if (t.to === null || t.from === t.to) return `${t.kind}[${text(t.from!, t.rawFraction[0])}]`;
    return `${t.kind}[${t.from === null ? 'default' : text(t.from, t.rawFraction[0])}, ${text(t.to, t.rawFraction[1])}]`;
}

function formatType(t: PAnyType, st: FormatState): string {
    const str = (x: PAnyType): string => formatType(x, st);
    const k = t.kind;
    switch (k) {
        case 'Timestamp': case 'Timespan': return timeTypeString(t as PTimeType);
        case 'Error': {
            const e = t as PErrorType;
            // A kind or issue code is a string or a type (a Pattern of them).
            const param = (v: unknown): string => typeof v === 'string' ? `'${v}'` : v === null ? 'undef' : v instanceof PTypeValue ? str(v as PAnyType) : 'default';
            const params = [e.errorKind, e.issueCode].slice(0, e.given);
            return params.length === 0 ? 'Error' : `Error[${params.map(param).join(', ')}]`;
        }
        case 'SemVer': {
            const r = (t as PSemVerType).ranges;
            return r.length === 0 ? 'SemVer' : `SemVer[${r.map(x => `'${x}'`).join(', ')}]`;
        }
        case 'Callable': return callableString(t as PCallableType, str);
        case 'Runtime': {
            const r = t as PRuntimeType;
            return r.runtime === null ? 'Runtime' : `Runtime[${r.runtime}, ${r.runtimeName === null ? 'undef' : puppetQuote(r.runtimeName)}]`;
        }
        case 'Init': {
            const i = t as PInitType;
            return i.type === null ? 'Init' : `Init[${[str(i.type), ...i.initArgs.map(a => argText(a, str))].join(', ')}]`;
        }
        case 'Any': case 'Undef': case 'Default': case 'Scalar': case 'ScalarData': case 'Data': case 'RichData':
        case 'Numeric': case 'CatalogEntry':
        case 'SemVerRange': case 'Binary': case 'Unit':
            return (t as PSimpleType).kind;
        // A named Object type (Deferred is one) prints in full where aliases expand, else as its name, as an alias does.
        case 'Object': {
            const o = t as PObjectType;
            return o.name !== null && !st.expand ? o.name : objectTypeString(o, str);
        }
        case 'Deferred': return st.expand ? DEFERRED_TYPE : 'Deferred';
        case 'Boolean': {
            const b = t as PBooleanType;
            return b.value === null ? 'Boolean' : `Boolean[${b.value}]`;
        }
        case 'Integer': return wrap('Integer', rangePart(t as IntType));
        case 'Float': return wrap('Float', rangePart(t as PFloatType, true));
        case 'String': return wrap('String', sizePart((t as PStringType).size));
        case 'Enum': {
            const e = t as PEnumType;
            const parts = e.values.map(puppetQuote);
            if (e.caseInsensitive) parts.push('true');
            return wrap('Enum', parts);
        }
        case 'Pattern': return wrap('Pattern', (t as PPatternType).patterns.map(p => regexpLiteral(p.source)));
        case 'Regexp': {
            const p = (t as PRegexpType).pattern;
            return p === null ? 'Regexp' : `Regexp[${regexpLiteral(p.source)}]`;
        }
        case 'NotUndef': {
            const c = (t as PNotUndefType).type;
            if (c instanceof PStringType && c.value !== null) return `NotUndef[${puppetQuote(c.value)}]`;
            return c === null || c.kind === 'Any' ? 'NotUndef' : `NotUndef[${str(c)}]`;
        }
        case 'Collection': return wrap('Collection', sizePart((t as PCollectionType).size));
        case 'Array': {
            const a = t as PArrayType;
            if (isEmptySize(a.size)) return 'Array[0, 0]';
            if ((a.element === null || a.element.kind === 'Any') && a.size === null) return 'Array';
            return wrap('Array', [str(a.element ?? anyType()), ...sizePart(a.size)]);
        }
        case 'Hash': {
            const h = t as PHashType;
            if (isEmptySize(h.size)) return 'Hash[0, 0]';
            const plain = (h.key === null || h.key.kind === 'Any') && (h.value === null || h.value.kind === 'Any') && h.size === null;
            if (plain) return 'Hash';
            return wrap('Hash', [str(h.key ?? anyType()), str(h.value ?? anyType()), ...sizePart(h.size)]);
        }
        case 'Struct': {
            const s = t as PStructType;
            if (s.members.length === 0) return 'Struct';
            const entries = s.members.map(m => {
                // A plain key whose value accepts undef is an optional key, printed plain.
                const valueOptional = acceptsUndef(m.value);
                let key: string;
                if (m.keyType === 'optional') key = valueOptional ? puppetQuote(m.name) : `Optional[${puppetQuote(m.name)}]`;
                else if (m.keyType === 'notundef') key = `NotUndef[${puppetQuote(m.name)}]`;
                else key = puppetQuote(m.name);
                return `${key} => ${str(m.value)}`;
            });
            return `Struct[{${entries.join(', ')}}]`;
        }
        case 'Tuple': {
            const tu = t as PTupleType;
            if (tu.types.length === 0 && tu.size === null) return 'Tuple';
            return wrap('Tuple', [...tu.types.map(str), ...sizePart(tu.size)]);
        }
        case 'Optional': {
            const o = (t as POptionalType).type;
            if (o instanceof PStringType && o.value !== null) return `Optional[${puppetQuote(o.value)}]`;
            return o === null ? 'Optional' : `Optional[${str(o)}]`;
        }
        case 'Variant': return wrap('Variant', (t as PVariantType).types.map(str));
        case 'Type': {
            const c = (t as PTypeType).type;
            return c === null ? 'Type' : `Type[${str(c)}]`;
        }
        case 'Resource': {
            const r = t as PResourceType;
            if (r.typeName === null) return 'Resource';
            const name = capitalizeTypeName(r.typeName);
            return r.title === null ? name : `${name}[${puppetQuote(r.title)}]`;
        }
        case 'Class': {
            // The class name is not quoted: Class[apache].
            const c = t as PClassType;
            return c.className === null ? 'Class' : `Class[${c.className}]`;
        }
        case 'Iterable': {
            const c = (t as PIterableType).type;
            return c === null ? 'Iterable' : `Iterable[${str(c)}]`;
        }
        case 'Iterator': {
            const c = (t as PIteratorType).type;
            return c === null ? 'Iterator' : `Iterator[${str(c)}]`;
        }
        case 'Sensitive': {
            const c = (t as PSensitiveType).type;
            return c === null || c.kind === 'Any' ? 'Sensitive' : `Sensitive[${str(c)}]`;
        }
        case 'TypeSet': {
            const init = (t as PTypeSetType).init ?? PTypeSetTypeClass.DEFAULT_INIT;
            return `TypeSet[{${[...init].map(([k, v]) => `${k} => ${argText(v, str)}`).join(', ')}}]`;
        }
        case 'URI': {
            const p = (t as PURIType).parts;
            return p === null ? 'URI' : `URI[{${[...p].map(([k, v]) => `${puppetQuote(k)} => ${argText(v, str)}`).join(', ')}}]`;
        }
        case 'TypeReference': return `TypeReference[${puppetQuote((t as PTypeReferenceType).typeString)}]`;
        case 'Alias': {
            const a = t as PTypeAliasType;
            if (a.resolved === null || !st.expand || st.expanding.has(a)) return a.name;
            st.expanding.add(a);
            try {
                return `${a.name} = ${str(a.resolved)}`;
            } finally {
                st.expanding.delete(a);
            }
        }
        default: return assertUnreachable(k);
    }
}

/** The name alone for aliases (used where Puppet does not expand them). */
export function typeName(t: PAnyType): string {
    return t instanceof PTypeAliasType ? t.name : typeToString(t);
}

function anyType(): PAnyType {
    return PSimple.of('Any');
}

/** Whether undef is an instance (Optional, Undef, Any, Variant including one). */
export function acceptsUndef(t: PAnyType): boolean {
    switch (t.kind) {
        case 'Any': case 'Undef': case 'Optional': return true;
        // Init (RichData's values); Init[T] takes undef only where T.new takes it, which none of the core types' new does.
        case 'Init': return (t as PInitType).type === null;
        case 'Variant': return (t as PVariantType).types.some(acceptsUndef);
        case 'Alias': return (t as PTypeAliasType).resolved !== null && acceptsUndef((t as PTypeAliasType).resolved as PAnyType);
        default: return false;
    }
}
