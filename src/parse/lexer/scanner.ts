import { DQ_ESCAPES, SQ_ESCAPES, isEscaped, resolveEscapes, type EscapeSet, type EscapeWarning } from './escapes.js';
import type { ParseIssueCode } from '../issues.js';

/**
 * A token in source coordinates. `type` is the grammar's token type name: a keyword's text
 * (`'{'`, `'class'`) or a terminal rule name (`NAME`, `DQPRE`). `value` is set when the token's
 * meaning differs from its source text (unescaped strings, `$` stripped from variables).
 */
export interface RawToken {
    type: string;
    start: number;
    end: number;
    value?: string;
    hidden?: boolean;
    /** The token image when it is not the source text (a query's `~=` has the image `=~`). */
    image?: string;
}

export interface LexFinding {
    readonly code: ParseIssueCode;
    readonly args: readonly string[];
    readonly offset: number;
    readonly length: number;
    readonly severity: 'error' | 'warning';
}

/** Everything one tokenize() call collects, shared by the main scanner and heredoc sub-scanners. */
export interface LexSink {
    readonly findings: LexFinding[];
    readonly hidden: RawToken[];
}

export const KEYWORDS: ReadonlySet<string> = new Set([
    'case', 'class', 'default', 'define', 'if', 'elsif', 'else', 'inherits', 'node', 'and', 'or',
    'undef', 'false', 'true', 'in', 'unless', 'function', 'type', 'attr', 'private'
]);

/** Token types after which `/` is division, not a regex (lexer2's regexp_acceptable?). */
const NO_REGEX_AFTER: ReadonlySet<string> = new Set([
    ')', ']', '|>>', '|>', 'NAME', 'CLASSREF', 'NUMBER', 'STRING', 'true', 'false', 'DQPRE', 'DQMID',
    'DQPOST', 'HEREDOC', 'REGEX', 'VARIABLE', 'WORD'
]);

/**
 * Token types that end an operand: a `(` right after one (not at line start) opens an argument
 * list. This is our CALL_LPAREN, which Puppet's LR grammar does not need but LL prediction does.
 */
const OPERAND_END: ReadonlySet<string> = new Set([
    'VARIABLE', 'NAME', 'WORD', 'CLASSREF', 'NUMBER', 'STRING', 'DQPOST', 'REGEX', 'true', 'false',
    'undef', 'default', ')', ']', '}', 'type', 'HEREDOC'
]);

const RE_WS = /[ \t\r]+/y;
const RE_COMMENT = /#[^\n]*/y;
const RE_MLCOMMENT = /\/\*[\s\S]*?\*\//y;
const RE_REGEX = /\/[^/]*\//y;
const RE_CLASSREF = /(?:(?:::)?[A-Z]\w*)+/y;
const RE_NAME = /^(?:(?:::)?[a-z]\w*)(?:::[a-z]\w*)*$/;
const RE_BARE_WORD = /(?:(?:::)?[a-z_](?:[\w-]*\w)?)+/y;
const RE_DOLLAR_VAR = /\$(?:::)?(?:\w+::)*\w+/y;
const RE_VARIABLE = /(?:::)?(?:\w+::)*\w+/y;
const RE_NUMBER = /\b(?:0[xX][0-9A-Fa-f]+|0?\d+(?:\.\d+)?(?:[eE]-?\d+)?)\b/y;
const RE_NON_WS = /\w+/y;
const RE_HEREDOC = /@\(([^:/\r\n)]+)(?::[ \t]*([a-z][a-zA-Z0-9_+]+)[ \t]*)?(?:\/((?:\w|[$])*)[ \t]*)?\)/;

/** How a heredoc body (lexed by a sub-scanner) treats `$` and escapes. */
interface UqMode {
    readonly escapes: EscapeSet;
    readonly kind: 'all' | 'interpolate' | 'interpolate-unescaped';
}

