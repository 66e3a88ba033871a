import type { PuppetValue } from '../../values/index.js';
import { rubyFloat } from './ruby-format.js';

/**
 * Puppet::LookupValue (RichData) checks of data values, and the type Puppet's TypeCalculator
 * infers for a value that fails them, as its messages print it: Hash[Enum['a', 'b'], Any, 2, 2].
 * Data files hold only strings, numbers, booleans, nil, arrays, hashes and Ruby symbols (which
 * modelc reads as strings, with their places given by `symbols`), so a small model of the types
 * those infer to, with Puppet's common_type and assignability rules for them, is enough.
 */
type T =
    | { readonly k: 'String'; readonly value?: string }
    | { readonly k: 'Enum'; readonly values: readonly string[] }
    | { readonly k: 'Integer' | 'Float'; readonly from: number | bigint | null; readonly to: number | bigint | null }
    | { readonly k: 'Boolean'; readonly value?: boolean }
    | { readonly k: 'Array'; readonly elem: T; readonly size?: readonly [number, number] }
    | { readonly k: 'Hash'; readonly key: T; readonly value: T; readonly size?: readonly [number, number] }
    | { readonly k: 'Runtime'; readonly name: string }
    | { readonly k: 'Undef' | 'Unit' | 'Numeric' | 'ScalarData' | 'Scalar' | 'Data' | 'RichData' | 'Any' };

/** Paths (keys and indexes joined by NUL) of the Ruby symbols in a value; '' is the value itself. */
export type SymbolPaths = ReadonlySet<string>;

/**
 * Whether Puppet's validate_data_value accepts the value (RichData: hash keys String or Numeric,
 * no Ruby objects); if not, the type to print after "got".
 */
export function lookupValueProblem(value: PuppetValue, symbols?: SymbolPaths): string | undefined {
    // Parsed data is shared and never changed, so a collection without symbols is checked once.
    const cacheable = symbols === undefined && typeof value === 'object' && value !== null;
    if (cacheable && checked.has(value)) return checked.get(value);
    const problem = isRichData(value, symbols, '') ? undefined : format(infer(value, symbols, ''));
    if (cacheable) checked.set(value, problem);
    return problem;
}

const checked = new WeakMap<object, string | undefined>();

function isRichData(v: PuppetValue, symbols: SymbolPaths | undefined, path: string): boolean {
    if (symbols?.has(path)) return false;
    if (Array.isArray(v)) return v.every((x, i) => isRichData(x, symbols, child(path, i)));
    if (v instanceof Map) {
        for (const [k, x] of v) {
            if (typeof k !== 'string' && typeof k !== 'bigint' && typeof k !== 'number') return false;
            if (!isRichData(x, symbols, child(path, k))) return false;
        }
    }
    return true;
}

function child(path: string, key: PuppetValue): string {
    return path === '' ? String(key) : `${path}\u0000${String(key)}`;
}

/** TypeCalculator#infer. */
function infer(v: PuppetValue, symbols: SymbolPaths | undefined, path: string): T {
    if (symbols?.has(path)) return { k: 'Runtime', name: 'Symbol' };
    if (v === null) return { k: 'Undef' };
    if (typeof v === 'string') return { k: 'String', value: v };
    if (typeof v === 'bigint' || typeof v === 'number') return { k: typeof v === 'bigint' ? 'Integer' : 'Float', from: v, to: v };
    if (typeof v === 'boolean') return { k: 'Boolean', value: v };
    if (Array.isArray(v)) {
        if (v.length === 0) return { k: 'Array', elem: { k: 'Unit' }, size: [0, 0] };
        return { k: 'Array', elem: reduce(v.map((x, i) => infer(x, symbols, child(path, i)))), size: [v.length, v.length] };
    }
    if (v instanceof Map) {
        if (v.size === 0) return { k: 'Hash', key: { k: 'Unit' }, value: { k: 'Unit' }, size: [0, 0] };
        const keys = [...v.keys()].map(k => infer(k, undefined, '\u0001'));
        const values = [...v].map(([k, x]) => infer(x, symbols, child(path, k)));
        return { k: 'Hash', key: reduce(keys), value: reduce(values), size: [v.size, v.size] };
    }
    return { k: 'Any' };
}

function reduce(types: readonly T[]): T {
    let memo: T | undefined;
    for (const t of types) memo = memo === undefined ? t : common(memo, t);
    return memo ?? { k: 'Undef' };
}

/** TypeCalculator#common_type, for the types above. */
function common(a: T, b: T): T {
    if (a.k === 'Undef') return b;
    if (b.k === 'Undef') return a;
    if (a.k === 'Unit') return b;
    if (b.k === 'Unit') return a;
    if (assignable(a, b)) return a;
    if (assignable(b, a)) return b;
    if (a.k === 'Array' && b.k === 'Array') return { k: 'Array', elem: common(a.elem, b.elem) };
    if (a.k === 'Hash' && b.k === 'Hash') return { k: 'Hash', key: common(a.key, b.key), value: common(a.value, b.value) };
    if ((a.k === 'Integer' && b.k === 'Integer') || (a.k === 'Float' && b.k === 'Float')) {
        return { k: a.k, from: a.from === null || b.from === null ? null : a.from < b.from ? a.from : b.from, to: a.to === null || b.to === null ? null : a.to > b.to ? a.to : b.to };
    }
    if (a.k === 'String' && (b.k === 'String' || b.k === 'Enum')) {
        if (b.k === 'Enum') return a.value === undefined ? { k: 'Enum', values: [] } : enumOf([...b.values, a.value]);
        return a.value === undefined || b.value === undefined ? { k: 'String' } : enumOf([a.value, b.value]);
    }
    if (a.k === 'Enum' && (b.k === 'String' || b.k === 'Enum')) {
        if (b.k === 'Enum') return enumOf([...a.values, ...b.values]);
        return b.value === undefined ? { k: 'Enum', values: [] } : enumOf([...a.values, b.value]);
    }
    for (const abstract of ['Numeric', 'ScalarData', 'Scalar', 'Data', 'RichData'] as const) {
        if (assignable({ k: abstract }, a) && assignable({ k: abstract }, b)) return { k: abstract };
    }
    if (a.k === 'Runtime' && b.k === 'Runtime' && a.name === b.name) return a;
    return { k: 'Any' };
}

