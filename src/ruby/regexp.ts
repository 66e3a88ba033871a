import { PRegexp, rewritePattern, rubyRegexpToJs } from '../values/index.js';

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
            const { pattern, flags } = rubyRegexpToJs(this.source, { options: this.options, lineAnchors: true });
            this.translated = new RegExp(pattern, flags);
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

/** Regexp.escape. */
export function escapeRegexp(s: string): string {
    return s.replace(/[.*?+^$|()[\]{}\\/-]/g, m => `\\${m}`).replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/ /g, '\\ ');
}
