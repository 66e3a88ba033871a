import type { BlockNode, NodeOf, Param, RNode, Target } from './ast.js';
import { spanOf } from './ast.js';
import { BINARY, MODIFIERS, OP_ASSIGN, parseInteger, ParserBase, UNARY_MINUS } from './parser-base.js';
import { rubyError } from './objects.js';

/** How deep the look-ahead for a multiple assignment follows brackets: a target list nests far less (`a, (b, (c, d)) = x`). */
const MAX_TARGET_NESTING = 64;

/**
 * How deep statement bodies (`class`, `module`, `def`, `begin`, `if`, `do`...) may nest. Ruby's own
 * parser refuses such code long before ("nesting too deep": ~1,700 classes, ~5,000 `begin`s);
 * without a bound, 100,000 nested classes built names of quadratic size and ran out of memory.
 */
const MAX_BODY_NESTING = 5000;

/**
 * Statements, operators, calls, arguments and blocks of the Ruby subset; the primaries (literals,
 * keywords, definitions) come from the subclass.
 */
export abstract class ExprParser extends ParserBase {
    protected abstract primary(): RNode;
    /** A `do ... end` body, which may hold `rescue`/`ensure` clauses. */
    protected abstract blockBody(line: number): RNode[];


    /** The statement bodies being parsed, around the current one. */
    private bodyDepth = 0;

    protected statements(stop: () => boolean): RNode[] {
        if (this.bodyDepth >= MAX_BODY_NESTING) {
            const e = rubyError('ScriptError', `syntax error, statements nested more than ${MAX_BODY_NESTING} levels deep (a limit of modelc)`);
            e.line = this.peek().line;
            throw e;
        }
        this.bodyDepth++;
        try {
            const out: RNode[] = [];
            this.skipTerms();
            while (!stop() && this.peek().kind !== 'eof') {
                out.push(this.statement());
                const t = this.peek();
                if (t.kind === 'nl' || this.isOp(';')) this.skipTerms();
                else if (!stop() && t.kind !== 'eof' && t.kind !== 'erbtext' && t.kind !== 'erbins') this.unexpected();
            }
            return out;
        } finally {
            this.bodyDepth--;
        }
    }
    protected bodyUntil(...kws: string[]): RNode[] {
        return this.statements(() => this.peek().kind === 'kw' && kws.includes(this.peek().text));
    }

    protected statement(): RNode {
        let node = this.exprStatement();
        while (this.peek().kind === 'kw' && MODIFIERS.has(this.peek().text)) {
            const kw = this.next().text;
            const line = node.line;
            // A modifier's operand may start on the next line (`x += y if\n  cond`).
            this.skipNl();
            if (kw === 'rescue') { node = { $type: 'RescueMod', line, body: node, rescue: this.exprStatement() }; continue; }
            const cond = this.exprStatement();
            if (kw === 'if') node = { $type: 'If', line, cond, then: [node], else: [] };
            else if (kw === 'unless') node = { $type: 'If', line, cond, then: [], else: [node] };
            else node = { $type: 'While', line, cond, body: [node], until: kw === 'until', doWhile: node.$type === 'Begin' };
        }
        return node;
    }

