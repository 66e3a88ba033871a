import { PRegexp, rewritePattern, rubyToJs } from '../values/index.js';

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
    let scan = scanForms.get(re);
    if (!scan) {
        const r = re.regexp;
        scanForms.set(re, scan = { source: rubyLineStart(r.source), flags: [...new Set(`${r.flags}gm`)].join('') });
    }
    // A fresh RegExp each time: callers scan with lastIndex.
    return new RegExp(scan.source, scan.flags);
}

/** The translated source and flags of each regexp, computed once. */
const scanForms = new WeakMap<PRegexp, { source: string; flags: string }>();

/** Ruby's `^` is the start of the input or of a line, but not the empty end after a final newline. */
function rubyLineStart(source: string): string {
    return rewritePattern(source, i => (source[i] === '^' ? { text: '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))', length: 1 } : undefined));
}

/** The Ruby options of a regexp value, in Ruby's order (`mix`). */
export function regexpOptions(re: PRegexp): string {
    return re instanceof RRegexp ? ['m', 'i', 'x'].filter(o => re.options.includes(o)).join('') : '';
}

export function regexpOf(source: string, options: string): PRegexp {
    return new RRegexp(source, options);
}

/** Extended mode: whitespace and `#` comments (to the end of the line) are not part of the pattern. */
function stripExtended(source: string): string {
    return rewritePattern(source, i => {
        if (/\s/.test(source[i])) return { text: '', length: 1 };
        if (source[i] !== '#') return undefined;
        const nl = source.indexOf('\n', i);
        return { text: '', length: (nl < 0 ? source.length : nl + 1) - i };
    });
}

/** Regexp.escape. */
export function escapeRegexp(s: string): string {
    return s.replace(/[.*?+^$|()[\]{}\\/-]/g, m => `\\${m}`).replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/ /g, '\\ ');
}
