import { rubyError } from './objects.js';

export type TokKind =
    | 'int' | 'float' | 'str' | 'sym' | 'regex' | 'words' | 'ivar' | 'gvar' | 'nthref' | 'ident' | 'const' | 'label'
    | 'kw' | 'op' | 'nl' | 'eof'
    /** A backtick command (plugin code only): refused when it runs. */
    | 'xstr'
    /** Template pieces the ERB scanner puts between code tokens. */
    | 'erbtext' | 'erbins' | 'erbend';

/** A double-quoted literal's parts: text, or the code of a `#{...}` with the line it starts on. */
export type RawPart = string | { code: string; line: number };

export interface Token {
    readonly kind: TokKind;
    readonly text: string;
    readonly line: number;
    /** Whitespace right before the token: `foo -1` passes -1, `foo - 1` subtracts. */
    readonly spaceBefore: boolean;
    readonly parts?: RawPart[];
    /** `%w[]` words, `%i[]` symbols. */
    readonly words?: string[];
    readonly symbols?: boolean;
    readonly flags?: string;
    /** The column the token starts at (1-based), for located errors in plugin files. */
    readonly col?: number;
}

const KEYWORDS = new Set([
    'alias', 'and', 'begin', 'break', 'case', 'class', 'def', 'defined?', 'do', 'else', 'elsif', 'end', 'ensure', 'false', 'for', 'if', 'in',
    'module', 'next', 'nil', 'not', 'or', 'redo', 'rescue', 'retry', 'return', 'self', 'super', 'then', 'true', 'undef', 'unless', 'until',
    'when', 'while', 'yield', '__FILE__', '__LINE__', '__method__'
]);

const OPERATORS = [
    '**=', '<=>', '===', '...', '<<=', '>>=', '&&=', '||=',
    '**', '==', '!=', '>=', '<=', '&&', '||', '<<', '>>', '=~', '!~', '..', '::', '->', '=>', '+=', '-=', '*=', '/=', '%=', '|=', '&=', '^=', '&.',
    '+', '-', '*', '/', '%', '=', '<', '>', '!', '&', '|', '^', '~', '?', ':', ',', '.', ';', '(', ')', '[', ']', '{', '}'
];

/** Tokens after which an operator-looking character starts a new operand (`/` a regexp, `%` a literal). */
const VALUE_END = new Set<TokKind>(['int', 'float', 'str', 'sym', 'regex', 'words', 'ivar', 'gvar', 'nthref', 'ident', 'const']);
const VALUE_END_KW = new Set(['end', 'self', 'nil', 'true', 'false', '__FILE__', '__LINE__']);

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/**
 * Where a %-literal starting at `at` inside interpolated code ends (past its closing delimiter),
 * or `at` when the `%` is an operator there: a literal follows the start of the code, an opening
 * bracket, a comma or an operator (`gsub(%r{"}, ...)`, whose quote must not end the string).
 */
function percentLiteralEnd(src: string, at: number, codeStart: number): number {
    const m = /^%([qQwWiIrs]?)([^\w\s])/.exec(src.slice(at, at + 3));
    if (!m) return at;
    let p = at - 1;
    while (p >= codeStart && (src[p] === ' ' || src[p] === '\t')) p--;
    if (p >= codeStart && !'(,=[{|&!?:+-*<>;'.includes(src[p])) return at;
    const open = m[2];
    const close = CLOSERS[open] ?? open;
    let depth = 0;
    for (let k = at + m[0].length; k < src.length; k++) {
        const c = src[k];
        if (c === '\\') { k++; continue; }
        if (c === close && close !== open) { if (depth === 0) return k + 1; depth--; continue; }
        if (c === close) return k + 1;
        if (c === open) depth++;
    }
    return at;
}

