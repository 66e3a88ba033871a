import { createTokenInstance, type ILexingError, type IToken, type TokenType, type TokenTypeDictionary } from 'chevrotain';
import type { LangiumCoreServices, Lexer, LexerResult, TokenizeOptions } from 'langium';
import { issueMessage } from '../issues.js';
import { classifyArm8 } from './arm8.js';
import { Scanner, type LexFinding, type LexSink, type RawToken } from './scanner.js';

/** Source lines, for turning offsets into 1-based line and column numbers. */
export class LineIndex {
    private readonly starts: number[] = [0];

    constructor(text: string) {
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
            this.starts.push(i + 1);
        }
    }

    /** 0-based line of an offset. */
    line(offset: number): number {
        const starts = this.starts;
        let lo = 0;
        let hi = starts.length - 1;
        while (lo < hi) {
            const mid = (lo + hi + 1) >> 1;
            if ((starts[mid] ?? 0) <= offset) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private hint = 0;

    /**
     * The same as line(), faster for offsets that mostly increase (tokens in source order):
     * walks on from the previous answer, and only searches when the offset went backwards.
     */
    lineFrom(offset: number): number {
        const starts = this.starts;
        let l = this.hint;
        if (offset >= (starts[l] ?? 0)) {
            while (l + 1 < starts.length && (starts[l + 1] ?? 0) <= offset) {
                l++;
            }
        } else {
            l = this.line(offset);
        }
        this.hint = l;
        return l;
    }

    lineStart(line: number): number {
        return this.starts[line] ?? 0;
    }
}

/**
 * The context-sensitive Puppet lexer as a Langium `Lexer` service. Token images are the source
 * text; values that differ from it (unescaped strings, variable names) are kept per start offset
 * for the value converter, so CST ranges stay true to the source.
 */
export class PuppetLexer implements Lexer {
    readonly definition: TokenTypeDictionary;
    /** Whether the next tokenize() lexes an EPP template rather than a manifest. */
    eppMode = false;
    /** Whether the last tokenized text has a braced selector (then selector tails may need lowering). */
    sawSelectorBrace = false;
    private values = new Map<number, string>();
    private emptyValues = new Map<number, { readonly type: string; readonly value: string }>();
    private findings: LexFinding[] = [];

    constructor(services: LangiumCoreServices) {
        const tokens = services.parser.TokenBuilder.buildTokens(services.Grammar, { caseInsensitive: false });
        const dict: TokenTypeDictionary = {};
        for (const t of Array.isArray(tokens) ? tokens as TokenType[] : Object.values(tokens as TokenTypeDictionary)) {
            dict[t.name] = t;
        }
        this.definition = dict;
    }

    /**
     * The token value recorded for a token starting at `offset` in the last tokenized text. An
     * empty token (a heredoc body's empty text before a `$var` at its start) shares its offset
     * with the next one: the token type tells them apart.
     */
    valueAt(offset: number, tokenType?: string): string | undefined {
        const empty = this.emptyValues.get(offset);
        if (empty && (tokenType === undefined ? !this.values.has(offset) : empty.type === tokenType)) return empty.value;
        return this.values.get(offset);
    }

    /** Lexer errors and warnings of the last tokenized text, with their issue codes. */
    lastFindings(): readonly LexFinding[] {
        return this.findings;
    }

    tokenize(text: string, _options?: TokenizeOptions): LexerResult {
        const sink: LexSink = { findings: [], hidden: [] };
        const raw: RawToken[] = [];
        if (this.eppMode) {
            new Scanner(text, sink).scanEpp(raw);
        } else {
            new Scanner(text, sink).scanAll(raw);
        }
        classifyArm8(raw, text, sink.findings);
        const lines = new LineIndex(text);
        const values = new Map<number, string>();
        const emptyValues = new Map<number, { readonly type: string; readonly value: string }>();
        const tokens: IToken[] = [];
        let sawSelectorBrace = false;
        for (const r of raw) {
            if (r.type === 'SELBRACE') {
                sawSelectorBrace = true;
            }
            const t = this.toToken(r, text, lines);
            if (t) {
                tokens.push(t);
                if (r.value !== undefined && r.end === r.start) {
                    emptyValues.set(r.start, { type: r.type, value: r.value });
                } else if (r.value !== undefined) {
                    values.set(r.start, r.value);
                }
            }
        }
        const hidden: IToken[] = [];
        for (const r of sink.hidden) {
            const t = this.toToken(r, text, lines);
            if (t) {
                hidden.push(t);
            }
        }
        const errors: ILexingError[] = [];
        for (const f of sink.findings) {
            if (f.severity === 'error') {
                const line = lines.line(f.offset);
                errors.push({
                    offset: f.offset, length: f.length, line: line + 1, column: f.offset - lines.lineStart(line) + 1,
                    message: issueMessage(f.code, ...f.args)
                });
            }
        }
        this.values = values;
        this.emptyValues = emptyValues;
        this.findings = sink.findings;
        this.sawSelectorBrace = sawSelectorBrace;
        return { tokens, hidden, errors };
    }

    private toToken(r: RawToken, text: string, lines: LineIndex): IToken | undefined {
        const type = this.definition[r.type];
        if (!type) {
            return undefined;
        }
        const sl = lines.lineFrom(r.start);
        const endIncl = Math.max(r.start, r.end - 1);
        const el = r.end > r.start ? lines.lineFrom(endIncl) : sl;
        // Langium drops the AST of a subrule whose CST is empty, so an empty token (an empty
        // heredoc body or template text) gets a one-character image; its value stays ''.
        // A query's `~=`/`~!` (arm8.ts) carries the image of its Puppet operator, `=~`/`!~`.
        const image = r.image ?? (r.end > r.start ? text.slice(r.start, r.end) : (text[r.start] ?? ' '));
        return createTokenInstance(type, image, r.start, endIncl,
            sl + 1, el + 1, r.start - lines.lineStart(sl) + 1, endIncl - lines.lineStart(el) + 1);
    }
}
