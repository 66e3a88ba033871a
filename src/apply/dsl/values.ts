/**
 * Values in the classic DSL world. Ruby Symbols (what `newvalues` munges literals to) are
 * JavaScript registered symbols, `Symbol.for('red')`, so `:red` and `'red'` stay distinguishable
 * exactly as they are in Puppet.
 */
export type DslValue = unknown;

export function sym(name: string): symbol {
    return Symbol.for(name);
}

export function isSym(v: unknown): v is symbol {
    return typeof v === 'symbol';
}

/** Ruby's `to_s`: symbols print their name. */
export function toS(v: unknown): string {
    if (typeof v === 'symbol') return Symbol.keyFor(v) ?? '';
    if (v === null || v === undefined) return '';
    return String(v);
}

/** Ruby's `inspect` for the values DSL messages show: strings quoted, symbols as :name. */
export function inspectValue(v: unknown): string {
    if (typeof v === 'symbol') return `:${toS(v)}`;
    if (typeof v === 'string') return JSON.stringify(v);
    if (v === null || v === undefined) return 'nil';
    if (Array.isArray(v)) return `[${v.map(inspectValue).join(', ')}]`;
    return String(v);
}

export const ABSENT = sym('absent');
export const PRESENT = sym('present');
