import type { LexFinding, RawToken } from './scanner.js';

/**
 * ARM-8's words (site, bindings, bind, when, to, ...) are not reserved: Puppet code uses them as
 * resource types, attribute names, function names and values, and the corpus must parse as
 * before. The scanner lexes them as NAME; this pass, run once over the finished token list,
 * turns a NAME into its keyword token only where it begins or continues an ARM-8 form:
 *
 * - `site {` whose braces hold no `:` at their own level (a titled resource `site { 'x': }`
 *   stays a resource); inside: `categories {`, `bindings => [` and, in that list, `layer {`;
 * - `bindings NAME {`; inside (and inside nested `when` blocks), at statement level: `when`,
 *   `bind`, `multibind`, `rebind`, `include`, `exclude`, the modifiers right after a bind word
 *   (and after `as`), the first `to` with its `optional`/`producer`, `as`, and `in` (which
 *   becomes BIND_IN so the producer expression does not read it as the `in` operator).
 *
 * Words inside brackets, braces and parentheses of a bind operation (option hashes, values)
 * stay names, so `{ map => .., to => .. }` keeps working.
 */
export function classifyArm8(tokens: RawToken[], text: string, findings?: LexFinding[]): void {
    new Arm8Classifier(tokens, text).run();
    if (findings) {
        queryOperators(tokens, text, findings);
    }
}

/** Operand-start positions after which `not` in a query is the negation operator. */
const NOT_AFTER: ReadonlySet<string> = new Set(['??', 'and', 'or', '!', '(', 'WSLPAREN', '[', 'LISTSTART', ',']);
/** Tokens that cannot follow the operator `not` (then `not` stays a name). */
const NOT_BEFORE: ReadonlySet<string> = new Set([
    ')', ']', '}', ',', 'and', 'or', '==', '!=', '<', '>', '<=', '>=', '=~', '!~', '=', '=>', '.', 'in'
]);

/**
 * Inside an ARM-8 query (`[?? expr]`, up to the bracket that holds the `??`) the seed's
 * operators `~=` (match, Puppet's `=~`), `~!` (no match, `!~`) and `not` (`!`) are accepted.
 * The scanner knows no `~=`/`~!`: it reports the `~` as an illegal character and lexes the `=`
 * or `!` after it. Here, inside a query only, that finding is dropped and the `=`/`!` token is
 * widened over the `~` and becomes `=~`/`!~`, with that image, so the AST and the precedence
 * are those of Puppet's operator. A `not` in operand
 * position becomes `!`. Outside a query nothing changes: `~=` stays the same syntax error.
 */
function queryOperators(tokens: RawToken[], text: string, findings: LexFinding[]): void {
    for (let i = 1; i < tokens.length; i++) {
        const t = tokens[i] as RawToken;
        const open = tokens[i - 1] as RawToken;
        if (t.type !== '??' || (open.type !== '[' && open.type !== 'LISTSTART')) {
            continue;
        }
        let depth = 1;
        let end = i + 1;
        for (; end < tokens.length; end++) {
            const type = (tokens[end] as RawToken).type;
            if (isOpen(type)) {
                depth++;
            } else if (isClose(type) && --depth === 0) {
                break;
            }
        }
        const startOffset = t.end;
        const endOffset = end < tokens.length ? (tokens[end] as RawToken).start : text.length;
        for (let j = i + 1; j < end; j++) {
            const q = tokens[j] as RawToken;
            if (q.type === 'NAME' && q.end - q.start === 3 && text.startsWith('not', q.start)
                && NOT_AFTER.has((tokens[j - 1] as RawToken).type)) {
                const next = tokens[j + 1];
                if (next && !NOT_BEFORE.has(next.type)) {
                    q.type = '!';
                    if (next.type === 'CALL_LPAREN') {
                        next.type = '(';
                    }
                }
            } else if ((q.type === '=' || q.type === '!') && q.start > startOffset && q.end <= endOffset
                && text[q.start - 1] === '~') {
                const f = findings.findIndex(x => x.code === 'PARSE_ILLEGAL_CHARACTER' && x.offset === q.start - 1
                    && x.args[0] === '~');
                if (f >= 0) {
                    findings.splice(f, 1);
                    q.start -= 1;
                    q.type = q.type === '=' ? '=~' : '!~';
                    q.image = q.type;
                }
            }
        }
        i = end;
    }
}

