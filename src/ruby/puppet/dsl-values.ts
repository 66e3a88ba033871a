import { PRegexp } from '../../values/index.js';
import { RSymbol, type RValue } from '../objects.js';

/** A Ruby class name for a type or provider name: `demo_key` → `DemoKey`. */
export const camel = (s: string): string => s.split('_').map(p => p.charAt(0).toUpperCase() + p.slice(1)).join('');

/** A name given as a Symbol or a String. */
export const nameOf = (v: RValue): string => (v instanceof RSymbol ? v.name : typeof v === 'string' ? v : String(v));

/** Ruby values as the type DSL holds them: symbols are JS symbols, regexps RegExps. */
export function toDsl(v: RValue): unknown {
    if (v instanceof RSymbol) return Symbol.for(v.name);
    if (v instanceof PRegexp) return v.regexp;
    if (Array.isArray(v)) return v.map(toDsl);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [toDsl(k), toDsl(x)]));
    return v;
}

/** The type DSL's values back as Ruby values. */
export function fromDsl(v: unknown): RValue {
    if (typeof v === 'symbol') return RSymbol.of(Symbol.keyFor(v) ?? '');
    if (v === undefined) return null;
    if (Array.isArray(v)) return v.map(fromDsl);
    return v as RValue;
}
