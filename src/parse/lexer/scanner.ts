import type { ParseIssueCode } from '../issues.js';
import { KEYWORDS, type LexSink, type RawToken } from './scanner-base.js';
import { StringScanner } from './string-scanner.js';

export { KEYWORDS, type LexFinding, type LexSink, type RawToken } from './scanner-base.js';

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

const RE_COMMENT = /#[^\n]*/y;
const RE_MLCOMMENT = /\/\*[\s\S]*?\*\//y;
const RE_REGEX = /\/[^/]*\//y;
const RE_CLASSREF = /(?:(?:::)?[A-Z]\w*)+/y;
const RE_NAME = /^(?:(?:::)?[a-z]\w*)(?:::[a-z]\w*)*$/;
const RE_BARE_WORD = /(?:(?:::)?[a-z_](?:[\w-]*\w)?)+/y;
const RE_DOLLAR_VAR = /\$(?:::)?(?:\w+::)*\w+/y;
const RE_NUMBER = /\b(?:0[xX][0-9A-Fa-f]+|0?\d+(?:\.\d+)?(?:[eE]-?\d+)?)\b/y;
const RE_NON_WS = /\w+/y;

/**
 * A port of Puppet's Lexer2 state machine. One instance lexes one text: the file, or a heredoc
 * body (then `mapOffset` translates body offsets to file offsets, since margins were removed).
 * This class holds the token selector (punctuation, names, numbers, regexes, EPP tags); strings,
 * heredocs and interpolation are StringScanner's.
 */
export class Scanner extends StringScanner {
    private lineStart = 0;
    /** EPP state: undefined for manifests; `text` between tags, `epp` in `<% %>`, `expr` in `<%= %>`. */
    private eppMode: 'text' | 'epp' | 'expr' | undefined;
    private eppOpenPosition: number | undefined;

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

    // ---- the selector -------------------------------------------------------------------

    protected lexToken(): RawToken | undefined {
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
                // A lone `$` is a variable with an empty name (which the validator then refuses), as in Puppet.
                this.pos = pos + 1;
                return this.tok('VARIABLE', pos, this.pos, '');
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
        // Puppet reports this where its scanner stopped: past the `::`.
        this.pos = before + 2;
        this.error('PARSE_ILLEGAL_FULLY_QUALIFIED_NAME', this.pos, 2);
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
        let bad = this.match(RE_NON_WS, before) ?? this.text[before] ?? '';
        let start = before;
        // Digits after a dot (`7.0e+2` lexes as 7 then `.0e`): the whole decimal is what is bad.
        if (before > 1 && this.text[before - 1] === '.' && /\d/.test(this.text[before - 2])) {
            const after = before + bad.length;
            for (let p = before - 2; p >= 0 && /\d/.test(this.text[p]); p--) start = p;
            bad = this.text.slice(start, after);
        }
        this.pos = start + Math.max(1, bad.length);
        if (this.assertNumeric(bad, start)) {
            this.error('PARSE_ILLEGAL_NUMBER', start, bad.length, bad);
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

    protected bodyScanner(body: string, map: (o: number) => number): StringScanner {
        return new HeredocScanner(body, this.sink, map, this.fileText);
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

    /** Puppet's lexer fails on a heredoc started in an interpolation of a heredoc's text (its sub-locator has no line for it): lexing ends. */
    protected override heredoc(): void {
        this.error('PARSE_HEREDOC_IN_HEREDOC', this.pos, 2);
        this.pos = this.text.length;
    }
}
