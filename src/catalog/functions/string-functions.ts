import { createHash } from 'node:crypto';
import { compileRubyRegexp, PBinary, PDefault, PIterator, PRegexp, RubyRegexpError, versioncmp, type PuppetValue } from '../../values/index.js';
import { formatValue, PPatternType, PRegexpType, PTypeAliasType, PVariantType, rubyInspect, sprintf, SprintfError } from '../../types/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { PuppetFunction } from './function.js';
import { classOf, describe as describeRuby } from '../../ruby/index.js';

/**
 * Applies `f` to a string, or to each string an iterable gives (an array, an iterator: the
 * result is an array); numbers are kept. The dispatches admit nothing else.
 */
function mapStrings(f: (s: string) => string): PuppetFunction {
    return (_call, [v]) => {
        const each = (x: PuppetValue): PuppetValue => typeof x === 'string' ? f(x) : x;
        if (Array.isArray(v)) return v.map(each);
        if (v instanceof PIterator) return v.elementsOf().map(each);
        return each(v);
    };
}

/** upcase and downcase go down into nested arrays and hashes (keys and values). */
function mapStringsDeep(f: (s: string) => string): PuppetFunction {
    const deep = (x: PuppetValue): PuppetValue => typeof x === 'string' ? f(x)
        : Array.isArray(x) ? x.map(deep)
            : x instanceof Map ? new Map([...x].map(([k, y]) => [deep(k), deep(y)])) : x;
    return (_call, [v]) => deep(v);
}

/** Ruby's whitespace for strip: NUL, \t, \n, \v, \f, \r and space (no Unicode spaces). */
const LEADING_SPACE = /^[\0\t\n\v\f\r ]+/;
const TRAILING_SPACE = /[\0\t\n\v\f\r ]+$/;

function toRegExp(p: PuppetValue, flags = ''): RegExp {
    // A Regexp type (split's Type[Regexp] signature) matches its pattern; a bare Regexp type matches anything.
    const source = p instanceof PRegexpType ? p.pattern?.source ?? '' : p instanceof PRegexp ? p.source : String(p);
    try {
        return compileRubyRegexp(source, flags);
    } catch (e) {
        if (e instanceof RubyRegexpError) throw new RuntimeFailure(e.message);
        throw e;
    }
}

/**
 * match(): the pattern as Puppet's match visitor takes it: a string or Regexp, a Regexp type's
 * expression, the first of a Pattern's (or Variant's, or an array's) patterns that matches.
 */
function matchWith(s: PuppetValue, p: PuppetValue): PuppetValue {
    if (p instanceof PTypeAliasType) return p.resolved ? matchWith(s, p.resolved) : null;
    if (p instanceof PPatternType) return firstMatch(s, p.patterns);
    if (p instanceof PVariantType) return firstMatch(s, p.types);
    if (Array.isArray(p)) return firstMatch(s, p.flat(Infinity as 1));
    if (p instanceof PRegexpType && p.pattern === null) throw new RuntimeFailure(CatalogIssues.EVAL_MATCH_REGEXP_TYPE_EMPTY.message());
    if (!(typeof p === 'string' || p instanceof PRegexp || p instanceof PRegexpType)) {
        throw new RuntimeFailure(CatalogIssues.EVAL_MATCH_PATTERN_KIND.message({ kind: classOf(p).name }));
    }
    const m = typeof s === 'string' ? toRegExp(p).exec(s) : null;
    return m ? [...m].map(g => g ?? null) : null;
}

function firstMatch(s: PuppetValue, patterns: readonly PuppetValue[]): PuppetValue {
    for (const x of patterns) {
        const r = matchWith(s, x);
        if (r !== null) return r;
    }
    return null;
}

/** Ruby's String#split: trailing empty fields are dropped. */
function rubySplit(s: string, re: RegExp): string[] {
    const out = re.source === '(?:)' ? [...s] : s.split(re);
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return out;
}

/** Ruby sub/gsub replacement: \\0-\\9 and \\& the match and its groups, \\k<name> a named group, \\` and \\' the text before and after, \\\\ a backslash. */
function rubyReplacement(rep: string): (m: string, ...rest: unknown[]) => string {
    return (m, ...rest) => {
        const at = rest.findIndex(x => typeof x === 'number');
        const groups = rest.slice(0, at) as Array<string | undefined>;
        const offset = rest[at] as number;
        const input = rest[at + 1] as string;
        const named = (rest[at + 2] ?? {}) as Record<string, string | undefined>;
        return rep.replace(/\\(\d|k<(\w+)>|[&`'\\])/g, (_x, d: string, name: string | undefined) => {
            if (name !== undefined) return named[name] ?? '';
            switch (d) {
                case '\\': return '\\';
                case '&': case '0': return m;
                case '`': return input.slice(0, offset);
                case "'": return input.slice(offset + m.length);
                default: return groups[Number(d) - 1] ?? '';
            }
        });
    };
}


const SAFE = /^[a-zA-Z0-9@%_+=:,./-]+$/;
function shellquote(words: string[]): string {
    return words.map(w => {
        if (w.length > 0 && SAFE.test(w)) return w;
        if (!/[!"`$\\]/.test(w)) return `"${w}"`;
        if (!w.includes("'")) return `'${w}'`;
        return `"${w.replace(/([!"`$\\])/g, '\\$1')}"`;
    }).join(' ');
}