/** Identifiers assigned so far: Ruby reads `x -1` as a subtraction only when x is a local variable. */
export interface LexState {
    readonly locals: Set<string>;
    /** Set when the code ended inside a `#` comment: in ERB's generated Ruby it runs on over what follows. */
    trailingComment?: boolean;
    /** Plugin code (not a template): class variables (`@@x`) are allowed. */
    readonly plugin?: boolean;
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', t: '\t', s: ' ', r: '\r', '0': '\0', e: '\x1b', a: '\x07', b: '\b', f: '\f', v: '\v' };

/** Splits one stretch of template code into tokens. */
export function lex(src: string, startLine: number, state: LexState): Token[] {
    const out: Token[] = [];
    state.trailingComment = false;
    let i = 0;
    let line = startLine;
    let space = false;
    const fail = (msg: string): never => {
        const e = rubyError('ScriptError', `syntax error, ${msg}`);
        e.line = line;
        throw e;
    };
    // The last newline before the scanned position, advanced with it: searching back from each
    // token made a long line quadratic (a 500 KB line of code took minutes).
    let scanned = 0;
    let lastNewline = -1;
    const column = (at: number): number => {
        if (at < scanned) return at - src.lastIndexOf('\n', at - 1);
        for (; scanned < at; scanned++) if (src.charCodeAt(scanned) === 0x0a) lastNewline = scanned;
        return at - lastNewline;
    };
    const push = (kind: TokKind, text: string, extra: Partial<Token> = {}): void => {
        out.push({ kind, text, line, spaceBefore: space, col: column(i), ...extra });
        space = false;
    };
    const prev = (): Token | undefined => out[out.length - 1];
    const heredocs: Array<{ token: { parts?: RawPart[] }; id: string; squiggly: boolean; indented: boolean; raw: boolean }> = [];
    /** Reads the bodies of the heredocs started on the line that just ended. */
    const readHeredocs = (): void => {
        for (const h of heredocs.splice(0)) {
            const lines: string[] = [];
            const bodyLine = line;
            while (i < src.length) {
                const end = src.indexOf('\n', i);
                const text = src.slice(i, end < 0 ? src.length : end);
                i = end < 0 ? src.length : end + 1;
                line++;
                if ((h.indented || h.squiggly ? text.trim() : text.replace(/\r$/, '')) === h.id) break;
                lines.push(`${text}\n`);
            }
            let body = lines;
            if (h.squiggly) {
                const indents = body.filter(l => l.trim() !== '').map(l => /^[ \t]*/.exec(l)![0].length);
                const cut = indents.length ? Math.min(...indents) : 0;
                body = body.map(l => l.slice(Math.min(cut, /^[ \t]*/.exec(l)![0].length)));
            }
            const text = body.join('');
            h.token.parts = h.raw ? [text] : lex(`"${text.replace(/(?<!\\)"/g, '\\"')}"`, bodyLine, state)[0]?.parts ?? [text];
        }
    };
    /** True where a value may start: not right after an operand, or after a method name and a space (`foo /x/`). */
    const operandExpected = (): boolean => {
        const p = prev();
        if (!p || p.kind === 'nl' || p.kind === 'erbins' || p.kind === 'erbtext') return true;
        if (p.kind === 'kw') return !VALUE_END_KW.has(p.text);
        if (p.kind === 'op') return ![')', ']', '}'].includes(p.text);
        // `x.name %r{..}`: a name after a dot is a method, even when a local of that name exists.
        const afterDot = (): boolean => { const d = out[out.length - 2]; return d !== undefined && d.kind === 'op' && (d.text === '.' || d.text === '&.'); };
        if (p.kind === 'ident' && space && (!state.locals.has(p.text) || afterDot())) return !/\s/.test(src[i + 1] ?? ' ');
        return !VALUE_END.has(p.kind);
    };

    const readEscaped = (close: string, open: string | null, interpolate: boolean, regexp: boolean): RawPart[] => {
        const parts: RawPart[] = [];
        let buf = '';
        let depth = 0;
        while (true) {
            if (i >= src.length) fail('unterminated string meets end of file');
            const c = src[i];
            if (c === '\n') line++;
            if (open && c === open) { depth++; buf += c; i++; continue; }
            if (c === close) {
                if (depth === 0) { i++; break; }
                depth--; buf += c; i++; continue;
            }
            if (c === '\\') {
                const n = src[i + 1] ?? '';
                if (regexp) {
                    // Regexp escapes stay for the regexp engine, except an escaped delimiter.
                    buf += n === close && close !== '/' ? n : `\\${n}`;
                    if (n === '\n') line++;
                    i += 2;
                    continue;
                }
                if (!interpolate) {
                    buf += n === close || n === '\\' || (open && n === open) ? n : `\\${n}`;
                    i += 2;
                    continue;
                }
                i += 2;
                if (n in SIMPLE_ESCAPES) buf += SIMPLE_ESCAPES[n];
                else if (n === 'u') {
                    if (src[i] === '{') {
                        const end = src.indexOf('}', i);
                        for (const h of src.slice(i + 1, end).trim().split(/\s+/)) buf += String.fromCodePoint(parseInt(h, 16));
                        i = end + 1;
                    } else { buf += String.fromCodePoint(parseInt(src.slice(i, i + 4), 16)); i += 4; }
                } else if (n === 'x') {
                    const m = /^[0-9a-fA-F]{1,2}/.exec(src.slice(i)) ?? fail('invalid hex escape');
                    buf += String.fromCharCode(parseInt(m[0], 16)); i += m[0].length;
                } else if (/[0-7]/.test(n)) {
                    const m = /^[0-7]{0,2}/.exec(src.slice(i))!;
                    buf += String.fromCharCode(parseInt(n + m[0], 8)); i += m[0].length;
                } else if (n === '\n') { line++; } else buf += n;
                continue;
            }
            if (interpolate && c === '#' && src[i + 1] === '{') {
                if (buf) parts.push(buf);
                buf = '';
                const startLine = line;
                const start = i + 2;
                let d = 0;
                let j = start;
                let quote: string | null = null;
                for (; j < src.length; j++) {
                    const ch = src[j];
                    if (ch === '\n') line++;
                    if (quote) { if (ch === '\\') j++; else if (ch === quote) quote = null; continue; }
                    if (ch === '%') {
                        const end = percentLiteralEnd(src, j, start);
                        if (end > j) { for (let k = j; k < end; k++) if (src[k] === '\n') line++; j = end - 1; continue; }
                    }
                    if (ch === '"' || ch === "'") quote = ch;
                    else if (ch === '{') d++;
                    else if (ch === '}') { if (d === 0) break; d--; }
                }
                if (j >= src.length) fail('unterminated string meets end of file');
                parts.push({ code: src.slice(start, j), line: startLine });
                i = j + 1;
                continue;
            }
            if (interpolate && c === '#' && (src[i + 1] === '@' || src[i + 1] === '$') && /[A-Za-z_@]/.test(src[i + 2] ?? '')) {
                const m = /^[@$]@?[A-Za-z_]\w*/.exec(src.slice(i + 1))!;
                if (buf) parts.push(buf);
                buf = '';
                parts.push({ code: m[0], line });
                i += 1 + m[0].length;
                continue;
            }
            buf += c;
            i++;
        }
        if (buf || parts.length === 0) parts.push(buf);
        return parts;
    };

    const percentLiteral = (): boolean => {
        const m = /^%([qQwWiIrs]?)([^\w\s])/.exec(src.slice(i));
        if (!m) return false;
        const [whole, kind, open] = m;
        const close = CLOSERS[open] ?? open;
        const nested = CLOSERS[open] ? open : null;
        i += whole.length;
        if (kind === 'w' || kind === 'W' || kind === 'i' || kind === 'I') {
            const body = readEscaped(close, nested, false, false).join('');
            const words = body.split(/\s+/).filter(w => w.length > 0).map(w => w.replace(/\\(\s)/g, '$1'));
            push('words', whole, { words, symbols: kind === 'i' || kind === 'I' });
        } else if (kind === 'r') {
            const parts = readEscaped(close, nested, true, true);
            const flags = /^[imxounse]*/.exec(src.slice(i))![0];
            i += flags.length;
            push('regex', whole, { parts, flags });
        } else if (kind === 's') {
            push('sym', whole, { parts: readEscaped(close, nested, false, false) });
        } else {
            push('str', whole, { parts: readEscaped(close, nested, kind !== 'q', false) });
        }
        return true;
    };

    while (i < src.length) {
        const c = src[i];
        if (c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\v') { i++; space = true; continue; }
        if (c === '\\' && src[i + 1] === '\n') { i += 2; line++; space = true; continue; }
        if (c === '\\' && src[i + 1] === '\r' && src[i + 2] === '\n') { i += 3; line++; space = true; continue; }
        if (c === '#') {
            while (i < src.length && src[i] !== '\n') i++;
            if (i >= src.length) state.trailingComment = true;
            continue;
        }
        if (c === '\n') {
            i++;
            // A line starting with `.method` continues the previous expression.
            const rest = /^[ \t\r]*(?:#[^\n]*\n[ \t\r]*)*/.exec(src.slice(i))![0];
            const after = src.slice(i + rest.length);
            if ((after.startsWith('.') && !after.startsWith('..')) || after.startsWith('&.')) { line += (rest.match(/\n/g) ?? []).length + 1; i += rest.length; space = true; continue; }
            push('nl', '\n');
            line++;
            if (heredocs.length) readHeredocs();
            continue;
        }
        if (src.startsWith('=begin', i) && (i === 0 || src[i - 1] === '\n')) {
            const end = src.indexOf('\n=end', i);
            const stop = end < 0 ? src.length : src.indexOf('\n', end + 5) < 0 ? src.length : src.indexOf('\n', end + 5);
            line += (src.slice(i, stop).match(/\n/g) ?? []).length;
            i = stop;
            continue;
        }
        if (src.startsWith('__END__', i)) break;
        const rest = src.slice(i, i + 256);
        let m: RegExpExecArray | null;
        if ((m = /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO]?[0-7_]+(?![.\deE])|\d[\d_]*(\.\d[\d_]*)?([eE][-+]?\d+)?)(r|i)?/.exec(rest))) {
            const t = m[0].replace(/_/g, '');
            if (m[3]) fail(`unsupported numeric suffix '${m[3]}'`);
            if (m[1] !== undefined || m[2] !== undefined) push('float', t);
            else push('int', t);
            i += m[0].length;
            continue;
        }
        if ((m = /^@@?[A-Za-z_]\w*/.exec(rest))) {
            if (m[0].startsWith('@@') && !state.plugin) fail('class variables are not supported in templates');
            push('ivar', m[0].slice(1)); i += m[0].length; continue;
        }
        if ((m = /^\$(?:([1-9]\d*)|[A-Za-z_]\w*|[~!&`'+0_/\\;,.<>*$?:"@])/.exec(rest))) {
            if (m[1]) push('nthref', m[1]); else push('gvar', m[0]);
            i += m[0].length;
            continue;
        }
        if ((m = /^[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*/.exec(rest))) {
            let word = m[0];
            const next = src[i + word.length];
            const next2 = src[i + word.length + 1];
            if ((next === '?' || next === '!') && next2 !== '=' && !(next === '?' && next2 === ':')) word += next;
            else if ((next === '?' || next === '!') && next2 === '=' && src[i + word.length + 2] === '=') word += next;
            const p = prev();
            const afterDot = p?.kind === 'op' && (p.text === '.' || p.text === '&.');
            if (src[i + word.length] === ':' && src[i + word.length + 1] !== ':' && !afterDot && !/[?!]$/.test(word)) {
                push('label', word); i += word.length + 1; continue;
            }
            if (word === 'defined' && next === '?') word = 'defined?';
            i += word.length;
            if (!afterDot && KEYWORDS.has(word)) push('kw', word);
            else if (/^[A-Z]/.test(word)) push('const', word);
            else {
                push('ident', word);
                // Assignment makes a local variable for the rest of the template.
                if (!afterDot && /^[ \t]*=(?![=~>])/.test(src.slice(i))) state.locals.add(word);
            }
            if (word === 'for') {
                const fv = /^\s*([a-z_]\w*)(?:\s*,\s*([a-z_]\w*))*/.exec(src.slice(i));
                if (fv) for (const v of fv[0].split(',')) state.locals.add(v.trim());
            }
            continue;
        }
        if (c === "'") { i++; push('str', "'", { parts: readEscaped("'", null, false, false) }); continue; }
        if (c === '"') { i++; push('str', '"', { parts: readEscaped('"', null, true, false) }); continue; }
        if (c === '`' && state.plugin && !prev()?.text.endsWith('.')) { i++; push('xstr', '`', { parts: readEscaped('`', null, true, false) }); continue; }
        if (c === '`') fail('command execution (backticks) is not supported in templates');
        if (c === ':' && src[i + 1] === '"') { i += 2; push('sym', ':"', { parts: readEscaped('"', null, true, false) }); continue; }
        if (c === ':' && src[i + 1] === "'" && state.plugin) { i += 2; push('sym', ":'", { parts: readEscaped("'", null, false, false) }); continue; }
        if (c === ':' && src[i + 1] !== ':' && (operandExpected() || space) && (m = /^:(?:@{0,2}[A-Za-z_][\w]*(?:[?!]|=(?![>=~]))?|\$\w+|\[\]=?|<=>|===?|=~|!=|![~]?|<<|>>|<=|>=|\*\*|[+\-*/%<>~^&|]|[+-]@)/.exec(rest))) {
            push('sym', m[0], { parts: [m[0].slice(1)] });
            i += m[0].length;
            continue;
        }
        if (c === '/' && operandExpected()) {
            i++;
            const parts = readEscaped('/', null, true, true);
            const flags = /^[imxounse]*/.exec(src.slice(i))![0];
            i += flags.length;
            push('regex', '/', { parts, flags });
            continue;
        }
        if (c === '%' && operandExpected() && percentLiteral()) continue;
        if (c === '<' && src[i + 1] === '<' && (m = /^<<([-~]?)(["'`]?)([A-Za-z_]\w*)\2/.exec(rest)) && operandExpected()) {
            const token: Token & { parts?: RawPart[] } = { kind: 'str', text: '<<', line, spaceBefore: space, parts: [''] };
            out.push(token);
            space = false;
            heredocs.push({ token, id: m[3], squiggly: m[1] === '~', indented: m[1] === '-', raw: m[2] === "'" });
            i += m[0].length;
            continue;
        }
        if (c === '?' && /^\?[A-Za-z0-9_](?![\w])/.test(rest) && operandExpected()) {
            push('str', '?', { parts: [src[i + 1]] }); i += 2; continue;
        }
        const op = OPERATORS.find(o => src.startsWith(o, i));
        if (!op) fail(`unexpected character '${c}'`);
        // Block parameters become locals too: `{ |k, v|` and `do |k, v|`.
        if (op === '|' && (prev()?.text === '{' || prev()?.text === 'do')) {
            const close = src.indexOf('|', i + 1);
            if (close > 0) for (const n of src.slice(i + 1, close).match(/[a-z_]\w*/g) ?? []) state.locals.add(n);
        }
        push('op', op!);
        i += op!.length;
    }
    if (heredocs.length) readHeredocs();
    return out;
}
