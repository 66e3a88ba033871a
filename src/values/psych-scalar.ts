import type { PuppetValue } from './values.js';

/** A Ruby Symbol (`:name`): allowed by Puppet's YAML load, but not a valid lookup value. */
export class RubySymbol {
    constructor(readonly name: string) {}
}

/**
 * A plain scalar that Psych would turn into a Ruby class a safe load forbids (Date, Time); the
 * loader reports it as Psych does: "Tried to load unspecified class: Date".
 */
export class ForbiddenClass {
    constructor(readonly className: 'Date' | 'Time') {}
}

// The regular expressions of Ruby 3.1's Psych::ScalarScanner (YAML 1.1 as Puppet reads it).
const TIME = /^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$/;
const DATE = /^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$/;
const FLOAT = /^(?:[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?)$/;
const INTEGER = /^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$/;
const WORDLIKE = /^[^\d.:-]?[\p{L}_\s!@#$%^&*(){}<>|/\\~;=]+/u;
const SEXAGESIMAL_INT = /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$/;
const SEXAGESIMAL_FLOAT = /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}\.[0-9_]*$/;

/**
 * The value of an untagged plain scalar, following Psych's `ScalarScanner#tokenize` so that
 * `yes`/`on` are booleans, `0755` is octal, `1e3` stays a string and `1.10` is the float 1.1.
 * Integers are bigint, floats number (the values contract); Ruby symbols (`:x`) are RubySymbol.
 */
export function tokenizePlain(s: string): PuppetValue | ForbiddenClass | RubySymbol {
    if (s === '') return null;
    if (WORDLIKE.test(s) || s.includes('\n')) {
        if (s.length > 5) return s;
        if (/^[^ytonf~]/i.test(s)) return s;
        if (s === '~' || /^null$/i.test(s)) return null;
        if (/^(yes|true|on)$/i.test(s)) return true;
        if (/^(no|false|off)$/i.test(s)) return false;
        return s;
    }
    if (TIME.test(s)) return new ForbiddenClass('Time');
    // Psych asks the class loader for Date before it parses the text, so even 2001-02-30 is refused.
    if (DATE.test(s)) return new ForbiddenClass('Date');
    if (/^\+?\.inf$/i.test(s)) return Infinity;
    if (/^-\.inf$/i.test(s)) return -Infinity;
    if (/^\.nan$/i.test(s)) return NaN;
    if (/^:./.test(s)) {
        const quoted = /^:(["'])(.*)\1/.exec(s);
        return new RubySymbol(quoted ? quoted[2].replace(/^:/, '') : s.slice(1));
    }
    if (SEXAGESIMAL_INT.test(s)) return sexagesimal(s, false);
    if (SEXAGESIMAL_FLOAT.test(s)) return sexagesimal(s, true);
    if (FLOAT.test(s)) {
        if (/^[-+]?\.$/.test(s)) return s;
        return Number(s.replace(/[,_]/g, '').replace(/\.([Ee]|$)/, '$1'));
    }
    if (INTEGER.test(s)) return parseRubyInteger(s.replace(/[,_]/g, ''));
    return s;
}

/** Ruby's `Integer(str)`: 0b, 0x and a leading 0 (octal) prefixes, with a sign. */
function parseRubyInteger(s: string): bigint {
    const neg = s.startsWith('-');
    const body = s.replace(/^[-+]/, '');
    let v: bigint;
    if (/^0b/i.test(body)) v = BigInt(body);
    else if (/^0x/i.test(body)) v = BigInt(body);
    else if (body.length > 1 && body.startsWith('0')) v = BigInt(`0o${body.slice(1)}`);
    else v = BigInt(body);
    return neg ? -v : v;
}

/** Psych accepts `1:30` (90) and `1:30.5` as base-60 numbers (YAML 1.1). */
function sexagesimal(s: string, float: boolean): bigint | number {
    const parts = s.split(':');
    if (float) {
        let f = 0;
        parts.forEach((n, e) => { f += Number.parseFloat(n.replace(/_/g, '')) * 60 ** Math.abs(e - 2); });
        return f;
    }
    let i = 0n;
    parts.forEach((n, e) => { i += BigInt(Number.parseInt(n.replace(/_/g, ''), 10)) * 60n ** BigInt(Math.abs(e - 2)); });
    return i;
}
