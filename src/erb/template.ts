import { lex, type LexState, type Token } from '../ruby/index.js';
import { rubyError } from '../ruby/index.js';

/**
 * Ruby's ERB with Puppet's trim mode `-`: `<%-` drops the indentation before it, `-%>` the
 * newline after it, `<%%` is a literal `<%`, and `%%>` inside a tag is a literal `%>`. The
 * template becomes one token stream in which text and `<%= %>` are statements of their own,
 * joined by `;` as in the Ruby code ERB generates, so a block may open in one tag and close
 * in another.
 */
export function scanTemplate(text: string): { tokens: Token[]; eofLine: number } {
    const tokens: Token[] = [];
    const state: LexState = { locals: new Set() };
    let i = 0;
    let line = 1;
    let buf = '';
    let bufLine = 1;
    const sep = (l: number): void => { tokens.push({ kind: 'op', text: ';', line: l, spaceBefore: true }); };
    /**
     * After code that ends in a `#` comment, ERB's generated Ruby has the comment run on over what
     * follows on the same generated line: text up to its first newline, tags, all swallowed.
     */
    let swallowed = false;
    let endsWithTrim = false;
    const flushText = (): void => {
        if (buf && swallowed) {
            if (buf.includes('\n')) swallowed = false;
        } else if (buf) { tokens.push({ kind: 'erbtext', text: buf, line: bufLine, spaceBefore: true }); sep(line); }
        buf = '';
        bufLine = line;
    };
    const syntaxError = (message: string, at: number): never => {
        const e = rubyError('ScriptError', `syntax error, ${message}`);
        e.line = at;
        throw e;
    };
    const count = (s: string): number => { let n = 0; for (const c of s) if (c === '\n') n++; return n; };
    const startTag = /<%%|<%=|<%#|<%-|<%/g;
    while (i < text.length) {
        startTag.lastIndex = i;
        const m = startTag.exec(text);
        if (!m) { buf += text.slice(i); line += count(text.slice(i)); break; }
        let before = text.slice(i, m.index);
        if (m[0] === '<%%') { buf += before + '<%'; line += count(before); i = m.index + 3; continue; }
        line += count(before);
        // `<%-` drops the blanks before it on its line (ERB counts the end of the previous tag as a line start).
        if (m[0] === '<%-') before = before.replace(/[ \t]*$/, m => (/^[ \t]*$/.test(before.slice(before.lastIndexOf('\n') + 1)) ? '' : m));
        buf += before;
        flushText();
        // The tag's code runs to `%>` or `-%>` (or, unclosed, to the end); `%%>` inside it is a literal `%>`.
        const codeStart = m.index + (m[0] === '<%' ? 2 : 3);
        let j = codeStart;
        let code = '';
        let trim = false;
        while (j < text.length) {
            if (text.startsWith('%%>', j)) { code += '%>'; j += 3; continue; }
            if (text.startsWith('-%>', j)) { trim = true; j += 3; break; }
            if (text.startsWith('%>', j)) { j += 2; break; }
            code += text[j];
            j++;
        }
        const tagLine = line;
        if (swallowed && m[0] !== '<%#') {
            const nl = code.indexOf('\n');
            if (nl >= 0 && m[0] === '<%=') syntaxError("unexpected ')'", tagLine + count(code));
            if (nl >= 0) {
                swallowed = false;
                tokens.push(...lex(code.slice(nl + 1), tagLine + 1, state));
                sep(tagLine + count(code));
                if (state.trailingComment) swallowed = true;
            }
        } else if (m[0] === '<%=') {
            tokens.push({ kind: 'erbins', text: '<%=', line: tagLine, spaceBefore: true });
            tokens.push(...lex(code, tagLine, state));
            // `((code # comment).to_s)` loses its closing parentheses to the comment.
            if (state.trailingComment) syntaxError("unexpected end-of-input, expecting ')'", eofLineOf(text));
            tokens.push({ kind: 'erbend', text: '%>', line: tagLine + count(code), spaceBefore: true });
            sep(tagLine);
        } else if (m[0] !== '<%#') {
            tokens.push(...lex(code, tagLine, state));
            sep(tagLine + count(code));
            if (state.trailingComment) swallowed = true;
        }
        line += count(code);
        i = j;
        endsWithTrim = trim && i >= text.length;
        if (trim) {
            // `-%>` ends the generated line too, which ends a runaway comment.
            swallowed = false;
            if (text.startsWith('\r\n', i)) { i += 2; line++; } else if (text[i] === '\n') { i++; line++; }
        }
        bufLine = line;
    }
    flushText();
    return { tokens, eofLine: eofLineOf(text) + (endsWithTrim ? 1 : 0) };
}

/** The last line of the Ruby ERB generates, where Ruby reports an unexpected end of input. */
function eofLineOf(text: string): number {
    let n = 1;
    for (const c of text) if (c === '\n') n++;
    return n;
}
