import type { BlockNode, NodeOf, Param, RNode, Rescue, StrPart, Target } from './ast.js';
import { lex, type RawPart, type Token } from './lexer.js';
import { rubyError } from './objects.js';

/** Binary operators by binding strength (higher binds tighter); `**` is right-associative. */
const BINARY: Record<string, number> = {
    '||': 4, '&&': 5,
    '<=>': 7, '==': 7, '===': 7, '!=': 7, '=~': 7, '!~': 7,
    '<': 8, '<=': 8, '>': 8, '>=': 8,
    '|': 9, '^': 9, '&': 10,
    '<<': 11, '>>': 11,
    '+': 12, '-': 12,
    '*': 13, '/': 13, '%': 13,
    '**': 15
};
const UNARY_MINUS = 14;

const OP_ASSIGN = new Set(['+=', '-=', '*=', '/=', '%=', '**=', '||=', '&&=', '|=', '&=', '^=', '<<=', '>>=']);
const STMT_END_KW = new Set(['end', 'else', 'elsif', 'when', 'rescue', 'ensure', 'then', 'do', 'in']);
const MODIFIERS = new Set(['if', 'unless', 'while', 'until', 'rescue']);

/**
 * A recursive-descent parser for the Ruby that templates hold. Local variables are known at
 * parse time, as in Ruby: a name assigned earlier (or a block parameter) is a variable,
 * anything else is a method call on the template.
 */
export class Parser {
    private pos = 0;
    private readonly scopes: Array<Set<string>> = [new Set()];
    /** Inside `while cond do` the `do` belongs to the loop, not to a block of the condition. */
    private noDo = 0;

    constructor(private readonly tokens: Token[], private readonly eofLine?: number) {}

    /** `eofLine` is the line Ruby reports for an unexpected end of the template. */
    static parseProgram(tokens: Token[], eofLine?: number): RNode[] {
        const p = new Parser(tokens, eofLine);
        // A stray `end` (or `else`, ...) at the top ends the program early: Ruby expected the input to end there.
        const body = p.statements(() => p.peek().kind === 'eof' || (p.peek().kind === 'kw' && STMT_END_KW.has(p.peek().text)));
        if (p.peek().kind !== 'eof') p.unexpected('end-of-input');
        return body;
    }

    // ---- tokens ----

    private peek(offset = 0): Token {
        const t = this.tokens[this.pos + offset];
        if (t) return t;
        const last = this.tokens[this.tokens.length - 1];
        return { kind: 'eof', text: '', line: this.eofLine ?? last?.line ?? 1, spaceBefore: true };
    }
    private next(): Token {
        const t = this.peek();
        this.pos++;
        return t;
    }
    private isOp(text: string, t = this.peek()): boolean {
        return t.kind === 'op' && t.text === text;
    }
    private isKw(text: string, t = this.peek()): boolean {
        return t.kind === 'kw' && t.text === text;
    }
    private acceptOp(text: string): boolean {
        if (!this.isOp(text)) return false;
        this.pos++;
        return true;
    }
    private acceptKw(text: string): boolean {
        if (!this.isKw(text)) return false;
        this.pos++;
        return true;
    }
    private expectOp(text: string): Token {
        if (!this.isOp(text)) this.unexpected(`'${text}'`);
        return this.next();
    }
    private expectKw(text: string): Token {
        if (!this.isKw(text)) this.unexpected(`\`${text}'`);
        return this.next();
    }
    private unexpected(expecting?: string): never {
        const t = this.peek();
        // Ruby sees the code ERB generates: `%>` of `<%=` closes `((code).to_s)`, text is `; _erbout.<< "..."`.
        const what = t.kind === 'eof' ? 'end-of-input' : t.kind === 'nl' ? "'\\n'" : t.kind === 'erbend' ? "')'" : t.kind === 'erbtext' || t.kind === 'erbins' ? "';'"
            : t.kind === 'kw' ? `\`${t.text}'` : t.kind === 'ident' || t.kind === 'const' ? `local variable or method` : `'${t.text}'`;
        const e = rubyError('ScriptError', `syntax error, unexpected ${what}${expecting ? `, expecting ${expecting}` : ''}`);
        e.line = t.line;
        throw e;
    }
    private skipTerms(): void {
        while (this.peek().kind === 'nl' || this.isOp(';')) this.pos++;
    }
    private skipNl(): void {
        while (this.peek().kind === 'nl') this.pos++;
    }

    // ---- scopes ----

    private declare(name: string): void {
        this.scopes[this.scopes.length - 1].add(name);
    }
    private isLocal(name: string): boolean {
        return this.scopes.some(s => s.has(name));
    }
    private withScope<T>(f: () => T): T {
        this.scopes.push(new Set());
        try { return f(); } finally { this.scopes.pop(); }
    }

    // ---- statements ----

