import { DQ_ESCAPES, SQ_ESCAPES, isEscaped, resolveEscapes, type EscapeSet, type EscapeWarning } from './escapes.js';
import { KEYWORDS, ScannerBase, type RawToken } from './scanner-base.js';

const RE_VARIABLE = /(?:::)?(?:\w+::)*\w+/y;
const RE_HEREDOC = /@\(([^:/\r\n)]+)(?::[ \t]*([a-z][a-zA-Z0-9_+]+)[ \t]*)?(?:\/((?:\w|[$])*)[ \t]*)?\)/;

/** How a heredoc body (lexed by a sub-scanner) treats `$` and escapes. */
export interface UqMode {
    readonly escapes: EscapeSet;
    readonly kind: 'all' | 'interpolate' | 'interpolate-unescaped';
}

function regexEscape(s: string): string {
    return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * The string half of the lexer: single- and double-quoted strings, heredocs, and the `$var` /
 * `${expr}` interpolation inside them (expressions are lexed by the token selector, `lexToken`).
 */
export abstract class StringScanner extends ScannerBase {
    /** A scanner over a heredoc body whose offsets `map` translates to this text's. */
    protected abstract bodyScanner(body: string, map: (o: number) => number): StringScanner;

    protected sqString(): RawToken | undefined {
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

    protected followedByAt(at: number): string {
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
    protected slurpDq(): { text: string; terminator: string } | undefined {
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

    protected escapes(raw: string, set: EscapeSet, warn: boolean, at: number): string {
        const warnings: EscapeWarning[] = [];
        const value = resolveEscapes(raw, set, warn, warnings);
        for (const w of warnings) {
            this.warning(w.code, at + w.index, w.ch);
        }
        return value;
    }

    protected interpolateDq(): RawToken | undefined {
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

    protected unclosedDq(before: number): void {
        this.error('PARSE_UNCLOSED_QUOTE', before + 1, 1, '\'"\'', this.followedByAt(before + 1));
        this.pos = this.text.length;
    }

    protected interpolateTailDq(): void {
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
    protected enqueueUntil(braceCount: number): void {
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
    protected toVariable(token: RawToken | undefined): void {
        if (token && (token.type === 'NUMBER' || token.type === 'NAME' || token.type === 'WORD' || KEYWORDS.has(token.type))) {
            token.value = this.sourceText(token);
            token.type = 'VARIABLE';
        }
    }

    protected sourceText(token: RawToken): string {
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

    protected heredoc(): void {
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
                const seen = this.sink.findings.length;
                this.lexHeredocBody(lines, bodyStart, leading, hasMargin, removeBreak, {
                    escapes,
                    kind: dqStyle ? (escapes.has('$') ? 'interpolate' : 'interpolate-unescaped') : 'all'
                });
                // Puppet's lexer fails on a heredoc in this text's interpolation as it reads this heredoc's token: the failure is placed there.
                const found = this.sink.findings;
                for (let k = seen; k < found.length; k++) if (found[k].code === 'PARSE_HEREDOC_IN_HEREDOC') found[k] = { ...found[k], offset: this.mapOffset(before) };
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

    protected lexHeredocBody(lines: readonly string[], bodyStart: number, leading: string, hasMargin: boolean,
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
        this.bodyScanner(body, mapLocal).interpolateUq(mode, this.queue);
    }

    // ---- unquoted (heredoc body) interpolation -----------------------------------------------

    protected slurpUq(mode: UqMode): { text: string; terminator: string } {
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
