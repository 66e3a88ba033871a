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
            // Plugin code builds the same regexps over and over (a literal each time it runs): translated once.
            const key = `${this.options}\0${this.source}`;
            let known = translations.get(key);
            if (!known) {
                const { pattern, flags } = rubyRegexpToJs(this.source, { options: this.options, lineAnchors: true });
                known = new RegExp(pattern, flags);
                if (translations.size > 5_000) translations.clear();
                translations.set(key, known);
            }
            this.translated = known;
        }
        return this.translated;
    }
}

/** Translated regexps (without the g or y flag, so shared safely) by options and source. */
const translations = new Map<string, RegExp>();

/** A regexp for scanning with Ruby's anchors: `^` and `$` always match at line boundaries in Ruby. */
export function globalRegExp(re: PRegexp): RegExp {
    const r = re.regexp;
    const key = `${r.flags}\0${r.source}`;
    let scan = scanForms.get(key);
    if (!scan) {
        if (scanForms.size > 5_000) scanForms.clear();
        scanForms.set(key, scan = new RegExp(rubyLineStart(r.source), [...new Set(`${r.flags}gm`)].join('')));
    }
    // A fresh RegExp each time (callers scan with lastIndex), made from the compiled one.
    return new RegExp(scan);
}

/** The scanning form of each translated regexp, by its flags and source. */
const scanForms = new Map<string, RegExp>();

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