    private statements(stop: () => boolean): RNode[] {
        const out: RNode[] = [];
        this.skipTerms();
        while (!stop() && this.peek().kind !== 'eof') {
            out.push(this.statement());
            const t = this.peek();
            if (t.kind === 'nl' || this.isOp(';')) this.skipTerms();
            else if (!stop() && t.kind !== 'eof' && t.kind !== 'erbtext' && t.kind !== 'erbins') this.unexpected();
        }
        return out;
    }
    private bodyUntil(...kws: string[]): RNode[] {
        return this.statements(() => this.peek().kind === 'kw' && kws.includes(this.peek().text));
    }

    private statement(): RNode {
        let node = this.exprStatement();
        while (this.peek().kind === 'kw' && MODIFIERS.has(this.peek().text)) {
            const kw = this.next().text;
            const line = node.line;
            if (kw === 'rescue') { node = { $type: 'RescueMod', line, body: node, rescue: this.exprStatement() }; continue; }
            const cond = this.exprStatement();
            if (kw === 'if') node = { $type: 'If', line, cond, then: [node], else: [] };
            else if (kw === 'unless') node = { $type: 'If', line, cond, then: [], else: [node] };
            else node = { $type: 'While', line, cond, body: [node], until: kw === 'until', doWhile: node.$type === 'Begin' };
        }
        return node;
    }

    private exprStatement(): RNode {
        const t = this.peek();
        if (t.kind === 'erbtext') { this.pos++; return { $type: 'ErbText', line: t.line, text: t.text }; }
        if (t.kind === 'erbins') {
            this.pos++;
            const body = this.statements(() => this.peek().kind === 'erbend');
            if (this.peek().kind !== 'erbend') this.unexpected("'%>'");
            this.pos++;
            return { $type: 'ErbInsert', line: t.line, body };
        }
        const multi = this.tryMultiAssign();
        if (multi) return multi;
        let left = this.notExpr();
        while (this.isKw('and') || this.isKw('or')) {
            const op = this.next().text;
            this.skipNl();
            const right = this.notExpr();
            left = op === 'and' ? { $type: 'And', line: left.line, left, right } : { $type: 'Or', line: left.line, left, right };
        }
        return left;
    }

    private notExpr(): RNode {
        const t = this.peek();
        if (this.acceptKw('not')) return { $type: 'Not', line: t.line, value: this.notExpr() };
        return this.expr();
    }

    /** `a, b = x` and `a, (b, c), *d = x`. */
    private tryMultiAssign(): RNode | null {
        const start = this.pos;
        const t = this.peek();
        const startsTarget = t.kind === 'ident' || t.kind === 'ivar' || t.kind === 'gvar' || this.isOp('*') || this.isOp('(');
        if (!startsTarget) return null;
        // Only a comma-separated list of plain targets followed by `=` is a multiple assignment.
        let depth = 0;
        let sawComma = false;
        for (let k = this.pos; k < this.tokens.length; k++) {
            const x = this.tokens[k];
            if (x.kind === 'op' && (x.text === '(' || x.text === '[')) depth++;
            else if (x.kind === 'op' && (x.text === ')' || x.text === ']')) { depth--; if (depth < 0) return null; }
            else if (x.kind === 'op' && x.text === ',' && depth === 0) sawComma = true;
            else if (x.kind === 'op' && x.text === '=' && depth === 0) { if (!sawComma) return null; break; }
            else if (x.kind === 'nl' || (x.kind === 'op' && x.text === ';') || x.kind === 'kw' || x.kind === 'erbtext' || x.kind === 'erbend' || (x.kind === 'op' && ['{', '=>', '==', '.', '&.'].includes(x.text) && depth === 0)) return null;
        }
        if (!sawComma) return null;
        const { targets, splat } = this.targetList(() => this.isOp('='));
        if (!this.acceptOp('=')) { this.pos = start; return null; }
        this.skipNl();
        let value = this.expr();
        if (this.isOp(',')) {
            const elements = [value];
            while (this.acceptOp(',')) elements.push(this.argument());
            value = { $type: 'ArrayLit', line: value.line, elements };
        }
        return { $type: 'MultiAssign', line: t.line, targets, splat, value };
    }

    private targetList(stop: () => boolean): { targets: Target[]; splat: number } {
        const targets: Target[] = [];
        let splat = -1;
        do {
            if (stop()) break;
            const line = this.peek().line;
            if (this.acceptOp('*')) { splat = targets.length; }
            if (this.acceptOp('(')) {
                const inner = this.targetList(() => this.isOp(')'));
                this.expectOp(')');
                targets.push({ $type: 'Nested', line, targets: inner.targets, splat: inner.splat });
                continue;
            }
            targets.push(this.toTarget(this.primaryPostfix()));
        } while (this.acceptOp(','));
        return { targets, splat };
    }