    protected exprStatement(): RNode {
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

    protected notExpr(): RNode {
        const t = this.peek();
        if (this.acceptKw('not')) return { $type: 'Not', line: t.line, value: this.notExpr() };
        return this.expr();
    }

    /** `a, b = x` and `a, (b, c), *d = x`. */
    protected tryMultiAssign(): RNode | null {
        const start = this.pos;
        const t = this.peek();
        const startsTarget = t.kind === 'ident' || t.kind === 'ivar' || t.kind === 'gvar' || this.isOp('*') || this.isOp('(');
        if (!startsTarget) return null;
        // Only a comma-separated list of plain targets followed by `=` is a multiple assignment.
        let depth = 0;
        let sawComma = false;
        // `(a, b) = x`: one parenthesized list is the whole left-hand side.
        const wrapped = this.isOp('(');
        for (let k = this.pos; k < this.tokens.length; k++) {
            const x = this.tokens[k];
            const prev = this.tokens[k - 1];
            // Targets never nest this deep; stopping here keeps the look-ahead from rescanning deeply nested parentheses at each level.
            if (x.kind === 'op' && (x.text === '(' || x.text === '[')) { if (++depth > MAX_TARGET_NESTING) return null; }
            else if (x.kind === 'op' && (x.text === ')' || x.text === ']')) { depth--; if (depth < 0) return null; }
            else if (x.kind === 'op' && x.text === ',' && (depth === 0 || (wrapped && depth === 1))) sawComma = true;
            else if (x.kind === 'op' && x.text === '=' && depth === 0) { if (!sawComma) return null; break; }
            // A newline after a comma continues the list.
            else if (x.kind === 'nl' && prev?.kind === 'op' && prev.text === ',') continue;
            else if (x.kind === 'nl' || (x.kind === 'op' && x.text === ';') || x.kind === 'kw' || x.kind === 'erbtext' || x.kind === 'erbend' || (x.kind === 'op' && ['{', '=>', '==', '.', '&.'].includes(x.text) && depth === 0)) return null;
        }
        if (!sawComma) return null;
        let { targets, splat } = this.targetList(() => this.isOp('='));
        if (!this.acceptOp('=')) { this.pos = start; return null; }
        const only = targets[0];
        if (targets.length === 1 && splat === -1 && only.$type === 'Nested') ({ targets, splat } = only);
        this.skipNl();
        let value = this.isOp('*') ? this.argument() : this.expr();
        if (this.isOp(',')) {
            const elements = [value];
            while (this.acceptOp(',')) elements.push(this.argument());
            value = { $type: 'ArrayLit', line: value.line, elements };
        }
        return { $type: 'MultiAssign', line: t.line, targets, splat, value };
    }

    protected targetList(stop: () => boolean): { targets: Target[]; splat: number } {
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
        } while (this.acceptOp(',') && (this.skipNl(), true));
        return { targets, splat };
    }

