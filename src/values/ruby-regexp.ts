/**
 * Ruby (Onigmo) regexps in JavaScript: the one translation every stage uses (Puppet's regexp
 * values, ERB's Regexp literals, the Resource API's title patterns). Ruby keeps the source; the
 * JavaScript form differs where the dialects do: `\A` `\z` `\Z` `\h`, leading option groups
 * (`(?mix)`), extended mode, unnamed groups not capturing beside named ones, and `m` (dot
 * matches newline) being JavaScript's `s`.
 */

export interface RubyRegexpOptions {
    /** Ruby options of a literal (`/x/mix`), besides those a leading `(?mix)` group gives. */
    readonly options?: string;
    /**
     * Whether `^` and `$` are line anchors, as they always are in Ruby and so in Puppet (adds
     * JavaScript's `m` flag when the pattern uses them).
     */
    readonly lineAnchors?: boolean;
}

export function rubyRegexpToJs(source: string, opts: RubyRegexpOptions = {}): { pattern: string; flags: string } {
    let pattern = source;
    let options = opts.options ?? '';
    const lead = /^\(\?([imx]+)\)/.exec(pattern);
    if (lead) {
        pattern = pattern.slice(lead[0].length);
        options += lead[1];
    }
    if (options.includes('x')) pattern = stripExtended(pattern);
    if (/\(\?<[A-Za-z_]\w*>/.test(pattern)) pattern = uncaptureUnnamed(pattern);
    if (/\\g<[A-Za-z_]\w*>/.test(pattern)) pattern = inlineSubexpressionCalls(pattern);
    let lineAnchor = false;
    pattern = rewritePattern(pattern, (i, inClass) => {
        const c = pattern[i];
        if (c !== '\\') {
            if (!inClass && (c === '^' || c === '$')) lineAnchor = true;
            if (!inClass && c === '(') return optionGroup(pattern, i);
            return undefined;
        }
        const n = pattern[i + 1];
        if (n === 'h') return { text: inClass ? '0-9a-fA-F' : '[0-9a-fA-F]', length: 2 };
        if (inClass) return undefined;
        if (n === 'A') return { text: '(?<![\\s\\S])', length: 2 };
        if (n === 'z') return { text: '(?![\\s\\S])', length: 2 };
        if (n === 'Z') return { text: '(?=\\n?(?![\\s\\S]))', length: 2 };
        return undefined;
    }, { escapes: true });
    let flags = '';
    if (options.includes('i')) flags += 'i';
    if (options.includes('m')) flags += 's';
    if (opts.lineAnchors && lineAnchor) flags += 'm';
    return { pattern, flags };
}

/**
 * Ruby's subexpression call `\g<name>` matches the named group's pattern again; JavaScript has
 * none, so a call of a group that does not call itself is that group's pattern, inlined as a
 * non-capturing group (SemanticPuppet's `(?<part>...)(?:\.\g<part>)*`). A recursive call is left.
 */
function inlineSubexpressionCalls(pattern: string): string {
    const bodies = new Map<string, string>();
    for (const m of pattern.matchAll(/\(\?<([A-Za-z_]\w*)>/g)) {
        const end = groupEnd(pattern, m.index);
        if (end !== undefined) bodies.set(m[1], pattern.slice(m.index + m[0].length, end));
    }
    return rewritePattern(pattern, (i, inClass) => {
        if (inClass || pattern[i] !== '\\' || pattern[i + 1] !== 'g') return undefined;
        const m = /^\\g<([A-Za-z_]\w*)>/.exec(pattern.slice(i));
        const body = m ? bodies.get(m[1]) : undefined;
        if (!m || body === undefined || body.includes(`\\g<${m[1]}>`)) return undefined;
        return { text: `(?:${body})`, length: m[0].length };
    }, { escapes: true });
}

/** The index of the `)` closing the group opened at `start` (escapes and classes skipped). */
function groupEnd(pattern: string, start: number): number | undefined {
    let depth = 0;
    let inClass = false;
    for (let i = start; i < pattern.length; i++) {
        const c = pattern[i];
        if (c === '\\') { i++; continue; }
        if (inClass) { if (c === ']') inClass = false; continue; }
        if (c === '[') inClass = true;
        else if (c === '(') depth++;
        else if (c === ')' && --depth === 0) return i;
    }
    return undefined;
}

/**
 * An option group inside a pattern (`(?-mix:...)`, what Regexp#to_s gives an interpolated regexp):
 * JavaScript's modifier group with Ruby's `i` and `m` (JavaScript's `s`); `x` only changes how the
 * source is written, not what it matches, when the group holds no whitespace or comments.
 */
function optionGroup(pattern: string, i: number): { text: string; length: number } | undefined {
    const m = /^\(\?([imx]*)(?:-([imx]*))?:/.exec(pattern.slice(i, i + 12));
    if (!m || (m[1] === '' && m[2] === undefined)) return undefined;
    const js = (o: string): string => [...o].filter(f => f !== 'x').map(f => (f === 'm' ? 's' : f)).join('');
    const on = js(m[1]);
    const off = js(m[2] ?? '');
    return { text: on || off ? `(?${on}${off ? `-${off}` : ''}:` : '(?:', length: m[0].length };
}

/** A Puppet regexp value's source (options inside the pattern) as a JavaScript pattern and flags. */
export function rubyToJs(source: string): { pattern: string; flags: string } {
    // Puppet's regexps are Ruby's: `^` and `$` match at every line.
    return rubyRegexpToJs(source, { lineAnchors: true });
}

/** The translated pattern text alone (callers that add their own flags). */
export function rubyToJsPattern(source: string): string {
    return rubyToJs(source).pattern;
}

/**
 * Rewrites a regexp source where it is pattern syntax: `at(i, inClass)` may replace the `length`
 * characters from `i` with `text`; what it leaves is copied. Escapes are copied whole unless
 * `escapes` asks to see them too; a `]` first in a class (after an optional `^`) is literal.
 */
export function rewritePattern(
    source: string,
    at: (i: number, inClass: boolean) => { text: string; length: number } | undefined,
    opts: { escapes?: boolean } = {}
): string {
    let out = '';
    let inClass = false;
    for (let i = 0; i < source.length; i++) {
        const c = source[i];
        if (c === '\\') {
            const r = opts.escapes ? at(i, inClass) : undefined;
            if (r) { out += r.text; i += r.length - 1; } else { out += c + (source[i + 1] ?? ''); i++; }
            continue;
        }
        if (inClass) {
            const r = opts.escapes ? at(i, true) : undefined;
            if (r) { out += r.text; i += r.length - 1; continue; }
            if (c === ']') inClass = false;
            out += c;
            continue;
        }
        if (c === '[') {
            inClass = true;
            out += c;
            if (source[i + 1] === '^') { out += '^'; i++; }
            if (source[i + 1] === ']') { out += '\\]'; i++; }
            continue;
        }
        const r = at(i, false);
        if (r) { out += r.text; i += r.length - 1; } else out += c;
    }
    return out;
}

/** In Ruby, a regexp with named groups does not capture its unnamed groups: make them (?:...). */
function uncaptureUnnamed(pattern: string): string {
    return rewritePattern(pattern, i => (pattern[i] === '(' && pattern[i + 1] !== '?' ? { text: '(?:', length: 1 } : undefined));
}

/** Extended mode: whitespace and `#` comments (to the end of the line) outside classes are not pattern. */
export function stripExtended(source: string): string {
    return rewritePattern(source, i => {
        if (/\s/.test(source[i])) return { text: '', length: 1 };
        if (source[i] !== '#') return undefined;
        const nl = source.indexOf('\n', i);
        return { text: '', length: (nl < 0 ? source.length : nl + 1) - i };
    });
}

/** A pattern Ruby's Regexp.new refuses, with Ruby's message ("end pattern with unmatched parenthesis: /(/"). */
export class RubyRegexpError extends Error {}

/** What Onigmo says where JavaScript's parser gives up on the same pattern. */
const ONIGMO_MESSAGES: ReadonlyArray<readonly [RegExp, string]> = [
    [/Unterminated group/, 'end pattern with unmatched parenthesis'],
    [/Unmatched '\)'/, 'unmatched close parenthesis'],
    [/Unterminated character class/, 'premature end of char-class'],
    [/numbers out of order/, 'upper is smaller than lower in repeat range'],
    [/Nothing to repeat/, 'target of repeat operator is not specified'],
    [/Range out of order/, 'empty range in char class'],
    [/Invalid group|Invalid capture group name/, 'undefined group option'],
    [/\\ at end of pattern/, 'too short escape sequence']
];

/** Compiles a Ruby regexp source as JavaScript; a refused pattern is a RubyRegexpError with Ruby's text. */
export function compileRubyRegexp(source: string, extraFlags = ''): RegExp {
    const { pattern, flags } = rubyToJs(source);
    try {
        return new RegExp(pattern, [...new Set(extraFlags + flags)].join(''));
    } catch (e) {
        const text = e instanceof Error ? e.message : String(e);
        const known = ONIGMO_MESSAGES.find(([re]) => re.test(text));
        throw new RubyRegexpError(`${known ? known[1] : text.replace(/^Invalid regular expression: \/.*\/\w*: /, '').toLowerCase()}: /${source}/`);
    }
}