    private toTarget(n: RNode): Target {
        switch (n.$type) {
            case 'LVar': case 'IVar': case 'GVar':
                if (n.$type === 'LVar') this.declare(n.name);
                return n;
            case 'Call':
                if (n.vcall && !n.recv) { this.declare(n.name); return { $type: 'LVar', line: n.line, name: n.name }; }
                if (n.name === '[]' && n.recv) return { $type: 'Index', line: n.line, recv: n.recv, args: n.args };
                if (n.recv && n.args.length === 0 && /^[a-z_]\w*$/.test(n.name)) return { $type: 'Attr', line: n.line, recv: n.recv, name: n.name };
                break;
            default:
                break;
        }
        const e = rubyError('ScriptError', 'syntax error, cannot assign to this expression');
        e.line = n.line;
        throw e;
    }

    // ---- expressions ----

    /** An expression with assignment (right-associative) and `x = y rescue z`. */
    private expr(): RNode {
        const left = this.ternary();
        const t = this.peek();
        if (t.kind === 'op' && (t.text === '=' || OP_ASSIGN.has(t.text)) && this.assignable(left)) {
            this.pos++;
            this.skipNl();
            const target = this.toTarget(left);
            let value = this.isKw('not') ? this.notExpr() : this.expr();
            if (this.isKw('rescue')) { this.pos++; value = { $type: 'RescueMod', line: value.line, body: value, rescue: this.expr() }; }
            if (t.text === '=') {
                if (this.isOp(',') && (target.$type === 'LVar' || target.$type === 'IVar')) {
                    // `x = 1, 2` assigns an array.
                    const elements = [value];
                    while (this.acceptOp(',')) elements.push(this.argument());
                    value = { $type: 'ArrayLit', line: value.line, elements };
                }
                return { $type: 'Assign', line: left.line, target, value };
            }
            return { $type: 'OpAssign', line: left.line, target, op: t.text.slice(0, -1), value };
        }
        return left;
    }

    private assignable(n: RNode): boolean {
        return n.$type === 'LVar' || n.$type === 'IVar' || n.$type === 'GVar' ||
            (n.$type === 'Call' && ((n.vcall && !n.recv) || (n.name === '[]' && n.recv !== null) || (n.recv !== null && n.args.length === 0 && n.block === null && /^[a-z_]\w*$/.test(n.name))));
    }

    private ternary(): RNode {
        const cond = this.range();
        if (!this.isOp('?')) return cond;
        this.pos++;
        this.skipNl();
        let then: RNode;
        // `c ? a: b` lexes `a:` as a label.
        const t = this.peek();
        if (t.kind === 'label') {
            this.pos++;
            then = this.isLocal(t.text) ? { $type: 'LVar', line: t.line, name: t.text } : this.call(null, t.text, t.line, false, true);
        } else {
            then = this.ternary();
            this.skipNl();
            this.expectOp(':');
        }
        this.skipNl();
        const otherwise = this.ternary();
        return { $type: 'If', line: cond.line, cond, then: [then], else: [otherwise] };
    }

    private range(): RNode {
        if (this.isOp('..') || this.isOp('...')) {
            const op = this.next();
            return { $type: 'RangeLit', line: op.line, from: null, to: this.binary(4), exclusive: op.text === '...' };
        }
        const from = this.binary(4);
        if (this.isOp('..') || this.isOp('...')) {
            const op = this.next();
            const endless = this.peek().kind === 'nl' || this.isOp(')') || this.isOp(']') || this.isOp(';') || this.peek().kind === 'eof' || this.peek().kind === 'erbend' || this.isKw('then');
            return { $type: 'RangeLit', line: from.line, from, to: endless ? null : this.binary(4), exclusive: op.text === '...' };
        }
        return from;
    }

    private binary(minPrec: number): RNode {
        let left = this.unary();
        while (true) {
            const t = this.peek();
            if (t.kind !== 'op') break;
            const prec = BINARY[t.text];
            if (prec === undefined || prec < minPrec) break;
            this.pos++;
            this.skipNl();
            const right = t.text === '**' ? this.binaryRightOfPow() : this.binary(prec + 1);
            left = this.binaryNode(t.text, left, right, t.line);
        }
        return left;
    }

    private binaryRightOfPow(): RNode {
        // `2 ** -1` and right-associativity: `2 ** 3 ** 2` is 2 ** 9.
        return this.binary(BINARY['**']);
    }

    private binaryNode(op: string, left: RNode, right: RNode, line: number): RNode {
        switch (op) {
            case '&&': return { $type: 'And', line: left.line, left, right };
            case '||': return { $type: 'Or', line: left.line, left, right };
            case '!=': return { $type: 'Call', line, recv: left, name: '!=', args: [right], block: null, blockArg: null, safe: false, vcall: false };
            case '!~': return { $type: 'Not', line, value: { $type: 'Call', line, recv: left, name: '=~', args: [right], block: null, blockArg: null, safe: false, vcall: false } };
            default: return { $type: 'Call', line, recv: left, name: op, args: [right], block: null, blockArg: null, safe: false, vcall: false };
        }
    }

