import type { PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import type { HieraScope } from './context.js';
import { LookupError } from './errors.js';
import type { Invocation } from './invocation.js';
import { dig, NOT_FOUND, splitKey } from './lookup-key.js';
import { rubyToS } from './ruby-format.js';

/** A nested lookup for `%{lookup('k')}` / `%{alias('k')}` (a missing key gives '' there). */
export type NestedLookup = (key: string, inv: Invocation) => PuppetValue;

/** Remembers which scope variables a hiera.yaml interpolation read, to notice when they change. */
export type ScopeRecorder = (expr: string, value: PuppetValue) => void;

const EMPTY_INTERPOLATIONS = new Set(['', '::', '""', "''", '"::"', "'::'"]);
const METHOD_CALL = /^(\w+)\((?:["]([^"]+)["]|[']([^']+)['])\)$/;
const INTERPOLATION = /%\{([^}]*)\}/g;

/**
 * Hiera's `%{...}` interpolation (Puppet::Pops::Lookup::Interpolation): scope variables with
 * dotted digging (`facts.os.family`, `::trusted.certname`), and in data also the methods
 * lookup/hiera, alias (keeps the type; must be the whole string), scope and literal.
 */
export class Interpolator {
    constructor(private readonly nested: NestedLookup) {}

    interpolate(value: PuppetValue, inv: Invocation, scope: HieraScope, allowMethods: boolean, record?: ScopeRecorder): PuppetValue {
        if (typeof value === 'string') {
            return value.includes('%{') ? this.interpolateString(value, inv, scope, allowMethods, record) : value;
        }
        if (Array.isArray(value)) return value.map(v => this.interpolate(v, inv, scope, allowMethods, record));
        if (value instanceof Map) {
            const out = new Map<PuppetValue, PuppetValue>();
            for (const [k, v] of value) out.set(this.interpolate(k, inv, scope, allowMethods, record), this.interpolate(v, inv, scope, allowMethods, record));
            return out;
        }
        return value;
    }

    /** Interpolation that yields a string (hiera.yaml paths and datadirs). */
    interpolatePath(text: string, inv: Invocation, scope: HieraScope, record?: ScopeRecorder): string {
        const v = this.interpolate(text, inv, scope, false, record);
        return typeof v === 'string' ? v : rubyToS(v);
    }

    private interpolateString(subject: string, inv: Invocation, scope: HieraScope, allowMethods: boolean, record?: ScopeRecorder): PuppetValue {
        return inv.with(() => `Interpolation on "${subject}"`, () => {
            let aliasValue: { v: PuppetValue } | undefined;
            const result = subject.replace(INTERPOLATION, (match: string, raw: string) => {
                if (aliasValue) return '';
                const expr = raw.trim();
                if (EMPTY_INTERPOLATIONS.has(expr)) return '';
                const [method, key] = methodAndKey(expr, allowMethods);
                if (method === 'alias' && subject !== match) {
                    throw new LookupError("'alias' interpolation is only permitted if the expression is equal to the entire string", {
                        code: BindingsIssues.LOOKUP_ALIAS_NOT_ENTIRE_STRING, issueCode: 'HIERA_INTERPOLATION_ALIAS_NOT_ENTIRE_STRING'
                    });
                }
                let value = this.callMethod(method, key, inv, scope, subject, record);
                if (method === 'alias') { aliasValue = { v: value }; return ''; }
                value = inv.check(method === 'scope' ? `scope:${key}` : key, () => this.interpolate(value, inv, scope, allowMethods, record));
                return rubyToS(value);
            });
            return aliasValue ? aliasValue.v : result;
        });
    }

    private callMethod(method: string, key: string, inv: Invocation, scope: HieraScope, subject: string, record?: ScopeRecorder): PuppetValue {
        switch (method) {
            case 'lookup': case 'hiera': case 'alias':
                return this.nested(key, inv);
            case 'literal':
                return key;
            case 'scope': {
                const v = scopeValue(key, scope, subject, inv);
                record?.(key, v);
                return v;
            }
            default:
                throw new LookupError(`Unknown interpolation method '${method}'`, {
                    code: BindingsIssues.LOOKUP_UNKNOWN_INTERPOLATION_METHOD, issueCode: 'HIERA_INTERPOLATION_UNKNOWN_INTERPOLATION_METHOD'
                });
        }
    }
}

function methodAndKey(expr: string, allowMethods: boolean): [string, string] {
    const m = METHOD_CALL.exec(expr);
    if (!m) return ['scope', expr];
    if (!allowMethods) {
        throw new LookupError('Interpolation using method syntax is not allowed in this context', {
            code: BindingsIssues.LOOKUP_INTERPOLATION_METHOD_NOT_ALLOWED, issueCode: 'HIERA_INTERPOLATION_METHOD_SYNTAX_NOT_ALLOWED'
        });
    }
    return [m[1], m[2] ?? m[3]];
}

/**
 * A scope variable, dug into with the key's remaining segments; missing parts give undef.
 * Explained as Puppet does: "Global Scope" with the root variable, then "Sub key".
 */
export function scopeValue(key: string, scope: HieraScope, subject: string, inv?: Invocation): PuppetValue {
    const segments = splitKey(key, p => new LookupError(`${p} in string: ${subject}`, { code: BindingsIssues.LOOKUP_KEY_SYNTAX }));
    const root = String(segments[0]);
    const explainer = inv?.explainer;
    // Lookup::Interpolation's scope lookup: the override hash first, then the scope, then the default values hash.
    let value: PuppetValue;
    if (inv?.overrides?.has(root)) value = inv.overrides.get(root) as PuppetValue;
    else {
        const v = scope.read(root);
        value = v === undefined && inv?.defaults?.has(root) ? inv.defaults.get(root) as PuppetValue : v ?? null;
    }
    if (explainer) explainer.within('Global Scope', () => { if (value !== null) explainer.found(root, value); });
    if (value === null || segments.length === 1) return value;
    const rest = segments.slice(1);
    const found = explainer
        ? explainer.within(`Sub key: "${rest.join('.')}"`, () => dig(key, rest, value, (seg, f) => {
            if (f === NOT_FOUND) explainer.notFound(String(seg));
            else explainer.found(String(seg), f);
        }))
        : dig(key, rest, value);
    return found === NOT_FOUND ? null : found;
}