/** PEnumType keeps its values unique and sorted. */
function enumOf(values: readonly string[]): T {
    return { k: 'Enum', values: [...new Set(values)].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))) };
}

function inRange(size: readonly [number, number] | undefined, of: readonly [number, number] | undefined): boolean {
    const [lo, hi] = size ?? [0, Infinity];
    const [olo, ohi] = of ?? [0, Infinity];
    return olo >= lo && ohi <= hi;
}

/** PAnyType#assignable? for the types above: can a value of `b` be used where `a` is expected. */
function assignable(a: T, b: T): boolean {
    if (b.k === 'Unit' || a.k === 'Any' || a.k === 'Unit') return true;
    switch (a.k) {
        case 'Undef': return b.k === 'Undef';
        case 'Runtime': return b.k === 'Runtime' && a.name === b.name;
        case 'String':
            if (a.value !== undefined) return (b.k === 'String' && b.value === a.value) || (b.k === 'Enum' && b.values.length === 1 && b.values[0] === a.value);
            return b.k === 'String' || b.k === 'Enum';
        case 'Enum':
            if (a.values.length === 0) return b.k === 'String' || b.k === 'Enum';
            return (b.k === 'String' && b.value !== undefined && a.values.includes(b.value)) || (b.k === 'Enum' && b.values.length > 0 && b.values.every(x => a.values.includes(x)));
        case 'Integer': case 'Float':
            return b.k === a.k && (a.from === null || (b.from !== null && b.from >= a.from)) && (a.to === null || (b.to !== null && b.to <= a.to));
        case 'Boolean': return b.k === 'Boolean' && (a.value === undefined || a.value === b.value);
        case 'Numeric': return b.k === 'Numeric' || b.k === 'Integer' || b.k === 'Float';
        case 'ScalarData': return b.k === 'ScalarData' || b.k === 'String' || b.k === 'Enum' || b.k === 'Boolean' || assignable({ k: 'Numeric' }, b);
        case 'Scalar': return b.k === 'Scalar' || assignable({ k: 'ScalarData' }, b);
        case 'Data': case 'RichData': {
            if (b.k === a.k || b.k === 'Undef' || assignable({ k: a.k === 'Data' ? 'ScalarData' : 'Scalar' }, b)) return true;
            if (a.k === 'RichData' && b.k === 'Data') return true;
            const keyType: T = a.k === 'Data' ? { k: 'String' } : { k: 'Data' };
            if (b.k === 'Array') return assignable(a, b.elem);
            if (b.k === 'Hash') return (a.k === 'Data' ? assignable(keyType, b.key) : assignable({ k: 'String' }, b.key) || assignable({ k: 'Numeric' }, b.key)) && assignable(a, b.value);
            return false;
        }
        case 'Array': return b.k === 'Array' && assignable(a.elem, b.elem) && inRange(a.size, b.size);
        case 'Hash': return b.k === 'Hash' && assignable(a.key, b.key) && assignable(a.value, b.value) && inRange(a.size, b.size);
    }
    return false;
}

/** TypeFormatter's text for the types above. */
function format(t: T): string {
    const sizePart = (size: readonly [number, number] | undefined): string => (size === undefined ? '' : `, ${size[0]}, ${size[1]}`);
    switch (t.k) {
        case 'String': return 'String';
        case 'Enum': return t.values.length === 0 ? 'Enum' : `Enum[${t.values.map(v => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ')}]`;
        case 'Integer': case 'Float': {
            if (t.from === null && t.to === null) return t.k;
            const num = (n: number | bigint | null): string => (n === null ? 'default' : typeof n === 'number' ? rubyFloat(n) : n.toString());
            return `${t.k}[${num(t.from)}${t.to === null ? '' : `, ${num(t.to)}`}]`;
        }
        case 'Boolean': return t.value === undefined ? 'Boolean' : `Boolean[${t.value}]`;
        case 'Runtime': return `Runtime[ruby, '${t.name}']`;
        case 'Array':
            if (t.size !== undefined && t.size[1] === 0) return 'Array[0, 0]';
            return t.elem.k === 'Any' && t.size === undefined ? 'Array' : `Array[${format(t.elem)}${sizePart(t.size)}]`;
        case 'Hash':
            if (t.size !== undefined && t.size[1] === 0) return 'Hash[0, 0]';
            return t.key.k === 'Any' && t.value.k === 'Any' && t.size === undefined ? 'Hash' : `Hash[${format(t.key)}, ${format(t.value)}${sizePart(t.size)}]`;
        default: return t.k;
    }
}
