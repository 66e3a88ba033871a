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

const RE_WS = /[ \t\r]+/y;

/**
 * The state and primitives every part of the Puppet lexer shares (position, pending tokens,
 * brace depth, findings, offset mapping); the string and token scanners build on it.
 */
export abstract class ScannerBase {
    protected pos = 0;
    protected after: string | undefined;
    protected braceCount = 0;
    protected newlineJump: number | undefined;
    protected readonly queue: RawToken[] = [];

    constructor(
        protected readonly text: string,
        protected readonly sink: LexSink,
        protected readonly mapOffset: (local: number) => number = (o: number): number => o
    ) { }

    // ---- positions and emission -------------------------------------------------------------

    protected tok(type: string, start: number, end: number, value?: string): RawToken {
        const s = this.mapOffset(start);
        const e = end > start ? this.mapOffset(end - 1) + 1 : s;
        return value === undefined ? { type, start: s, end: e } : { type, start: s, end: e, value };
    }

    protected emit(type: string, start: number, length: number): RawToken {
        this.pos = start + length;
        return this.tok(type, start, start + length);
    }

    protected error(code: ParseIssueCode, offset: number, length: number, ...args: string[]): void {
        this.sink.findings.push({ code, args, offset: this.mapOffset(offset), length, severity: 'error' });
    }

    protected warning(code: ParseIssueCode, offset: number, ...args: string[]): void {
        this.sink.findings.push({ code, args, offset: this.mapOffset(offset), length: 1, severity: 'warning' });
    }

    protected match(re: RegExp, at: number): string | undefined {
        re.lastIndex = at;
        const m = re.exec(this.text);
        return m ? m[0] : undefined;
    }

    protected skipWs(): void {
        const m = this.match(RE_WS, this.pos);
        if (m) {
            this.pos += m.length;
        }
    }

    protected followedBy(): string {
        if (this.pos >= this.text.length) {
            return '<eof>';
        }
        return (this.text.slice(this.pos, this.pos + 5) + '...').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
    }

    /** Lexes one token at `pos` (the selector), or consumes input without a token. */
    protected abstract lexToken(): RawToken | undefined;
}
