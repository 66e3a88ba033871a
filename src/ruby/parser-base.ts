import type { Param } from './ast.js';
import type { Token } from './lexer.js';
import { rubyError } from './objects.js';


/** Binary operators by binding strength (higher binds tighter); `**` is right-associative. */
export const BINARY: Record<string, number> = {
    '||': 4, '&&': 5,
    '<=>': 7, '==': 7, '===': 7, '!=': 7, '=~': 7, '!~': 7,
    '<': 8, '<=': 8, '>': 8, '>=': 8,
    '|': 9, '^': 9, '&': 10,
    '<<': 11, '>>': 11,
    '+': 12, '-': 12,
    '*': 13, '/': 13, '%': 13,
    '**': 15
};
export const UNARY_MINUS = 14;

export const OP_ASSIGN = new Set(['+=', '-=', '*=', '/=', '%=', '**=', '||=', '&&=', '|=', '&=', '^=', '<<=', '>>=']);
export const STMT_END_KW = new Set(['end', 'else', 'elsif', 'when', 'rescue', 'ensure', 'then', 'do', 'in']);
export const MODIFIERS = new Set(['if', 'unless', 'while', 'until', 'rescue']);

/** Token access and local-variable scopes shared by the expression and statement parsers. */
export abstract class ParserBase {
    protected pos = 0;
    protected readonly scopes: Array<Set<string>> = [new Set()];
    /** Inside `while cond do` the `do` belongs to the loop, not to a block of the condition. */
    protected noDo = 0;

    constructor(protected readonly tokens: Token[], protected readonly eofLine?: number) {}

    // ---- tokens ----

    protected peek(offset = 0): Token {
        const t = this.tokens[this.pos + offset];
        if (t) return t;
        const last = this.tokens[this.tokens.length - 1];
        return { kind: 'eof', text: '', line: this.eofLine ?? last?.line ?? 1, spaceBefore: true };
    }
    protected next(): Token {
        const t = this.peek();
        this.pos++;
        return t;
    }
    protected isOp(text: string, t = this.peek()): boolean {
        return t.kind === 'op' && t.text === text;
    }
    protected isKw(text: string, t = this.peek()): boolean {
        return t.kind === 'kw' && t.text === text;
    }
    protected acceptOp(text: string): boolean {
        if (!this.isOp(text)) return false;
        this.pos++;
        return true;
    }
    protected acceptKw(text: string): boolean {
        if (!this.isKw(text)) return false;
        this.pos++;
        return true;
    }
    protected expectOp(text: string): Token {
        if (!this.isOp(text)) this.unexpected(`'${text}'`);
        return this.next();
    }
    protected expectKw(text: string): Token {
        if (!this.isKw(text)) this.unexpected(`\`${text}'`);
        return this.next();
    }
    protected unexpected(expecting?: string): never {
        const t = this.peek();
        // Ruby sees the code ERB generates: `%>` of `<%=` closes `((code).to_s)`, text is `; _erbout.<< "..."`.
        const what = t.kind === 'eof' ? 'end-of-input' : t.kind === 'nl' ? "'\\n'" : t.kind === 'erbend' ? "')'" : t.kind === 'erbtext' || t.kind === 'erbins' ? "';'"
            : t.kind === 'kw' ? `\`${t.text}'` : t.kind === 'ident' || t.kind === 'const' ? `local variable or method` : `'${t.text}'`;
        const e = rubyError('ScriptError', `syntax error, unexpected ${what}${expecting ? `, expecting ${expecting}` : ''}`);
        e.line = t.line;
        e.col = t.col;
        throw e;
    }
    protected skipTerms(): void {
        while (this.peek().kind === 'nl' || this.isOp(';')) this.pos++;
    }
    protected skipNl(): void {
        while (this.peek().kind === 'nl') this.pos++;
    }

    // ---- scopes ----

    protected declare(name: string): void {
        this.scopes[this.scopes.length - 1].add(name);
    }
    protected isLocal(name: string): boolean {
        return this.scopes.some(s => s.has(name));
    }
    protected withScope<T>(f: () => T): T {
        this.scopes.push(new Set());
        try { return f(); } finally { this.scopes.pop(); }
    }

    // ---- statements ----
}

export function flatNames(p: Param): string[] {
    return p.kind === 'nested' ? (p.nested ?? []).flatMap(flatNames) : p.name ? [p.name] : [];
}

/** Ruby integer literals: 0x1f, 0b101, 0o17 and 017 (octal), 1_000. */
export function parseInteger(text: string): bigint {
    if (/^0[xX]/.test(text)) return BigInt(text);
    if (/^0[bB]/.test(text)) return BigInt(text);
    if (/^0[oO]/.test(text)) return BigInt(`0o${text.slice(2)}`);
    if (/^0\d/.test(text)) return BigInt(`0o${text.slice(1)}`);
    return BigInt(text);
}
