/**
 * Puppet Notation text, built as strings: the shapes of Puppet's PN classes (Call, List, Map,
 * Literal) formatted exactly like `PN#to_s` (no indentation).
 */

// Concatenation with `+` keeps nested operands as V8 rope strings; `join` would copy every
// operand's text at every level, quadratic in a deep tree such as a 100k-term `1+1+...` chain.
function spaced(elements: readonly string[]): string {
    let out = '';
    for (let i = 0; i < elements.length; i++) out = i === 0 ? elements[0] as string : out + ' ' + elements[i];
    return out;
}

export function pnCall(name: string, ...elements: readonly string[]): string {
    return elements.length === 0 ? '(' + name + ')' : '(' + name + ' ' + spaced(elements) + ')';
}

export function pnList(elements: readonly string[]): string {
    return '[' + spaced(elements) + ']';
}

/** A map from ordered `[key, value]` entries; undefined values are left out. */
export function pnMap(entries: ReadonlyArray<readonly [string, string | undefined]>): string {
    const parts: string[] = [];
    for (const [k, v] of entries) {
        if (v !== undefined) {
            parts.push(`:${k} ${v}`);
        }
    }
    return '{' + spaced(parts) + '}';
}

/** Ruby's PN double_quote: a few named escapes, other control characters as `\oNNN`. */
export function pnString(s: string): string {
    let out = '"';
    for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        switch (c) {
            case 0x09: out += '\\t'; break;
            case 0x0a: out += '\\n'; break;
            case 0x0d: out += '\\r'; break;
            case 0x22: out += '\\"'; break;
            case 0x5c: out += '\\\\'; break;
            default:
                out += c < 0x20 ? `\\o${c.toString(8).padStart(3, '0')}` : s[i];
        }
    }
    return out + '"';
}

/** PN prints Floats as Ruby does. */
export { formatFloat as rubyFloat } from '../../common/index.js';

export interface PuppetNumber {
    readonly kind: 'int' | 'float';
    /** Integer digits in base 10 (arbitrary precision), or the float value. */
    readonly int?: bigint;
    readonly float?: number;
    readonly radix: 10 | 8 | 16;
}

/**
 * Whether Puppet's Utils.to_n_with_radix gives a number for a NUMBER token the lexer accepted:
 * it gives none for a float beyond the double range (1e400) nor for a zero integer part with only
 * zeros before the exponent (0.0e1), and the parser's action then fails with an internal error.
 */
export function numberTokenValid(text: string): boolean {
    const m = /^(\d+)(\.\d+)?([eE]-?\d+)?$/.exec(text);
    if (!m || (m[2] === undefined && m[3] === undefined)) return true;
    if (/^0+$/.test(m[1]) && /^(?:\.0*)?[eE]/.test((m[2] ?? '') + (m[3] ?? ''))) return false;
    return Number.isFinite(Number(text));
}

/** Reads a NUMBER token the way Puppet's Utils.to_n_with_radix does. */
export function readNumber(text: string): PuppetNumber {
    if (/^0[xX]/.test(text)) {
        return { kind: 'int', int: BigInt(text), radix: 16 };
    }
    if (/[.eE]/.test(text)) {
        return { kind: 'float', float: Number(text), radix: 10 };
    }
    if (text.length > 1 && text.startsWith('0')) {
        return { kind: 'int', int: BigInt('0o' + text.slice(1)), radix: 8 };
    }
    return { kind: 'int', int: BigInt(text), radix: 10 };
}
