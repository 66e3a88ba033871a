import { rubyRegexpToJs } from './values.js';

/**
 * Ruby (Onigmo) regexes of the Resource API (title patterns) in JavaScript, through values' one
 * translation; here `^`/`$` are line anchors, as always in Ruby.
 */
export interface RubyRegexSource {
    readonly source: string;
    /** Ruby flags: any of `m` (dotall), `i`, `x`. */
    readonly flags?: string;
}

export function rubyRegexToJs(re: RubyRegexSource): RegExp {
    const { pattern, flags } = rubyRegexpToJs(re.source, { options: re.flags ?? '', lineAnchors: true });
    return new RegExp(pattern, flags);
}

/** Parses Ruby's `/.../flags` or `%r{...}flags` literal form; a bare string is a source without flags. */
export function parseRubyRegexLiteral(text: string): RubyRegexSource {
    const slash = /^\/([\s\S]*)\/([mix]*)$/.exec(text);
    if (slash) return { source: slash[1], flags: slash[2] };
    const pr = /^%r\{([\s\S]*)\}([mix]*)$/.exec(text);
    if (pr) return { source: pr[1], flags: pr[2] };
    return { source: text };
}

/** The names of the named captures, in order (Ruby's Regexp#names). */
export function captureNames(re: RubyRegexSource): string[] {
    const names: string[] = [];
    const rx = /\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g;
    for (const m of re.source.matchAll(rx)) {
        if (!names.includes(m[1])) names.push(m[1]);
    }
    return names;
}