    private unary(): RNode {
        const t = this.peek();
        if (t.kind === 'op') {
            switch (t.text) {
                case '!': this.pos++; return { $type: 'Not', line: t.line, value: this.unary() };
                case '~': case '+': {
                    this.pos++;
                    const v = this.unary();
                    return { $type: 'Call', line: t.line, recv: v, name: t.text === '+' ? '+@' : '~', args: [], block: null, blockArg: null, safe: false, vcall: false };
                }
                case '-': {
                    this.pos++;
                    const n = this.peek();
                    if ((n.kind === 'int' || n.kind === 'float') && !n.spaceBefore) {
                        // A negative literal, except that `-2 ** 2` is -(2 ** 2).
                        // `-3.abs` is (-3).abs: the sign belongs to the literal.
                        this.pos++;
                        const lit = this.postfix(this.negate(n.kind === 'int' ? { $type: 'Int', line: n.line, value: parseInteger(n.text) } : { $type: 'Float', line: n.line, value: Number(n.text) }, t.line));
                        if (this.isOp('**')) {
                            this.pos++;
                            const pow = this.binaryNode('**', this.negate(lit, t.line), this.binaryRightOfPow(), t.line);
                            return { $type: 'Call', line: t.line, recv: pow, name: '-@', args: [], block: null, blockArg: null, safe: false, vcall: false };
                        }
                        return lit;
                    }
                    const v = this.binary(UNARY_MINUS);
                    return { $type: 'Call', line: t.line, recv: v, name: '-@', args: [], block: null, blockArg: null, safe: false, vcall: false };
                }
                case '&': case '*': case '**':
                    this.unexpected();
            }
        }
        return this.primaryPostfix();
    }

    private negate(lit: RNode, line: number): RNode {
        if (lit.$type === 'Int') return { ...lit, value: -lit.value };
        if (lit.$type === 'Float') return { ...lit, value: -lit.value };
        return { $type: 'Call', line, recv: lit, name: '-@', args: [], block: null, blockArg: null, safe: false, vcall: false };
    }

    private primaryPostfix(): RNode {
        return this.postfix(this.primary());
    }