const STATEMENT_STARTERS: ReadonlySet<string> = new Set(['when', 'bind', 'multibind', 'rebind', 'include', 'exclude']);
const MODIFIERS: ReadonlySet<string> = new Set([
    'abstract', 'override', 'final', 'map', 'alias', 'renamed', 'parameters', 'variables', 'variable'
]);
/**
 * After these a word is a name (`class site {`, `node a, site {`, `$x.site`) or an operand
 * (`if site {`, `$a and site {`), never the start of a top-level site or bindings form.
 */
const NAME_POSITION: ReadonlySet<string> = new Set([
    '.', 'class', 'define', 'node', 'inherits', 'function', 'type', ',', 'if', 'elsif', 'unless', 'case', 'and', 'or',
    'in', '!', '-', '+', '*', '/', '%', '==', '!=', '<', '>', '<=', '>=', '=~', '!~', '<<', '>>', '=', '+=', '-=', '=>',
    '+>', '?', '??', ':', '(', 'WSLPAREN', 'CALL_LPAREN', '[', 'LISTSTART', 'SELBRACE', '->', '~>', '<-', '<~', '@', '@@',
    '|', '<|', '<<|', 'DQPRE', 'DQMID', 'RENDER_EXPR'
]);
/** Token types that can name a bindings definition (`bindings default {` uses a keyword). */
const BINDINGS_NAMES: ReadonlySet<string> = new Set(['NAME', 'WORD', 'CLASSREF', 'default']);

function isOpen(type: string): boolean {
    return type === '{' || type === 'SELBRACE' || type === '[' || type === 'LISTSTART' || type === '('
        || type === 'WSLPAREN' || type === 'CALL_LPAREN';
}

function isClose(type: string): boolean {
    return type === '}' || type === ']' || type === ')';
}

class Arm8Classifier {
    constructor(private readonly tokens: RawToken[], private readonly text: string) { }

    run(): void {
        const tokens = this.tokens;
        const text = this.text;
        for (let i = 0; i < tokens.length; i++) {
            const t = tokens[i] as RawToken;
            if (t.type !== 'NAME' || (i > 0 && NAME_POSITION.has((tokens[i - 1] as RawToken).type))) {
                continue;
            }
            const length = t.end - t.start;
            if (length === 4 && text.startsWith('site', t.start)) {
                this.site(i);
            } else if (length === 8 && text.startsWith('bindings', t.start)) {
                this.bindings(i);
            }
        }
    }

    private word(i: number): string | undefined {
        const t = this.tokens[i];
        return t && t.type === 'NAME' ? this.text.slice(t.start, t.end) : undefined;
    }

    /** Index of the token that closes the bracket opened at `i` (or the end of the list). */
    private matching(i: number): number {
        const tokens = this.tokens;
        let depth = 0;
        for (let j = i; j < tokens.length; j++) {
            const type = (tokens[j] as RawToken).type;
            if (isOpen(type)) {
                depth++;
            } else if (isClose(type) && --depth === 0) {
                return j;
            }
        }
        return tokens.length;
    }

    /** Makes token `i` the keyword `kw`; a `(` right after it no longer opens an argument list. */
    private keyword(i: number, kw: string): void {
        (this.tokens[i] as RawToken).type = kw;
        const next = this.tokens[i + 1];
        if (next?.type === 'CALL_LPAREN') {
            next.type = '(';
        }
    }

    private site(i: number): void {
        if (this.tokens[i + 1]?.type !== '{') {
            return;
        }
        const close = this.matching(i + 1);
        for (let j = i + 2; j < close;) {
            const type = (this.tokens[j] as RawToken).type;
            if (type === ':') {
                return;
            }
            j = isOpen(type) ? this.matching(j) + 1 : j + 1;
        }
        this.keyword(i, 'site');
        for (let j = i + 2; j < close;) {
            const type = (this.tokens[j] as RawToken).type;
            const w = this.word(j);
            if (w === 'categories' && this.tokens[j + 1]?.type === '{') {
                this.keyword(j, 'categories');
                j = this.matching(j + 1) + 1;
            } else if (w === 'bindings' && this.tokens[j + 1]?.type === '=>') {
                this.keyword(j, 'bindings');
                const open = j + 2;
                const openType = this.tokens[open]?.type;
                if (openType === '[' || openType === 'LISTSTART') {
                    const end = this.matching(open);
                    this.layers(open + 1, end);
                    j = end + 1;
                } else {
                    j = open;
                }
            } else {
                j = isOpen(type) ? this.matching(j) + 1 : j + 1;
            }
        }
    }