function regexEscape(s: string): string {
    return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * A port of Puppet's Lexer2 state machine. One instance lexes one text: the file, or a heredoc
 * body (then `mapOffset` translates body offsets to file offsets, since margins were removed).
 */
export class Scanner {
    private pos = 0;
    private after: string | undefined;
    private braceCount = 0;
    private lineStart = 0;
    private newlineJump: number | undefined;
    private readonly queue: RawToken[] = [];
    /** EPP state: undefined for manifests; `text` between tags, `epp` in `<% %>`, `expr` in `<%= %>`. */
    private eppMode: 'text' | 'epp' | 'expr' | undefined;
    private eppOpenPosition: number | undefined;

    constructor(
        private readonly text: string,
        private readonly sink: LexSink,
        private readonly mapOffset: (local: number) => number = (o: number): number => o
    ) { }

    /** Lexes the whole text into `out` (Puppet's `scan` loop). */
    scanAll(out: RawToken[]): void {
        this.skipWs();
        const text = this.text;
        let guard = 0;
        while (this.queue.length > 0 || this.pos < text.length) {
            const before = this.pos;
            const token = this.queue.shift() ?? this.lexToken();
            if (token) {
                this.after = token.type;
                out.push(token);
            } else if (this.pos === before && this.queue.length === 0) {
                // A selector that consumed nothing would loop forever; never let that happen.
                if (++guard > 2) {
                    this.pos++;
                    guard = 0;
                }
            }
        }
    }

    /** Lexes the text as an EPP template: EPP_START, then text mode. */
    scanEpp(out: RawToken[]): void {
        this.eppMode = 'text';
        out.push({ type: 'EPP_START', start: 0, end: 0 });
        this.after = 'EPP_START';
        this.interpolateEpp(false);
        this.scanAll(out);
        if (this.eppOpenPosition !== undefined) {
            this.error('PARSE_EPP_UNBALANCED_TAG', this.text.length, 1);
        }
    }

    /** Scans template text up to the next tag (EppSupport's EppScanner) and queues its tokens. */
    private interpolateEpp(skipLeadingIn: boolean): void {
        const text = this.text;
        const before = this.pos;
        if (this.pos >= text.length) {
            this.eppOpenPosition = undefined;
            return;
        }
        let skipLeading = skipLeadingIn;
        let s = '';
        let mode: 'text' | 'epp' | 'expr' = 'text';
        let tagAt = this.pos;
        while (this.pos < text.length) {
            const idx = text.indexOf('<%', this.pos);
            let part = idx < 0 ? text.slice(this.pos) : text.slice(this.pos, idx + 2);
            this.pos = idx < 0 ? text.length : idx + 2;
            tagAt = idx;
            if (skipLeading) {
                part = part.replace(/^[ \t]*\r?(?:\n|$)?/, '');
                skipLeading = false;
            }
            s += part.replace(/%%>/g, '%>');
            const peek = text[this.pos];
            if (peek === undefined) {
                if (idx >= 0) {
                    this.error('PARSE_EPP_UNBALANCED_TAG', idx, 2);
                }
                break;
            }
            if (idx < 0) {
                break;
            }
            if (peek === '-') {
                this.pos++;
                s = s.replace(/[ \t]*<%$/, '');
                mode = 'epp';
                break;
            }
            if (peek === '%') {
                this.pos++;
                continue;
            }
            if (peek === '=') {
                this.pos++;
                s = s.slice(0, -2);
                mode = 'expr';
                break;
            }
            if (peek === '#') {
                s = s.slice(0, -2);
                const re = /[^%]%>/g;
                re.lastIndex = this.pos;
                const m = re.exec(text);
                if (!m) {
                    this.error('PARSE_EPP_UNBALANCED_COMMENT', idx + 2, 1);
                    this.pos = text.length;
                    break;
                }
                const comment = text.slice(this.pos, m.index + m[0].length);
                this.pos = m.index + m[0].length;
                if (comment[1] === '-') {
                    s = s.replace(/[ \t]*$/, '');
                }
                if (comment.endsWith('-%>')) {
                    skipLeading = true;
                }
                continue;
            }
            s = s.slice(0, -2);
            mode = 'epp';
            break;
        }
        if (mode === 'text') {
            this.queue.push(this.tok('RENDER_STRING', before, this.pos, s));
            this.eppOpenPosition = undefined;
            return;
        }
        if (s.length > 0) {
            this.queue.push(this.tok('RENDER_STRING', before, Math.max(before, tagAt), s));
        }
        if (mode === 'expr') {
            this.queue.push(this.tok('RENDER_EXPR', tagAt, this.pos));
        }
        this.eppMode = mode;
        this.eppOpenPosition = this.pos;
    }

    // ---- positions and emission -------------------------------------------------------------

    private tok(type: string, start: number, end: number, value?: string): RawToken {
        const s = this.mapOffset(start);
        const e = end > start ? this.mapOffset(end - 1) + 1 : s;
        return value === undefined ? { type, start: s, end: e } : { type, start: s, end: e, value };
    }

    private emit(type: string, start: number, length: number): RawToken {
        this.pos = start + length;
        return this.tok(type, start, start + length);
    }

    private error(code: ParseIssueCode, offset: number, length: number, ...args: string[]): void {
        this.sink.findings.push({ code, args, offset: this.mapOffset(offset), length, severity: 'error' });
    }

    private warning(code: ParseIssueCode, offset: number, ...args: string[]): void {
        this.sink.findings.push({ code, args, offset: this.mapOffset(offset), length: 1, severity: 'warning' });
    }

    private match(re: RegExp, at: number): string | undefined {
        re.lastIndex = at;
        const m = re.exec(this.text);
        return m ? m[0] : undefined;
    }

    private skipWs(): void {
        const m = this.match(RE_WS, this.pos);
        if (m) {
            this.pos += m.length;
        }
    }

    private followedBy(): string {
        if (this.pos >= this.text.length) {
            return '<eof>';
        }
        return (this.text.slice(this.pos, this.pos + 5) + '...').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
    }

    // ---- the selector -------------------------------------------------------------------

    private lexToken(): RawToken | undefined {
        const text = this.text;
        const pos = this.pos;
        const c = text[pos];
        const la1 = text[pos + 1];
        switch (c) {
            case '.': return this.emit('.', pos, 1);
            case ',': return this.emit(',', pos, 1);
            case '[': {
                const prev = pos === 0 ? ' ' : text[pos - 1];
                return this.emit(prev === ' ' || prev === '\t' || prev === '\r' || prev === '\n' ? 'LISTSTART' : '[', pos, 1);
            }
            case ']': return this.emit(']', pos, 1);
            case '(': {
                if (/^[ \t\r]*$/.test(text.slice(this.lineStart, pos))) {
                    return this.emit('WSLPAREN', pos, 1);
                }
                return this.emit(this.after !== undefined && OPERAND_END.has(this.after) ? 'CALL_LPAREN' : '(', pos, 1);
            }
            case ')': return this.emit(')', pos, 1);
            case ';': return this.emit(';', pos, 1);
            // `??` (ARM-8's query, `Type[?? expr]`) never occurs in valid Puppet 7.
            case '?': return la1 === '?' ? this.emit('??', pos, 2) : this.emit('?', pos, 1);
            case '*': return this.emit('*', pos, 1);
            case '%':
                if (la1 === '>' && this.eppMode !== undefined) {
                    this.pos = pos + 2;
                    if (this.eppMode === 'expr') {
                        this.queue.push(this.tok('EPP_END', pos, pos + 2));
                    }
                    this.eppMode = 'text';
                    this.interpolateEpp(false);
                    return undefined;
                }
                return this.emit('%', pos, 1);
            case '{':
                this.braceCount++;
                return this.emit(this.after === '?' ? 'SELBRACE' : '{', pos, 1);
            case '}':
                this.braceCount--;
                return this.emit('}', pos, 1);
            case '@':
                if (la1 === '@') {
                    return this.emit('@@', pos, 2);
                }
                if (la1 === '(') {
                    this.heredoc();
                    return undefined;
                }
                return this.emit('@', pos, 1);
            case '|':
                if (la1 === '>') {
                    return text[pos + 2] === '>' ? this.emit('|>>', pos, 3) : this.emit('|>', pos, 2);
                }
                return this.emit('|', pos, 1);
            case '=':
                switch (la1) {
                    case '=': return this.emit('==', pos, 2);
                    case '>': return this.emit('=>', pos, 2);
                    case '~': return this.emit('=~', pos, 2);
                    default: return this.emit('=', pos, 1);
                }
            case '+':
                switch (la1) {
                    case '=': return this.emit('+=', pos, 2);
                    case '>': return this.emit('+>', pos, 2);
                    default: return this.emit('+', pos, 1);
                }
            case '-':
                if (this.eppMode !== undefined && la1 === '%' && text[pos + 2] === '>') {
                    this.pos = pos + 3;
                    if (this.eppMode === 'expr') {
                        this.queue.push(this.tok('EPP_END_TRIM', pos, pos + 3));
                    }
                    this.eppMode = 'text';
                    this.interpolateEpp(true);
                    return undefined;
                }
                switch (la1) {
                    case '>': return this.emit('->', pos, 2);
                    case '=': return this.emit('-=', pos, 2);
                    default: return this.emit('-', pos, 1);
                }
            case '!':
                switch (la1) {
                    case '=': return this.emit('!=', pos, 2);
                    case '~': return this.emit('!~', pos, 2);
                    default: return this.emit('!', pos, 1);
                }
            case '~':
                if (la1 === '>') {
                    return this.emit('~>', pos, 2);
                }
                this.error('PARSE_ILLEGAL_CHARACTER', pos, 1, '~');
                this.pos = pos + 1;
                return undefined;
            case '#': {
                const m = this.match(RE_COMMENT, pos) ?? '#';
                this.pos = pos + m.length;
                this.sink.hidden.push(this.tok('SL_COMMENT', pos, this.pos));
                return undefined;
            }
            case '/':
                return this.slash();
            case '<':
                switch (la1) {
                    case '<': return text[pos + 2] === '|' ? this.emit('<<|', pos, 3) : this.emit('<<', pos, 2);
                    case '=': return this.emit('<=', pos, 2);
                    case '|': return this.emit('<|', pos, 2);
                    case '-': return this.emit('<-', pos, 2);
                    case '~': return this.emit('<~', pos, 2);
                    default: return this.emit('<', pos, 1);
                }
            case '>':
                switch (la1) {
                    case '>': return this.emit('>>', pos, 2);
                    case '=': return this.emit('>=', pos, 2);
                    default: return this.emit('>', pos, 1);
                }
            case ':':
                return this.colon();
            case '$': {
                const m = this.match(RE_DOLLAR_VAR, pos);
                if (m) {
                    this.pos = pos + m.length;
                    return this.tok('VARIABLE', pos, this.pos, m.slice(1));
                }
                return this.emit('VARIABLE', pos, 1);
            }
            case '"':
                return this.interpolateDq();
            case '\'':
                return this.sqString();
            case '\n':
                if (this.newlineJump !== undefined) {
                    this.pos = this.newlineJump;
                    this.newlineJump = undefined;
                } else {
                    this.pos = pos + 1;
                }
                this.lineStart = this.pos;
                return undefined;
            case ' ': case '\t': case '\r':
                this.skipWs();
                return undefined;
            default:
                break;
        }
        if (c === undefined) {
            return undefined;
        }
        if (c >= '0' && c <= '9') {
            return this.number();
        }
        if ((c >= 'a' && c <= 'z') || c === '_') {
            return this.bareWord();
        }
        if (c >= 'A' && c <= 'Z') {
            const m = this.match(RE_CLASSREF, pos);
            if (m && text.slice(pos + m.length, pos + m.length + 2) !== '::') {
                this.pos = pos + m.length;
                return this.tok('CLASSREF', pos, this.pos);
            }
            // Puppet reports this one character past the name.
            this.pos = pos + (m ? m.length : 0) + 1;
            this.error('PARSE_ILLEGAL_CLASS_REFERENCE', this.pos, 1);
            return undefined;
        }
        const cp = text.codePointAt(pos) ?? 0;
        const width = cp > 0xffff ? 2 : 1;
        if (c === '\ufeff' && pos === 0) {
            this.error('PARSE_ILLEGAL_BOM', pos, 1);
        } else if (/\s/u.test(c)) {
            this.pos = pos + width;
            return undefined;
        } else {
            // Puppet names no token here: `Syntax error at ''` at the character's position
            this.error('PARSE_ILLEGAL_CHARACTER', pos, width, '');
        }
        this.pos = pos + width;
        return undefined;
    }

    private slash(): RawToken | undefined {
        const text = this.text;
        const before = this.pos;
        if (text[before + 1] === '*') {
            const m = this.match(RE_MLCOMMENT, before);
            if (!m) {
                this.error('PARSE_UNCLOSED_MLCOMMENT', before, 2);
                this.pos = text.length;
                return undefined;
            }
            this.pos = before + m.length;
            this.sink.hidden.push(this.tok('ML_COMMENT', before, this.pos));
            return undefined;
        }
        if (this.after === undefined || !NO_REGEX_AFTER.has(this.after)) {
            let value = this.match(RE_REGEX, before);
            if (value !== undefined) {
                let end = before + value.length;
                while (this.escapedEnd(value)) {
                    const next = text.indexOf('/', end);
                    if (next < 0) {
                        return this.emit('/', before, 1);
                    }
                    value += text.slice(end, next + 1);
                    end = next + 1;
                }
                this.pos = end;
                return this.tok('REGEX', before, end, value.slice(1, -1).replace(/\\\//g, '/'));
            }
        }
        return this.emit('/', before, 1);
    }

    private escapedEnd(value: string): boolean {
        if (!value.endsWith('\\/')) {
            return false;
        }
        let escaped = false;
        for (let i = 1; i < value.length - 1; i++) {
            escaped = value.charCodeAt(i) === 0x5c ? !escaped : false;
        }
        return escaped;
    }

    private colon(): RawToken | undefined {
        const text = this.text;
        const before = this.pos;
        if (text[before + 1] !== ':') {
            return this.emit(':', before, 1);
        }
        const la2 = text[before + 2] ?? '';
        if (la2 >= 'A' && la2 <= 'Z') {
            const m = this.match(RE_CLASSREF, before);
            if (m && text.slice(before + m.length, before + m.length + 2) !== '::') {
                this.pos = before + m.length;
                return this.tok('CLASSREF', before, this.pos);
            }
            // Puppet reports this where its scanner stopped: past the name and the next `::`.
            this.pos = before + (m ? m.length : 0) + 3;
            this.error('PARSE_ILLEGAL_FULLY_QUALIFIED_CLASS_REFERENCE', this.pos, 3);
            return undefined;
        }
        const m = this.match(RE_BARE_WORD, before);
        if (m) {
            this.pos = before + m.length;
            return this.tok(RE_NAME.test(m) ? 'NAME' : 'WORD', before, this.pos);
        }
        this.pos = before + 2;
        this.error('PARSE_ILLEGAL_FULLY_QUALIFIED_NAME', before, 2);
        return undefined;
    }

    private bareWord(): RawToken | undefined {
        const before = this.pos;
        const m = this.match(RE_BARE_WORD, before);
        if (m && RE_NAME.test(m)) {
            this.pos = before + m.length;
            return this.tok(KEYWORDS.has(m) ? m : 'NAME', before, this.pos);
        }
        if (m) {
            this.pos = before + m.length;
            return this.tok('WORD', before, this.pos);
        }
        this.pos = before + 1;
        this.error(this.text.startsWith('::', this.pos) ? 'PARSE_ILLEGAL_FULLY_QUALIFIED_NAME' : 'PARSE_ILLEGAL_NAME_OR_BARE_WORD', before, 1);
        return undefined;
    }

    private number(): RawToken | undefined {
        const before = this.pos;
        const m = this.match(RE_NUMBER, before);
        if (m) {
            this.pos = before + m.length;
            if (!this.assertNumeric(m, before)) {
                return undefined;
            }
            return this.tok('NUMBER', before, this.pos);
        }
        const bad = this.match(RE_NON_WS, before) ?? this.text[before] ?? '';
        this.pos = before + Math.max(1, bad.length);
        if (this.assertNumeric(bad, before)) {
            this.error('PARSE_ILLEGAL_NUMBER', before, bad.length, bad);
        }
        return undefined;
    }

    private assertNumeric(value: string, at: number): boolean {
        let code: ParseIssueCode | undefined;
        if (/^0[xX]/.test(value)) {
            code = /^0[xX][0-9A-Fa-f]+$/.test(value) ? undefined : 'PARSE_INVALID_HEX_NUMBER';
        } else if (/^0[^.]/.test(value)) {
            code = /^0[0-7]+$/.test(value) ? undefined : 'PARSE_INVALID_OCTAL_NUMBER';
        } else if (/^\d+[eE.]/.test(value)) {
            code = /^\d+(?:\.\d+)?(?:[eE]-?\d+)?$/.test(value) ? undefined : 'PARSE_INVALID_DECIMAL_NUMBER';
        } else {
            code = /^\d+$/.test(value) ? undefined : 'PARSE_ILLEGAL_NUMBER';
        }
        if (code) {
            this.error(code, at, value.length, value);
            return false;
        }
        return true;
    }

    // ---- strings --------------------------------------------------------------------------

    private sqString(): RawToken | undefined {
        const text = this.text;
        const before = this.pos;
        let i = before + 1;
        for (;;) {
            const q = text.indexOf('\'', i);
            if (q < 0) {
                this.error('PARSE_UNCLOSED_QUOTE', before + 1, 1, '"\'"', this.followedByAt(before + 1));
                this.pos = text.length;
                return undefined;
            }
            if (!isEscaped(text, q, before + 1)) {
                this.pos = q + 1;
                const value = resolveEscapes(text.slice(before + 1, q), SQ_ESCAPES, false, []);
                return this.tok('STRING', before, this.pos, value);
            }
            i = q + 1;
        }
    }

    private followedByAt(at: number): string {
        const saved = this.pos;
        this.pos = at;
        const s = this.followedBy();
        this.pos = saved;
        return s;
    }

    /**
     * Slurps a double-quoted chunk up to the first unescaped `"`, `$` or `${`. Returns the
     * processed text without the terminator, or undefined at end of input.
     */
    private slurpDq(): { text: string; terminator: string } | undefined {
        const text = this.text;
        const start = this.pos;
        for (let i = start; i < text.length; i++) {
            const ch = text.charCodeAt(i);
            if ((ch === 0x22 || ch === 0x24) && !isEscaped(text, i, start)) {
                const terminator = ch === 0x22 ? '"' : text[i + 1] === '{' ? '${' : '$';
                this.pos = i + terminator.length;
                return { text: this.escapes(text.slice(start, i), DQ_ESCAPES, true, start), terminator };
            }
        }
        return undefined;
    }

    private escapes(raw: string, set: EscapeSet, warn: boolean, at: number): string {
        const warnings: EscapeWarning[] = [];
        const value = resolveEscapes(raw, set, warn, warnings);
        for (const w of warnings) {
            this.warning(w.code, at + w.index, w.ch);
        }
        return value;
    }

    private interpolateDq(): RawToken | undefined {
        const before = this.pos;
        this.pos++;
        let chunk = this.slurpDq();
        if (!chunk) {
            this.unclosedDq(before);
            return undefined;
        }
        let text = chunk.text;
        let after = this.pos;
        for (;;) {
            if (chunk.terminator === '"') {
                return this.tok('STRING', before, this.pos, text);
            }
            if (chunk.terminator === '${') {
                const count = this.braceCount++;
                this.queue.push(this.tok('DQPRE', before, this.pos, text));
                this.enqueueUntil(count);
                break;
            }
            const varname = this.match(RE_VARIABLE, this.pos);
            if (varname) {
                this.queue.push(this.tok('DQPRE', before, after - 1, text));
                this.queue.push(this.tok('VARIABLE', after - 1, this.pos + varname.length, varname));
                this.pos += varname.length;
                break;
            }
            text += chunk.terminator;
            chunk = this.slurpDq();
            if (!chunk) {
                this.unclosedDq(before);
                return this.queue.shift();
            }
            text += chunk.text;
            after = this.pos;
        }
        this.interpolateTailDq();
        return this.queue.shift();
    }

    private unclosedDq(before: number): void {
        this.error('PARSE_UNCLOSED_QUOTE', before + 1, 1, '\'"\'', this.followedByAt(before + 1));
        this.pos = this.text.length;
    }

    private interpolateTailDq(): void {
        for (let depth = 0; depth < 100_000; depth++) {
            const before = this.pos;
            let chunk = this.slurpDq();
            if (!chunk) {
                this.unclosedDq(before);
                return;
            }
            let text = chunk.text;
            let after = this.pos;
            let done = false;
            for (;;) {
                if (chunk.terminator === '"') {
                    this.queue.push(this.tok('DQPOST', before, this.pos, text));
                    return;
                }
                if (chunk.terminator === '${') {
                    const count = this.braceCount++;
                    this.queue.push(this.tok('DQMID', before, this.pos, text));
                    this.enqueueUntil(count);
                    done = true;
                    break;
                }
                const varname = this.match(RE_VARIABLE, this.pos);
                if (varname) {
                    this.queue.push(this.tok('DQMID', before, after - 1, text));
                    this.queue.push(this.tok('VARIABLE', after - 1, this.pos + varname.length, varname));
                    this.pos += varname.length;
                    done = true;
                    break;
                }
                text += chunk.terminator;
                chunk = this.slurpDq();
                if (!chunk) {
                    this.unclosedDq(before);
                    return;
                }
                text += chunk.text;
                after = this.pos;
            }
            if (!done) {
                return;
            }
        }
    }

    /**
     * Lexes the tokens of a `${...}` expression onto the queue, up to the `}` that balances the
     * opening brace (which is dropped, as Puppet folds it into the next string segment).
     */
    private enqueueUntil(braceCount: number): void {
        const queue = this.queue;
        const queueBase = queue[0];
        this.skipWs();
        const queueSize = queue.length;
        while (this.pos < this.text.length) {
            const before = this.pos;
            const token = this.lexToken();
            if (token) {
                if (token === queueBase) {
                    // A nested interpolated string queued its tokens behind ours and handed back
                    // the head of the queue; put it back, the nested tokens are already queued.
                    queue.unshift(token);
                    continue;
                }
                this.after = token.type;
                if (token.type === '}' && this.braceCount === braceCount) {
                    const qlength = queue.length - queueSize;
                    if (qlength === 1) {
                        this.toVariable(queue[queue.length - 1]);
                    } else if (qlength > 1) {
                        const second = queue[queueSize + 1]?.type;
                        if (second === '.' || second === '[') {
                            this.toVariable(queue[queueSize]);
                        }
                    }
                    return;
                }
                queue.push(token);
            } else {
                if (this.pos === before) {
                    this.pos++;
                }
                this.skipWs();
            }
        }
        this.error('PARSE_UNCLOSED_QUOTE', this.text.length, 1, '\'"\'', '<eof>');
    }

    /** `${name}`, `${name[...]}`, `${name.m}` and `${3}` mean variables. */
    private toVariable(token: RawToken | undefined): void {
        if (token && (token.type === 'NUMBER' || token.type === 'NAME' || token.type === 'WORD' || KEYWORDS.has(token.type))) {
            token.value = this.sourceText(token);
            token.type = 'VARIABLE';
        }
    }

    private sourceText(token: RawToken): string {
        // Tokens are in file offsets; recover the text through the local inverse only for the
        // main scanner. Heredoc scanners keep a copy of what they lexed for this purpose.
        return this.sourceOf(token);
    }

    /** Overridden by heredoc bodies, whose tokens' file text may contain a stripped margin. */
    protected sourceOf(token: RawToken): string {
        return this.fileText.slice(token.start, token.end);
    }

    /** The whole file (for the main scanner the same as `text`). */
    protected get fileText(): string {
        return this.text;
    }

    // ---- heredoc ----------------------------------------------------------------------------

    private heredoc(): void {
        const text = this.text;
        const before = this.pos;
        const close = text.indexOf(')', before);
        if (close < 0) {
            this.error('PARSE_HEREDOC_UNCLOSED_PARENTHESIS', before, 2, this.followedByAt(before));
            this.pos = text.length;
            return;
        }
        const posAfterHeredoc = close + 1;
        const spec = text.slice(before, posAfterHeredoc);
        const md = RE_HEREDOC.exec(spec);
        if (!md) {
            this.error('PARSE_HEREDOC_INVALID_SYNTAX', posAfterHeredoc, 1);
            this.pos = posAfterHeredoc;
            return;
        }
        let endtag = (md[1] ?? '').trim();
        const syntax = md[2] ?? '';
        const escapeSpec = md[3];
        let dqStyle = false;
        const quoted = /^"(.*)"$/.exec(endtag);
        if (quoted) {
            dqStyle = true;
            endtag = (quoted[1] ?? '').trim();
        }
        if (endtag.length < 1) {
            this.error('PARSE_HEREDOC_EMPTY_ENDTAG', posAfterHeredoc, 1);
            this.pos = posAfterHeredoc;
            return;
        }
        const escapes = new Set<string>();
        if (escapeSpec !== undefined) {
            const flags = (escapeSpec.length < 1 ? 'trnsuL$' : escapeSpec).split('');
            if (new Set(flags).size !== flags.length) {
                this.error('PARSE_HEREDOC_MULTIPLE_AT_ESCAPES', posAfterHeredoc, 1, flags.join(''));
            }
            escapes.add('\\');
            for (const e of flags) {
                switch (e) {
                    case 't': case 'r': case 'n': case 's': case 'u': case '$':
                        escapes.add(e);
                        break;
                    case 'L':
                        escapes.add('\n');
                        escapes.add('\r\n');
                        break;
                    default:
                        this.error('PARSE_HEREDOC_INVALID_ESCAPE', posAfterHeredoc, 1, e);
                }
            }
        }
        this.queue.push(this.tok('HEREDOC', before, posAfterHeredoc, syntax));

        let bodyStart: number;
        if (this.newlineJump !== undefined) {
            bodyStart = this.newlineJump;
        } else {
            const nl = text.indexOf('\n', posAfterHeredoc);
            if (nl < 0) {
                this.error('PARSE_HEREDOC_WITHOUT_TEXT', posAfterHeredoc, 1);
                this.pos = text.length;
                return;
            }
            bodyStart = nl + 1;
        }
        const endLine = new RegExp(`([ \\t]*)(?:([|])[ \\t]*)?(?:(-)[ \\t]*)?${regexEscape(endtag)}[ \\t]*\\r?(?:\\n|$)`);
        const lines: string[] = [];
        let p = bodyStart;
        while (p < text.length) {
            const nl = text.indexOf('\n', p);
            const lineEnd = nl < 0 ? text.length : nl + 1;
            const line = text.slice(p, lineEnd);
            const m = endLine.exec(line);
            if (m) {
                this.newlineJump = lineEnd;
                const leading = m[1] ?? '';
                const hasMargin = m[2] === '|';
                const removeBreak = m[3] === '-';
                this.lexHeredocBody(lines, bodyStart, leading, hasMargin, removeBreak, {
                    escapes,
                    kind: dqStyle ? (escapes.has('$') ? 'interpolate' : 'interpolate-unescaped') : 'all'
                });
                this.pos = posAfterHeredoc;
                return;
            }
            lines.push(line);
            p = lineEnd;
        }
        this.error('PARSE_HEREDOC_WITHOUT_END_TAGGED_LINE', bodyStart, 1);
        this.pos = posAfterHeredoc;
        this.newlineJump = text.length;
    }

    private lexHeredocBody(lines: readonly string[], bodyStart: number, leading: string, hasMargin: boolean,
        removeBreak: boolean, mode: UqMode): void {
        const margins: number[] = [];
        let processed: string[] = [...lines];
        if (hasMargin && leading.length > 0) {
            processed = lines.map(l => (l.startsWith(leading) ? l.slice(leading.length) : l));
        }
        for (let i = 0; i < lines.length; i++) {
            margins.push((lines[i]?.length ?? 0) - (processed[i]?.length ?? 0));
        }
        let body = processed.join('');
        if (removeBreak) {
            body = body.replace(/\r?\n$/, '');
        }
        // Map body offsets back to file offsets through the removed margins.
        const localStarts: number[] = [];
        const fileStarts: number[] = [];
        let local = 0;
        let file = bodyStart;
        for (let i = 0; i < lines.length; i++) {
            localStarts.push(local);
            fileStarts.push(file + (margins[i] ?? 0));
            local += processed[i]?.length ?? 0;
            file += lines[i]?.length ?? 0;
        }
        const outer = this.mapOffset;
        const mapLocal = (o: number): number => {
            let lo = 0;
            let hi = localStarts.length - 1;
            while (lo < hi) {
                const mid = (lo + hi + 1) >> 1;
                if ((localStarts[mid] ?? 0) <= o) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            const base = localStarts.length > 0 ? (fileStarts[lo] ?? bodyStart) - (localStarts[lo] ?? 0) : bodyStart;
            return outer(base + o);
        };
        const sub = new HeredocScanner(body, this.sink, mapLocal, this.fileText);
        sub.interpolateUq(mode, this.queue);
    }

    // ---- unquoted (heredoc body) interpolation -----------------------------------------------

    private slurpUq(mode: UqMode): { text: string; terminator: string } {
        const text = this.text;
        const start = this.pos;
        if (mode.kind !== 'all') {
            for (let i = start; i < text.length; i++) {
                if (text.charCodeAt(i) === 0x24 && (mode.kind === 'interpolate-unescaped' || !isEscaped(text, i, start))) {
                    const terminator = text[i + 1] === '{' ? '${' : '$';
                    this.pos = i + terminator.length;
                    return { text: this.escapes(text.slice(start, i), mode.escapes, false, start), terminator };
                }
            }
        }
        this.pos = text.length;
        return { text: this.escapes(text.slice(start), mode.escapes, false, start), terminator: '' };
    }

    /** Lexes this (heredoc body) text as one string, appending the tokens to `target`. */
    protected interpolateUq(mode: UqMode, target: RawToken[]): void {
        let first = true;
        for (let round = 0; round < 100_000; round++) {
            const before = this.pos;
            let chunk = this.slurpUq(mode);
            let text = chunk.text;
            let after = this.pos;
            const kind = first ? 'DQPRE' : 'DQMID';
            let more = false;
            for (;;) {
                if (chunk.terminator === '') {
                    this.queue.push(this.tok(first ? 'STRING' : 'DQPOST', before, this.pos, text));
                    break;
                }
                if (chunk.terminator === '${') {
                    const count = this.braceCount++;
                    this.queue.push(this.tok(kind, before, this.pos, text));
                    this.enqueueUntil(count);
                    more = true;
                    break;
                }
                const varname = this.match(RE_VARIABLE, this.pos);
                if (varname) {
                    this.queue.push(this.tok(kind, before, after - 1, text));
                    this.queue.push(this.tok('VARIABLE', after - 1, this.pos + varname.length, varname));
                    this.pos += varname.length;
                    more = true;
                    break;
                }
                text += chunk.terminator;
                chunk = this.slurpUq(mode);
                text += chunk.text;
                after = this.pos;
            }
            first = false;
            if (!more) {
                break;
            }
        }
        target.push(...this.queue.splice(0));
    }
}

/** A scanner over a heredoc body; its `fileText` is the whole file for token source text. */
class HeredocScanner extends Scanner {
    constructor(body: string, sink: LexSink, map: (o: number) => number, private readonly file: string) {
        super(body, sink, map);
    }

    protected override get fileText(): string {
        return this.file;
    }

    override interpolateUq(mode: UqMode, target: RawToken[]): void {
        super.interpolateUq(mode, target);
    }
}
