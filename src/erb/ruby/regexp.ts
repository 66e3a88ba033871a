import { PRegexp, rubyToJs } from '../../values/index.js';

/**
 * A Regexp written in a template, with Ruby's options (`/x/i`, `%r{x}m`). Puppet's own regexps
 * carry their options inside the pattern, so they are plain PRegexp values.
 */
export class RRegexp extends PRegexp {
    private translated: RegExp | undefined;
    constructor(source: string, readonly options: string) {
        super(source);
    }
    override get regexp(): RegExp {
        if (!this.translated) {
            const { pattern, flags } = rubyToJs(this.options.includes('x') ? stripExtended(this.source) : this.source);
            let f = flags;
            if (this.options.includes('i') && !f.includes('i')) f += 'i';
            if (this.options.includes('m') && !f.includes('s')) f += 's';
            this.translated = new RegExp(pattern, f);
        }
        return this.translated;
    }
}

/** A regexp for scanning with Ruby's anchors: `^` and `$` always match at line boundaries in Ruby. */
export function globalRegExp(re: PRegexp): RegExp {
    const r = re.regexp;
    return new RegExp(rubyLineStart(r.source), [...new Set(`${r.flags}gm`)].join(''));
}

/** Ruby's `^` is the start of the input or of a line, but not the empty end after a final newline. */
function rubyLineStart(source: string): string {
    let out = '';
    let inClass = false;
    for (let i = 0; i < source.length; i++) {
        const c = source[i];
        if (c === '\\') { out += c + (source[i + 1] ?? ''); i++; continue; }
        if (inClass) { if (c === ']') inClass = false; out += c; continue; }
        if (c === '[') { inClass = true; out += c; if (source[i + 1] === '^') { out += '^'; i++; } continue; }
        out += c === '^' ? '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))' : c;
    }
    return out;
}

/** The Ruby options of a regexp value, in Ruby's order (`mix`). */
export function regexpOptions(re: PRegexp): string {
    return re instanceof RRegexp ? ['m', 'i', 'x'].filter(o => re.options.includes(o)).join('') : '';
}

export function regexpOf(source: string, options: string): PRegexp {
    return new RRegexp(source, options);
}

/** Extended mode: whitespace and `#` comments outside character classes are not part of the pattern. */
function stripExtended(source: string): string {
    let out = '';
    let inClass = false;
    for (let i = 0; i < source.length; i++) {
        const c = source[i];
        if (c === '\\') { out += c + (source[i + 1] ?? ''); i++; continue; }
        if (inClass) { if (c === ']') inClass = false; out += c; continue; }
        if (c === '[') { inClass = true; out += c; continue; }
        if (/\s/.test(c)) continue;
        if (c === '#') { while (i < source.length && source[i] !== '\n') i++; continue; }
        out += c;
    }
    return out;
}

/** Regexp.escape. */
export function escapeRegexp(s: string): string {
    return s.replace(/[.*?+^$|()[\]{}\\/-]/g, m => `\\${m}`).replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/ /g, '\\ ');
}