    protected toTarget(n: RNode): Target {
        switch (n.$type) {
            case 'LVar': case 'IVar': case 'GVar': case 'Const':
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
    protected expr(): RNode {
        const left = this.ternary();
        return this.isAssignmentTo(left) ? this.assignment(left) : left;
    }

    protected isAssignmentTo(left: RNode): boolean {
        const t = this.peek();
        return t.kind === 'op' && (t.text === '=' || OP_ASSIGN.has(t.text)) && this.assignable(left);
    }

    /** The assignment to `left` whose operator is the next token. */
    protected assignment(left: RNode): RNode {
        const t = this.peek();
        {
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
    }

    protected assignable(n: RNode): boolean {
        return n.$type === 'LVar' || n.$type === 'IVar' || n.$type === 'GVar' || n.$type === 'Const' ||
            (n.$type === 'Call' && ((n.vcall && !n.recv) || (n.name === '[]' && n.recv !== null) || (n.recv !== null && n.args.length === 0 && n.block === null && /^[a-z_]\w*$/.test(n.name))));
    }

    protected ternary(): RNode {
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

    protected range(): RNode {
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

    protected binary(minPrec: number): RNode {
        let left = this.unary();
        while (true) {
            const t = this.peek();
            if (t.kind !== 'op') break;
            const prec = BINARY[t.text];
            if (prec === undefined || prec < minPrec) break;
            this.pos++;
            this.skipNl();
            let right = t.text === '**' ? this.binaryRightOfPow() : this.binary(prec + 1);
            // As in Ruby's grammar, an operand may be an assignment: `ok && lines = File.readlines(f)`.
            if (this.isAssignmentTo(right)) right = this.assignment(right);
            left = this.binaryNode(t.text, left, right, t.line);
        }
        return left;
    }

    protected binaryRightOfPow(): RNode {
        // `2 ** -1` and right-associativity: `2 ** 3 ** 2` is 2 ** 9.
        return this.binary(BINARY['**']);
    }

    protected binaryNode(op: string, left: RNode, right: RNode, line: number): RNode {
        switch (op) {
            case '&&': return { $type: 'And', line: left.line, left, right };
            case '||': return { $type: 'Or', line: left.line, left, right };
            case '!=': return { $type: 'Call', line, recv: left, name: '!=', args: [right], block: null, blockArg: null, safe: false, vcall: false };
            case '!~': return { $type: 'Not', line, value: { $type: 'Call', line, recv: left, name: '=~', args: [right], block: null, blockArg: null, safe: false, vcall: false } };
            default: return { $type: 'Call', line, recv: left, name: op, args: [right], block: null, blockArg: null, safe: false, vcall: false };
        }
    }

    protected unary(): RNode {
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

    protected negate(lit: RNode, line: number): RNode {
        if (lit.$type === 'Int') return { ...lit, value: -lit.value };
        if (lit.$type === 'Float') return { ...lit, value: -lit.value };
        return { $type: 'Call', line, recv: lit, name: '-@', args: [], block: null, blockArg: null, safe: false, vcall: false };
    }

    protected primaryPostfix(): RNode {
        return this.postfix(this.primary());
    }

    protected postfix(start: RNode): RNode {
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
                if (n.kind === 'const' && !this.isOp('(')) { node = { $type: 'Const', line: n.line, scope: node, top: false, name: n.text, span: spanOf(t, 2 + n.text.length) }; continue; }
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
    protected isCommandReceiver(node: RNode): boolean {
        return node.$type === 'Call' && node.vcall;
    }

    /** A method call's arguments (in parentheses or, as a command, without) and its block. */
    protected call(recv: RNode | null, name: string, line: number, safe: boolean, vcallAllowed: boolean): NodeOf<'Call'> {
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
    protected startsCommandArg(): boolean {
        const t = this.peek();
        const prev = this.tokens[this.pos - 1];
        // `include?@x`: after a `?` or `!` method name an argument may follow without a space.
        if (!t.spaceBefore && prev && /[?!]$/.test(prev.text) && ['ivar', 'str', 'gvar', 'ident', 'const'].includes(t.kind)) return true;
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

    protected commandArgs(): RNode[] {
        const args: RNode[] = [];
        do {
            this.skipNl();
            args.push(this.argument());
        } while (this.acceptOp(','));
        return this.foldLabels(args);
    }

    protected args(close: string): RNode[] {
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
    protected foldLabels(args: RNode[]): RNode[] {
        const first = args.findIndex(a => a.$type === 'HashLit' && (a as NodeOf<'HashLit'> & { bare?: boolean }).bare);
        if (first < 0) return args;
        const entries: Array<[RNode, RNode] | RNode> = [];
        for (const a of args.slice(first)) if (a.$type === 'HashLit') entries.push(...a.entries); else entries.push(a);
        return [...args.slice(0, first), { $type: 'HashLit', line: args[first].line, entries }];
    }

    protected argument(): RNode {
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

    protected bareHash(entries: Array<[RNode, RNode] | RNode>, line: number): RNode {
        const h: NodeOf<'HashLit'> & { bare: boolean } = { $type: 'HashLit', line, entries, bare: true };
        return h;
    }

    protected block(): BlockNode | null {
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
                const body = this.blockBody(t.line);
                this.expectKw('end');
                return { line: t.line, ...params, body };
            });
        }
        return null;
    }

    protected blockParams(): { params: Param[]; spreads: boolean } {
        this.skipNl();
        if (this.acceptOp('||')) return { params: [], spreads: false };
        if (!this.acceptOp('|')) return { params: [], spreads: false };
        const { params, trailingComma } = this.paramList(() => this.isOp('|'));
        this.expectOp('|');
        // Ruby spreads one array argument over the block's parameters when it has more than one
        // (`|a, b|`, `|a, *r|`) or a trailing comma; `|(a, b)|` and `|*all|` take it whole.
        const spreads = params.filter(p => p.kind !== 'block').length > 1 || trailingComma;
        return { params, spreads };
    }

    /**
     * A parameter list up to `stop`. Inside brackets (`(...)`, `|...|`) newlines are insignificant,
     * as everywhere after a comma (`def initialize(a, b = 1,\n  c)`).
     */
    protected paramList(stop: () => boolean, bracketed = true): { params: Param[]; trailingComma: boolean } {
        const params: Param[] = [];
        let trailingComma = false;
        if (bracketed) this.skipNl();
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
            } else if (this.acceptOp('**')) {
                const n = this.peek().kind === 'ident' ? this.next().text : '';
                if (n) this.declare(n);
                params.push({ kind: 'keyrest', name: n });
            } else if (t.kind === 'label') {
                this.pos++;
                this.declare(t.text);
                const required = this.isOp(',') || this.isOp(')') || this.isOp('|') || this.peek().kind === 'nl' || this.isOp(';');
                params.push(required ? { kind: 'key', name: t.text } : { kind: 'key', name: t.text, value: this.ternary() });
            } else this.unexpected('a block parameter');
            if (this.acceptOp(';')) { while (this.peek().kind === 'ident') { this.declare(this.next().text); this.acceptOp(','); } }
            if (!this.acceptOp(',')) break;
            this.skipNl();
            trailingComma = true;
        }
        if (bracketed) this.skipNl();
        return { params, trailingComma };
    }

    // ---- primaries ----

}