    private postfix(start: RNode): RNode {
        let node = start;
        while (true) {
            const t = this.peek();
            if (t.kind === 'op' && (t.text === '.' || t.text === '&.')) {
                this.pos++;
                this.skipNl();
                const n = this.next();
                if (n.kind === 'op' && n.text === '(') {
                    // `proc.(x)` is `proc.call(x)`.
                    this.pos--;
                    node = this.call(node, 'call', n.line, t.text === '&.', false);
                    continue;
                }
                if (!['ident', 'const', 'kw', 'label'].includes(n.kind) && !(n.kind === 'op' && /^[+\-*/%<>=!~^&|[]/.test(n.text))) this.unexpected('a method name');
                let name = n.text;
                if (n.kind === 'label') { this.pos--; this.tokens[this.pos] = { kind: 'op', text: ':', line: n.line, spaceBefore: false }; }
                if (n.kind === 'op' && n.text === '[') { this.expectOp(']'); name = this.acceptOp('=') ? '[]=' : '[]'; }
                node = this.call(node, name, n.line, t.text === '&.', false);
                continue;
            }
            if (t.kind === 'op' && t.text === '::') {
                this.pos++;
                const n = this.next();
                if (n.kind === 'const' && !this.isOp('(')) { node = { $type: 'Const', line: n.line, scope: node, top: false, name: n.text }; continue; }
                node = this.call(node, n.text, n.line, false, false);
                continue;
            }
            if (t.kind === 'op' && t.text === '[' && !(t.spaceBefore && this.isCommandReceiver(node))) {
                this.pos++;
                this.skipNl();
                const args = this.args(']');
                this.expectOp(']');
                node = { $type: 'Call', line: t.line, recv: node, name: '[]', args, block: null, blockArg: null, safe: false, vcall: false };
                continue;
            }
            break;
        }
        return node;
    }

    /** A bare method name with a space before `[`: `foo [1]` passes an array. */
    private isCommandReceiver(node: RNode): boolean {
        return node.$type === 'Call' && node.vcall;
    }

    /** A method call's arguments (in parentheses or, as a command, without) and its block. */
    private call(recv: RNode | null, name: string, line: number, safe: boolean, vcallAllowed: boolean): NodeOf<'Call'> {
        let args: RNode[] = [];
        let blockArg: RNode | null = null;
        let hadArgs = false;
        const t = this.peek();
        if (t.kind === 'op' && t.text === '(' && !t.spaceBefore) {
            this.pos++;
            this.skipNl();
            args = this.args(')');
            this.skipNl();
            this.expectOp(')');
            hadArgs = true;
        } else if (this.startsCommandArg()) {
            args = this.commandArgs();
            hadArgs = true;
        }
        const last = args[args.length - 1];
        if (last && last.$type === 'Call' && last.name === '&' && last.recv === null) { blockArg = last.args[0]; args = args.slice(0, -1); }
        const block = this.block();
        return { $type: 'Call', line, recv, name, args, block, blockArg, safe, vcall: vcallAllowed && !hadArgs && block === null };
    }

    /** Can the next token start an argument of a command call (`raise "x"`, `scope.lookupvar 'x'`)? */
    private startsCommandArg(): boolean {
        const t = this.peek();
        const prev = this.tokens[this.pos - 1];
        // `include?@x`: after a `?` or `!` method name an argument may follow without a space.
        if (!t.spaceBefore && prev && /[?!]$/.test(prev.text) && (t.kind === 'ivar' || t.kind === 'str' || t.kind === 'gvar')) return true;
        if (!t.spaceBefore) return false;
        switch (t.kind) {
            case 'int': case 'float': case 'str': case 'sym': case 'regex': case 'words': case 'ivar': case 'gvar': case 'nthref': case 'const': case 'label':
                return true;
            case 'ident':
                return true;
            case 'kw':
                return ['nil', 'true', 'false', 'self', 'not', 'defined?', 'lambda', '__FILE__', '__LINE__'].includes(t.text);
            case 'op': {
                const n = this.peek(1);
                if (['-', '*', '&', '::', '[', '**'].includes(t.text)) return !n.spaceBefore;
                return t.text === '!' || t.text === '->';
            }
            default:
                return false;
        }
    }

    private commandArgs(): RNode[] {
        const args: RNode[] = [];
        do {
            this.skipNl();
            args.push(this.argument());
        } while (this.acceptOp(','));
        return this.foldLabels(args);
    }

    private args(close: string): RNode[] {
        const args: RNode[] = [];
        this.skipNl();
        while (!this.isOp(close)) {
            args.push(this.argument());
            this.skipNl();
            if (!this.acceptOp(',')) break;
            this.skipNl();
        }
        return this.foldLabels(args);
    }

    /** Trailing `key => v` / `key: v` arguments form one hash, as in Ruby. */
    private foldLabels(args: RNode[]): RNode[] {
        const first = args.findIndex(a => a.$type === 'HashLit' && (a as NodeOf<'HashLit'> & { bare?: boolean }).bare);
        if (first < 0) return args;
        const entries: Array<[RNode, RNode] | RNode> = [];
        for (const a of args.slice(first)) if (a.$type === 'HashLit') entries.push(...a.entries); else entries.push(a);
        return [...args.slice(0, first), { $type: 'HashLit', line: args[first].line, entries }];
    }

    private argument(): RNode {
        const t = this.peek();
        if (t.kind === 'op' && t.text === '*' ) { this.pos++; return { $type: 'Splat', line: t.line, value: this.ternary() }; }
        if (t.kind === 'op' && t.text === '**') { this.pos++; return this.bareHash([{ $type: 'DoubleSplat', line: t.line, value: this.ternary() }], t.line); }
        if (t.kind === 'op' && t.text === '&') {
            this.pos++;
            return { $type: 'Call', line: t.line, recv: null, name: '&', args: [this.ternary()], block: null, blockArg: null, safe: false, vcall: false };
        }
        if (t.kind === 'label') {
            this.pos++;
            this.skipNl();
            return this.bareHash([[{ $type: 'Sym', line: t.line, parts: [t.text] }, this.expr()]], t.line);
        }
        const v = this.isKw('not') ? this.notExpr() : this.expr();
        if (this.acceptOp('=>')) {
            this.skipNl();
            return this.bareHash([[v, this.expr()]], t.line);
        }
        return v;
    }

    private bareHash(entries: Array<[RNode, RNode] | RNode>, line: number): RNode {
        const h: NodeOf<'HashLit'> & { bare: boolean } = { $type: 'HashLit', line, entries, bare: true };
        return h;
    }

    private block(): BlockNode | null {
        const t = this.peek();
        if (t.kind === 'op' && t.text === '{') {
            this.pos++;
            return this.withScope(() => {
                const params = this.blockParams();
                const body = this.statements(() => this.isOp('}'));
                this.expectOp('}');
                return { line: t.line, ...params, body };
            });
        }
        if (this.isKw('do') && this.noDo === 0) {
            this.pos++;
            return this.withScope(() => {
                const params = this.blockParams();
                const body = this.bodyUntil('end');
                this.expectKw('end');
                return { line: t.line, ...params, body };
            });
        }
        return null;
    }

    private blockParams(): { params: Param[]; spreads: boolean } {
        this.skipNl();
        if (this.acceptOp('||')) return { params: [], spreads: false };
        if (!this.acceptOp('|')) return { params: [], spreads: false };
        const { params, trailingComma } = this.paramList(() => this.isOp('|'));
        this.expectOp('|');
        const spreads = params.length > 1 || trailingComma || params.some(p => p.kind === 'rest' || p.kind === 'nested');
        return { params, spreads };
    }

    private paramList(stop: () => boolean): { params: Param[]; trailingComma: boolean } {
        const params: Param[] = [];
        let trailingComma = false;
        while (!stop()) {
            trailingComma = false;
            const t = this.peek();
            if (this.acceptOp('(')) {
                const inner = this.paramList(() => this.isOp(')'));
                this.expectOp(')');
                params.push({ kind: 'nested', name: '', nested: inner.params });
            } else if (this.acceptOp('*')) {
                const n = this.peek().kind === 'ident' ? this.next().text : '';
                if (n) this.declare(n);
                params.push({ kind: 'rest', name: n });
            } else if (this.acceptOp('&')) {
                const n = this.next().text;
                this.declare(n);
                params.push({ kind: 'block', name: n });
            } else if (t.kind === 'ident') {
                this.pos++;
                this.declare(t.text);
                if (this.acceptOp('=')) params.push({ kind: 'opt', name: t.text, value: this.ternary() });
                else params.push({ kind: 'req', name: t.text });
            } else if (t.kind === 'label') {
                this.unexpected();
            } else this.unexpected('a block parameter');
            if (this.acceptOp(';')) { while (this.peek().kind === 'ident') { this.declare(this.next().text); this.acceptOp(','); } }
            if (!this.acceptOp(',')) break;
            trailingComma = true;
        }
        return { params, trailingComma };
    }

    // ---- primaries ----

    private primary(): RNode {
        const t = this.next();
        const line = t.line;
        switch (t.kind) {
            case 'int': return { $type: 'Int', line, value: parseInteger(t.text) };
            case 'float': return { $type: 'Float', line, value: Number(t.text) };
            case 'str': {
                let node: RNode = { $type: 'Str', line, parts: this.parts(t.parts!) };
                // Adjacent literals concatenate: "a" "b".
                while (this.peek().kind === 'str' && this.peek().spaceBefore && (this.peek().text === '"' || this.peek().text === "'")) {
                    const n = this.next();
                    node = { $type: 'Str', line, parts: [...(node as NodeOf<'Str'>).parts, ...this.parts(n.parts!)] };
                }
                return node;
            }
            case 'sym': return { $type: 'Sym', line, parts: this.parts(t.parts!) };
            case 'regex': return { $type: 'Regex', line, parts: this.parts(t.parts!), flags: t.flags ?? '' };
            case 'words':
                return { $type: 'ArrayLit', line, elements: t.words!.map(w => (t.symbols ? { $type: 'Sym', line, parts: [w] } : { $type: 'Str', line, parts: [w] })) };
            case 'ivar': return { $type: 'IVar', line, name: t.text };
            case 'gvar': return { $type: 'GVar', line, name: t.text };
            case 'nthref': return { $type: 'NthRef', line, n: Number(t.text) };
            case 'label': {
                // A label where a value is expected: `puts a: 1` handled by args; here it is `x ? y: z` fallout.
                this.pos--;
                return this.unexpected();
            }
            case 'const': {
                if (this.isOp('(') && !this.peek().spaceBefore) return this.call(null, t.text, line, false, false);
                return { $type: 'Const', line, scope: null, top: false, name: t.text };
            }
            case 'ident': {
                if (this.isLocal(t.text) && !(this.isOp('(') && !this.peek().spaceBefore)) return { $type: 'LVar', line, name: t.text };
                if (t.text === 'lambda' || t.text === 'proc') {
                    const block = this.block();
                    if (block) return { $type: 'Lambda', line, block };
                }
                return this.call(null, t.text, line, false, true);
            }
            case 'op':
                return this.primaryOp(t);
            case 'kw':
                return this.primaryKeyword(t);
            case 'nl': case 'eof': case 'erbtext': case 'erbins': case 'erbend':
                this.pos--;
                return this.unexpected();
        }
        return this.unexpected();
    }

    private primaryOp(t: Token): RNode {
        const line = t.line;
        switch (t.text) {
            case '(': {
                this.skipTerms();
                if (this.acceptOp(')')) return { $type: 'Nil', line };
                const body = this.statements(() => this.isOp(')'));
                this.expectOp(')');
                return body.length === 1 ? body[0] : { $type: 'Seq', line, body };
            }
            case '[': {
                const elements = this.args(']');
                this.skipNl();
                this.expectOp(']');
                // `[a => 1]` is an array holding a hash.
                return { $type: 'ArrayLit', line, elements };
            }
            case '{': {
                const entries: Array<[RNode, RNode] | RNode> = [];
                this.skipNl();
                while (!this.isOp('}')) {
                    const k = this.peek();
                    if (k.kind === 'label') {
                        this.pos++;
                        this.skipNl();
                        entries.push([{ $type: 'Sym', line: k.line, parts: [k.text] }, this.expr()]);
                    } else if (k.kind === 'str' && this.isOp(':', this.peek(1)) && !this.peek(1).spaceBefore) {
                        this.pos += 2;
                        entries.push([{ $type: 'Sym', line: k.line, parts: this.parts(k.parts!) }, this.expr()]);
                    } else if (this.acceptOp('**')) {
                        entries.push({ $type: 'DoubleSplat', line: k.line, value: this.ternary() });
                    } else {
                        const key = this.expr();
                        this.skipNl();
                        this.expectOp('=>');
                        this.skipNl();
                        entries.push([key, this.expr()]);
                    }
                    this.skipNl();
                    if (!this.acceptOp(',')) break;
                    this.skipNl();
                }
                this.skipNl();
                this.expectOp('}');
                return { $type: 'HashLit', line, entries };
            }
            case '::': {
                const n = this.next();
                if (n.kind !== 'const') this.unexpected();
                return { $type: 'Const', line, scope: null, top: true, name: n.text };
            }
            case '->': {
                const params = this.acceptOp('(') ? this.withScopeParams(() => this.isOp(')'), ')') : this.peek().kind === 'ident' ? this.withScopeParams(() => this.isOp('{') || this.isKw('do'), null) : [];
                this.scopes.push(new Set(params.flatMap(p => flatNames(p))));
                try {
                    let body: RNode[];
                    const bl = this.peek().line;
                    if (this.acceptOp('{')) { body = this.statements(() => this.isOp('}')); this.expectOp('}'); } else { this.expectKw('do'); body = this.bodyUntil('end'); this.expectKw('end'); }
                    return { $type: 'Lambda', line, block: { line: bl, params, spreads: false, body } };
                } finally { this.scopes.pop(); }
            }
            case '..': case '...':
                this.pos--;
                return this.range();
        }
        this.pos--;
        return this.unexpected();
    }

    private withScopeParams(stop: () => boolean, close: string | null): Param[] {
        const params = this.withScope(() => this.paramList(stop).params);
        if (close) this.expectOp(close);
        return params;
    }

    private primaryKeyword(t: Token): RNode {
        const line = t.line;
        switch (t.text) {
            case 'nil': return { $type: 'Nil', line };
            case 'true': return { $type: 'Bool', line, value: true };
            case 'false': return { $type: 'Bool', line, value: false };
            case 'self': return { $type: 'Self', line };
            case '__LINE__': return { $type: 'Int', line, value: BigInt(line) };
            case '__FILE__': return { $type: 'Call', line, recv: null, name: '__FILE__', args: [], block: null, blockArg: null, safe: false, vcall: false };
            case 'if': case 'unless': {
                const node = this.ifRest(line, t.text === 'unless');
                this.expectKw('end');
                return node;
            }
            case 'while': case 'until': {
                this.noDo++;
                let cond: RNode;
                try { cond = this.exprStatement(); } finally { this.noDo--; }
                this.acceptKw('do');
                this.skipTerms();
                const body = this.bodyUntil('end');
                this.expectKw('end');
                return { $type: 'While', line, cond, body, until: t.text === 'until', doWhile: false };
            }
            case 'for': {
                const { targets, splat } = this.targetList(() => this.isKw('in'));
                this.expectKw('in');
                this.noDo++;
                let iter: RNode;
                try { iter = this.exprStatement(); } finally { this.noDo--; }
                this.acceptKw('do');
                const body = this.bodyUntil('end');
                this.expectKw('end');
                const target: Target = targets.length === 1 && splat < 0 ? targets[0] : { $type: 'Nested', line, targets, splat };
                return { $type: 'For', line, target, iter, body };
            }
            case 'case': {
                const subject = this.peek().kind === 'nl' || this.isOp(';') || this.isKw('when') ? null : this.exprStatement();
                this.skipTerms();
                const whens: Array<{ values: RNode[]; body: RNode[] }> = [];
                while (this.acceptKw('when')) {
                    const values: RNode[] = [];
                    do { this.skipNl(); values.push(this.isOp('*') ? this.argument() : this.ternary()); } while (this.acceptOp(','));
                    if (!this.acceptKw('then')) this.skipTerms();
                    whens.push({ values, body: this.bodyUntil('when', 'else', 'end') });
                }
                if (this.isKw('in')) this.unexpected("'when'");
                const otherwise = this.acceptKw('else') ? this.bodyUntil('end') : null;
                this.expectKw('end');
                return { $type: 'Case', line, subject, whens, else: otherwise };
            }
            case 'begin': {
                const node = this.beginBody(line);
                this.expectKw('end');
                return node;
            }
            case 'break': case 'next': case 'return': {
                const value = this.valueEnds() ? null : this.exprOrList();
                if (t.text === 'break') return { $type: 'Break', line, value };
                if (t.text === 'next') return { $type: 'Next', line, value };
                return { $type: 'Return', line, value };
            }
            case 'redo': return { $type: 'Redo', line };
            case 'defined?': {
                const paren = this.acceptOp('(') ;
                const value = paren ? this.exprStatement() : this.unary();
                if (paren) this.expectOp(')');
                return { $type: 'Defined', line, value };
            }
            case 'def': return this.def(t);
            case 'class': case 'module': case 'alias': case 'undef': case 'yield': case 'super': case 'retry': case '__method__':
                return this.unsupported(t);
            case 'not':
                return { $type: 'Not', line, value: this.expr() };
        }
        this.pos--;
        return this.unexpected();
    }

    /** The rest of an `if`/`unless`/`elsif` up to (not including) the shared `end`. */
    private ifRest(line: number, negate: boolean): RNode {
        const cond = this.condition('then');
        const then = this.bodyUntil('elsif', 'else', 'end');
        let otherwise: RNode[] = [];
        const e = this.peek();
        if (!negate && this.acceptKw('elsif')) otherwise = [this.ifRest(e.line, false)];
        else if (this.acceptKw('else')) otherwise = this.bodyUntil('end');
        return negate ? { $type: 'If', line, cond, then: otherwise, else: then } : { $type: 'If', line, cond, then, else: otherwise };
    }

    /** `def name(params) ... end`: a method of the template object. */
    private def(t: Token): RNode {
        const n = this.next();
        if (n.kind !== 'ident' && n.kind !== 'const') this.unexpected();
        const params = this.withScope(() => {
            const list = this.acceptOp('(') ? this.paramList(() => this.isOp(')')).params : this.peek().kind === 'ident' ? this.paramList(() => this.peek().kind === 'nl' || this.isOp(';')).params : [];
            if (this.isOp(')')) this.pos++;
            return list;
        });
        const saved = this.scopes.splice(0);
        this.scopes.push(new Set(params.flatMap(flatNames)));
        try {
            const body = this.beginBody(t.line);
            this.expectKw('end');
            return { $type: 'Def', line: t.line, name: n.text, params, body };
        } finally { this.scopes.splice(0, this.scopes.length, ...saved); }
    }

    private unsupported(t: Token): never {
        const e = rubyError('NotImplementedError', `'${t.text}' is not supported in templates`);
        e.line = t.line;
        throw e;
    }

    private valueEnds(): boolean {
        const t = this.peek();
        return t.kind === 'nl' || t.kind === 'eof' || t.kind === 'erbtext' || t.kind === 'erbend' || this.isOp(';') || this.isOp('}') || this.isOp(')') || (t.kind === 'kw' && (STMT_END_KW.has(t.text) || MODIFIERS.has(t.text)));
    }

    private exprOrList(): RNode {
        const first = this.expr();
        if (!this.isOp(',')) return first;
        const elements = [first];
        while (this.acceptOp(',')) elements.push(this.argument());
        return { $type: 'ArrayLit', line: first.line, elements };
    }

    private condition(sep: string): RNode {
        const cond = this.exprStatement();
        this.acceptKw(sep);
        this.skipTerms();
        return cond;
    }

    private beginBody(line: number): RNode {
        const body = this.bodyUntil('rescue', 'else', 'ensure', 'end');
        const rescues: Rescue[] = [];
        while (this.acceptKw('rescue')) {
            const classes: RNode[] = [];
            let variable: Target | null = null;
            while (!this.isOp('=>') && !this.isKw('then') && this.peek().kind !== 'nl' && !this.isOp(';')) {
                classes.push(this.ternary());
                if (!this.acceptOp(',')) break;
            }
            if (this.acceptOp('=>')) variable = this.toTarget(this.primaryPostfix());
            this.acceptKw('then');
            rescues.push({ classes, variable, body: this.bodyUntil('rescue', 'else', 'ensure', 'end') });
        }
        const elseBody = this.acceptKw('else') ? this.bodyUntil('ensure', 'end') : null;
        const ensure = this.acceptKw('ensure') ? this.bodyUntil('end') : null;
        return { $type: 'Begin', line, body, rescues, elseBody, ensure };
    }

    /** The parts of a literal with `#{...}` parsed in the current local scope. */
    private parts(raw: RawPart[]): StrPart[] {
        return raw.map(p => {
            if (typeof p === 'string') return p;
            const state = { locals: new Set<string>([...this.scopes.flatMap(s => [...s])]) };
            const sub = new Parser(lex(p.code, p.line, state));
            sub.scopes.splice(0, 1, ...this.scopes.map(s => new Set(s)));
            const body = sub.statements(() => sub.peek().kind === 'eof');
            if (sub.peek().kind !== 'eof') sub.unexpected();
            return body;
        });
    }
}

function flatNames(p: Param): string[] {
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
