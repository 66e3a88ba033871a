import { PSensitive, PRegexp, type PuppetValue } from './values.js';

/**
 * Ruby's `inspect`, which the Resource API interpolates into many of its messages
 * (`{:ensure=>"present"}`, `["a", "b"]`). Hash keys of attribute hashes are symbols in Ruby, so
 * string keys print as `:name`; values print as Ruby literals.
 */
export function rubyInspect(v: unknown, symbolKeys = true): string {
    if (v === null || v === undefined) return 'nil';
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return Number.isInteger(v) ? `${v}.0` : String(v);
    if (typeof v === 'boolean') return String(v);
    if (Array.isArray(v)) return `[${v.map(x => rubyInspect(x, symbolKeys)).join(', ')}]`;
    if (v instanceof Map) {
        const parts = [...v].map(([k, x]) => `${typeof k === 'string' && symbolKeys ? `:${k}` : rubyInspect(k, symbolKeys)}=>${rubyInspect(x, symbolKeys)}`);
        return `{${parts.join(', ')}}`;
    }
    if (v instanceof PSensitive) return '#<Sensitive [value redacted]>';
    if (v instanceof PRegexp) return `/${v.source}/`;
    if (typeof v === 'object') {
        const parts = Object.entries(v).map(([k, x]) => `${symbolKeys ? `:${k}` : JSON.stringify(k)}=>${rubyInspect(x, symbolKeys)}`);
        return `{${parts.join(', ')}}`;
    }
    return String(v);
}

/** The Ruby class name of a value, as the gem's "not `NilClass`" messages show it. */
export function rubyClassName(v: unknown): string {
    if (v === null || v === undefined) return 'NilClass';
    if (typeof v === 'string') return 'String';
    if (typeof v === 'bigint') return 'Integer';
    if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float';
    if (v === true) return 'TrueClass';
    if (v === false) return 'FalseClass';
    if (Array.isArray(v)) return 'Array';
    if (v instanceof RegExp || v instanceof PRegexp) return 'Regexp';
    return 'Hash';
}

/**
 * Puppet's `Parameter#format_value_for_display` as change messages use it: the Puppet literal
 * form (strings single-quoted, numbers and booleans bare, arrays `['a', 1]`, hashes over several
 * lines); Sensitive is always redacted and undef shows as `'absent'`, Puppet's "not there".
 */
export function formatForDisplay(v: PuppetValue | undefined, indent = ''): string {
    if (v === null || v === undefined) return "'absent'";
    if (v instanceof PSensitive) return '[redacted]';
    if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
    if (typeof v === 'number') return Number.isInteger(v) ? `${v}.0` : String(v);
    if (Array.isArray(v)) return `[${v.map(x => formatForDisplay(x, indent)).join(', ')}]`;
    if (v instanceof Map) {
        if (v.size === 0) return '{}';
        const inner = `${indent}  `;
        return `{\n${[...v].map(([k, x]) => `${inner}${formatForDisplay(k, inner)} => ${formatForDisplay(x, inner)}`).join(',\n')}\n${indent}}`;
    }
    if (v instanceof PRegexp) return `/${v.source}/`;
    return `'${String(v)}'`;
}