export const stringFunctions: Record<string, PuppetFunction> = {
    split: (_call, [s, p]) => rubySplit(String(s), toRegExp(p)),
    join: (_call, [a, sep]) => {
        if (!Array.isArray(a)) throw new RuntimeFailure(CatalogIssues.EVAL_PARAMETER_NOT.message({ fname: 'join', name: 'arg', expected: 'an Array' }));
        // Ruby's Array#join: nested arrays are flattened, a hash joins as its inspect.
        return a.flat(Infinity as 1).map(x => x instanceof Map ? rubyInspect(x) : formatValue(x)).join(sep === undefined || sep === null ? '' : String(sep));
    },
    upcase: mapStringsDeep(s => s.toUpperCase()),
    downcase: mapStringsDeep(s => s.toLowerCase()),
    capitalize: mapStrings(s => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase()),
    camelcase: mapStrings(s => s.split('_').map(w => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join('')),
    strip: mapStrings(s => s.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '')),
    lstrip: mapStrings(s => s.replace(LEADING_SPACE, '')),
    rstrip: mapStrings(s => s.replace(TRAILING_SPACE, '')),
    chomp: mapStrings(s => s.replace(/(\r\n|\n|\r)$/, '')),
    chop: mapStrings(s => s.endsWith('\r\n') ? s.slice(0, -2) : s.slice(0, -1)),
    regsubst: (_call, [target, pattern, rep, flags]) => {
        const f = typeof flags === 'string' ? flags : '';
        const re = toRegExp(pattern, (f.includes('G') ? 'g' : '') + (f.includes('I') ? 'i' : '') + (f.includes('M') ? 's' : ''));
        const sub = (s: string): string => s.replace(re, rubyReplacement(String(rep)));
        return Array.isArray(target) ? target.map(x => sub(String(x))) : sub(String(target));
    },
    sprintf: (_call, [fmt, ...args]) => {
        if (fmt === null) fmt = '';
        if (typeof fmt !== 'string') {
            throw new RuntimeFailure(CatalogIssues.EVAL_NO_IMPLICIT_CONVERSION.message({ kind: rubyClassOf(fmt) }));
        }
        // A 3.x function: Puppet hands it a top-level undef argument as ''.
        try {
            return sprintf(fmt, args.map(a => a === null ? '' : a));
        } catch (e) {
            if (e instanceof SprintfError) throw new RuntimeFailure(e.message);
            throw e;
        }
    },
    size: (_call, [v]) => lengthOf(v),
    length: (_call, [v]) => lengthOf(v),
    match: (_call, [v, p]) => Array.isArray(v) ? v.map(s => matchWith(s, p)) : matchWith(v, p),
    versioncmp: (_call, [a, b]) => BigInt(versioncmp(String(a), String(b))),
    sha256: (_call, [s]) => hexDigest('sha256', s),
    sha1: (_call, [s]) => hexDigest('sha1', s),
    md5: (_call, [s]) => hexDigest('md5', s),
    shellquote: (_call, args) => shellquote(args.map(a => a ?? '').flat(Infinity as 1).map(shellWord))
};

/**
 * A word of shellquote as Ruby's String methods take it: a hash has a length but no string
 * conversion, anything else that is no string has no length (a nested undef is nil).
 */
function shellWord(v: PuppetValue): string {
    if (typeof v === 'string') return v;
    if (v instanceof Map) throw new RuntimeFailure(CatalogIssues.EVAL_NO_IMPLICIT_CONVERSION.message({ kind: 'Hash' }));
    // default arrives as the Symbol :default, which has a length but no count.
    if (v instanceof PDefault) throw new RuntimeFailure(CatalogIssues.EVAL_RUBY_NO_METHOD.message({ method: 'count', receiver: describeRuby(v) }));
    throw new RuntimeFailure(CatalogIssues.EVAL_RUBY_NO_METHOD.message({ method: 'length', receiver: describeRuby(v) }));
}

/** The Ruby class Puppet hands a value to a 3.x function as, named as Ruby's TypeErrors do. */
function rubyClassOf(v: PuppetValue): string {
    return v === null ? 'nil' : typeof v === 'boolean' ? String(v) : classOf(v).name;
}

/** Ruby's Digest of a 3.x argument: a string (undef as ''), anything else a TypeError. */
export function hexDigest(algorithm: string, s: PuppetValue): string {
    if (s !== null && typeof s !== 'string') {
        throw new RuntimeFailure(CatalogIssues.EVAL_NO_IMPLICIT_CONVERSION.message({ kind: rubyClassOf(s) }));
    }
    return createHash(algorithm).update(s ?? '').digest('hex');
}

/** Characters of a string, entries of a collection, bytes of a Binary. */
function lengthOf(v: PuppetValue): bigint {
    if (typeof v === 'string') return BigInt([...v].length);
    if (Array.isArray(v)) return BigInt(v.length);
    if (v instanceof Map) return BigInt(v.size);
    return v instanceof PBinary ? BigInt(v.bytes.length) : 0n;
}