    private layers(from: number, to: number): void {
        for (let j = from; j < to;) {
            const type = (this.tokens[j] as RawToken).type;
            if (this.word(j) === 'layer' && this.tokens[j + 1]?.type === '{') {
                this.keyword(j, 'layer');
                j = this.matching(j + 1) + 1;
            } else {
                j = isOpen(type) ? this.matching(j) + 1 : j + 1;
            }
        }
    }

    private bindings(i: number): void {
        const name = this.tokens[i + 1];
        if (!name || !BINDINGS_NAMES.has(name.type) || this.tokens[i + 2]?.type !== '{') {
            return;
        }
        this.keyword(i, 'bindings');
        this.bindingsBody(i + 3, this.matching(i + 2));
    }

    /** The statements of a bindings definition or `when` block, tokens `from` to `to` (exclusive). */
    private bindingsBody(from: number, to: number): void {
        let j = from;
        while (j < to) {
            const type = (this.tokens[j] as RawToken).type;
            const w = this.word(j);
            if (w === 'when') {
                this.keyword(j, 'when');
                let k = j + 1;
                while (k < to && (this.tokens[k] as RawToken).type !== '{') {
                    k = isOpen((this.tokens[k] as RawToken).type) ? this.matching(k) + 1 : k + 1;
                }
                if (k >= to) {
                    return;
                }
                const close = this.matching(k);
                this.bindingsBody(k + 1, close);
                j = close + 1;
            } else if (w === 'bind' || w === 'multibind' || w === 'rebind') {
                j = this.bindOperation(j, to, w);
            } else if (w === 'include' || w === 'exclude') {
                this.keyword(j, w);
                j++;
            } else {
                j = isOpen(type) ? this.matching(j) + 1 : j + 1;
            }
        }
    }

    /** One bind operation from its bind word at `i`; returns the index where the next one starts. */
    private bindOperation(i: number, to: number, kind: string): number {
        this.keyword(i, kind);
        let j = i + 1;
        if (kind === 'bind' && this.word(j) === 'dependency') {
            this.keyword(j, 'dependency');
            j++;
        }
        j = this.modifiers(j);
        let sawTo = false;
        while (j < to) {
            const t = this.tokens[j] as RawToken;
            if (isOpen(t.type)) {
                j = this.matching(j) + 1;
                continue;
            }
            if (t.type === 'in') {
                t.type = 'BIND_IN';
                j++;
                continue;
            }
            // The seed writes the keywords in capitals (`multibind ... AS 'id'`, `bind ... IN 'id'`), as its grammar does.
            const upper = t.type === 'CLASSREF' ? this.text.slice(t.start, t.end) : undefined;
            if (upper === 'IN') {
                t.type = 'BIND_IN';
                t.image = 'in';
                j++;
                continue;
            }
            if (upper === 'AS') {
                this.keyword(j, 'as');
                t.image = 'as';
                j = this.modifiers(j + 1);
                continue;
            }
            const w = this.word(j);
            if (w !== undefined && STATEMENT_STARTERS.has(w)) {
                break;
            }
            if (w === 'to' && !sawTo) {
                sawTo = true;
                this.keyword(j, 'to');
                j++;
                if (this.word(j) === 'optional') {
                    this.keyword(j, 'optional');
                    j++;
                }
                if (this.word(j) === 'producer') {
                    this.keyword(j, 'producer');
                    j++;
                }
                continue;
            }
            if (w === 'as') {
                this.keyword(j, 'as');
                j = this.modifiers(j + 1);
                continue;
            }
            j++;
        }
        return j;
    }

    private modifiers(from: number): number {
        let j = from;
        for (let w = this.word(j); w !== undefined && MODIFIERS.has(w); w = this.word(j)) {
            this.keyword(j, w);
            j++;
        }
        return j;
    }
}
