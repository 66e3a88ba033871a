/**
 * Ruby (Onigmo) regexes in JavaScript. Puppet patterns keep their Ruby source; this translates
 * the points where the dialects differ: `^`/`$` are always line anchors in Ruby, `\A` `\z` `\Z`
 * exist only there, and Ruby's `m` flag is JavaScript's `s` (dot matches newline).
 */
export interface RubyRegexSource {
    readonly source: string;
    /** Ruby flags: any of `m` (dotall), `i`, `x`. */
    readonly flags?: string;
}

export function rubyRegexToJs(re: RubyRegexSource): RegExp {
    let out = '';
    let usesLineAnchor = false;
    let inClass = false;
    const src = re.source;
    const extended = (re.flags ?? '').includes('x');
    for (let i = 0; i < src.length; i++) {
        const c = src[i];
        if (c === '\\' && i + 1 < src.length) {
            const n = src[i + 1];
            i++;
            if (!inClass && n === 'A') out += '(?<![\\s\\S])';
            else if (!inClass && n === 'z') out += '(?![\\s\\S])';
            else if (!inClass && n === 'Z') out += '(?=\\n?(?![\\s\\S]))';
            else if (n === 'h') out += inClass ? '0-9a-fA-F' : '[0-9a-fA-F]';
            else out += `\\${n}`;
            continue;
        }
        if (inClass) {
            if (c === ']') inClass = false;
            out += c;
            continue;
        }
        if (c === '[') {
            inClass = true;
            out += c;
            if (src[i + 1] === '^') { out += '^'; i++; }
            if (src[i + 1] === ']') { out += '\\]'; i++; }
            continue;
        }
        if (extended && /\s/.test(c)) continue;
        if (extended && c === '#') {
            while (i < src.length && src[i] !== '\n') i++;
            continue;
        }
        if (c === '^' || c === '$') usesLineAnchor = true;
        out += c;
    }
    let flags = '';
    if ((re.flags ?? '').includes('m')) flags += 's';
    if ((re.flags ?? '').includes('i')) flags += 'i';
    if (usesLineAnchor) flags += 'm';
    return new RegExp(out, flags);
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
