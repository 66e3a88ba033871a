import type { NodeOf, Param, RNode, Rescue, StrPart, Target } from './ast.js';
import { spanOf } from './ast.js';
import { lex, type RawPart, type Token } from './lexer.js';
import { rubyError } from './objects.js';
import { ExprParser } from './parser-expr.js';
import { flatNames, MODIFIERS, parseInteger, STMT_END_KW } from './parser-base.js';

/**
 * How deep `"#{"#{...}"}"` may nest: the code of each level is lexed and parsed again inside the
 * one around it, so 100,000 levels took minutes; no template or plugin nests more than a few.
 */
const MAX_INTERPOLATION_NESTING = 1000;
/** The interpolations being parsed, around the current one. */
let interpolationDepth = 0;

/**
 * How deep brackets and blocks may nest in Ruby code, as in Puppet code (src/parse): the parser
 * recurses a dozen calls per level, and 100,000 nested lambdas in a plugin ran for minutes.
 */
const MAX_NESTING = 10_000;
const OPENERS = new Set(['(', '[', '{']);
const CLOSERS = new Set([')', ']', '}']);

/** Refuses code nested beyond MAX_NESTING, at the first token past it (counted from the tokens: no parse). */
function checkNesting(tokens: readonly Token[]): void {
    let depth = 0;
    for (const t of tokens) {
        if (t.kind !== 'op') continue;
        if (CLOSERS.has(t.text) && depth > 0) depth--;
        else if (OPENERS.has(t.text) && ++depth > MAX_NESTING) {
            const e = rubyError('ScriptError', `syntax error, the code is nested more than ${MAX_NESTING} levels deep (a limit of modelc)`);
            e.line = t.line;
            throw e;
        }
    }
}


/**
 * A recursive-descent parser for the Ruby that templates hold. Local variables are known at
 * parse time, as in Ruby: a name assigned earlier (or a block parameter) is a variable,
 * anything else is a method call on the template.
 */
export class Parser extends ExprParser {
    /** `eofLine` is the line Ruby reports for an unexpected end of the template. */
    static parseProgram(tokens: Token[], eofLine?: number): RNode[] {
        checkNesting(tokens);
        const p = new Parser(tokens, eofLine);
        // A stray `end` (or `else`, ...) at the top ends the program early: Ruby expected the input to end there.
        const body = p.statements(() => p.peek().kind === 'eof' || (p.peek().kind === 'kw' && STMT_END_KW.has(p.peek().text)));
        if (p.peek().kind !== 'eof') p.unexpected('end-of-input');
        return body;
    }

    protected primary(): RNode {
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
            case 'xstr': return { $type: 'Call', line, recv: null, name: '`', args: [{ $type: 'Str', line, parts: this.parts(t.parts!) }], block: null, blockArg: null, safe: false, vcall: false };
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
                // `Integer key`, `Array "x"`: a constant followed by a spaced operand on its line is a method call.
                const n = this.peek();
                const operand = ['ident', 'str', 'int', 'float', 'ivar', 'gvar'].includes(n.kind) || (n.kind === 'kw' && ['nil', 'true', 'false', 'self'].includes(n.text));
                if (n.spaceBefore && operand) return this.call(null, t.text, line, false, false);
                return { $type: 'Const', line, scope: null, top: false, name: t.text, span: spanOf(t, t.text.length) };
            }
            case 'ident': {
                if (this.isLocal(t.text) && !(this.isOp('(') && !this.peek().spaceBefore)) {
                    // A local followed by a spaced operand is still a method call, as in Ruby
                    // (`status = status primitive` calls status(primitive)).
                    const n = this.peek();
                    if (!(n.spaceBefore && ['ident', 'const', 'str', 'int', 'float', 'ivar', 'gvar'].includes(n.kind))) return { $type: 'LVar', line, name: t.text };
                }
                if (t.text === 'lambda' || t.text === 'proc') {
                    const block = this.block();
                    if (block) return { $type: 'Lambda', line, block, proc: t.text === 'proc' };
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

    protected primaryOp(t: Token): RNode {
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
                return { $type: 'Const', line, scope: null, top: true, name: n.text, span: spanOf(t, 2 + n.text.length) };
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

    protected withScopeParams(stop: () => boolean, close: string | null): Param[] {
        const params = this.withScope(() => this.paramList(stop, close !== null).params);
        if (close) this.expectOp(close);
        return params;
    }

    protected primaryKeyword(t: Token): RNode {
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
            case 'class': return this.classDef(t);
            case 'module': {
                const path = this.constPath();
                const body = this.definitionBody(line);
                return { $type: 'ModuleDef', line, path, body };
            }
            case 'yield': {
                const c = this.call(null, 'yield', line, false, false);
                if (c.block || c.blockArg) this.unsupported(t);
                return { $type: 'Yield', line, args: c.args };
            }
            case 'super': {
                const explicit = (this.isOp('(') && !this.peek().spaceBefore) || this.startsCommandArg();
                const c = this.call(null, 'super', line, false, false);
                return { $type: 'Super', line, args: explicit ? c.args : null, block: c.block, blockArg: c.blockArg };
            }
            case 'retry': return { $type: 'Retry', line };
            case '__method__': return { $type: 'Call', line, recv: null, name: '__method__', args: [], block: null, blockArg: null, safe: false, vcall: false };
            case 'alias': {
                const to = this.methodNameToken();
                const from = this.methodNameToken();
                return { $type: 'Alias', line, to, from };
            }
            case 'undef':
                return this.unsupported(t);
            case 'not':
                return { $type: 'Not', line, value: this.expr() };
        }
        this.pos--;
        return this.unexpected();
    }

    /** The rest of an `if`/`unless`/`elsif` up to (not including) the shared `end`. */
    protected ifRest(line: number, negate: boolean): RNode {
        const cond = this.condition('then');
        const then = this.bodyUntil('elsif', 'else', 'end');
        let otherwise: RNode[] = [];
        const e = this.peek();
        if (!negate && this.acceptKw('elsif')) otherwise = [this.ifRest(e.line, false)];
        else if (this.acceptKw('else')) otherwise = this.bodyUntil('end');
        return negate ? { $type: 'If', line, cond, then: otherwise, else: then } : { $type: 'If', line, cond, then, else: otherwise };
    }

    /** `def name(params) ... end`, `def self.name`, `def name=(v)`, `def ==(other)`. */
    protected def(t: Token): RNode {
        let singleton: RNode | null = null;
        const first = this.peek();
        if ((this.isKw('self') || first.kind === 'const') && this.isOp('.', this.peek(1))) {
            this.pos += 2;
            singleton = first.kind === 'kw' ? { $type: 'Self', line: first.line } : { $type: 'Const', line: first.line, scope: null, top: false, name: first.text };
        }
        const n = this.next();
        let name = n.text;
        if (n.kind === 'op' && n.text === '[') { this.expectOp(']'); name = this.isOp('=') && !this.peek().spaceBefore ? (this.pos++, '[]=') : '[]'; }
        else if (n.kind === 'op' && ['==', '!=', '<=>', '===', '=~', '<', '<=', '>', '>=', '+', '-', '*', '/', '%', '**', '<<', '>>', '!', '&', '|', '^', '~'].includes(n.text)) {
            if ((n.text === '+' || n.text === '-' || n.text === '!' || n.text === '~') && this.isOp('@')) this.pos++;
        } else if (n.kind !== 'ident' && n.kind !== 'const' && n.kind !== 'kw') this.unexpected();
        else if (this.isOp('=') && !this.peek().spaceBefore && (this.isOp('(', this.peek(1)) || this.peek(1).spaceBefore)) { this.pos++; name += '='; }
        const params = this.withScope(() => {
            const list = this.acceptOp('(') ? this.paramList(() => this.isOp(')')).params : this.peek().kind === 'ident' ? this.paramList(() => this.peek().kind === 'nl' || this.isOp(';'), false).params : [];
            if (this.isOp(')')) this.pos++;
            return list;
        });
        const saved = this.scopes.splice(0);
        this.scopes.push(new Set(params.flatMap(flatNames)));
        try {
            const body = this.beginBody(t.line);
            this.expectKw('end');
            return { $type: 'Def', line: t.line, name, params, body, singleton };
        } finally { this.scopes.splice(0, this.scopes.length, ...saved); }
    }

    /** `class Name < Super ... end` or `class << self ... end`. */
    private classDef(t: Token): RNode {
        const line = t.line;
        if (this.acceptOp('<<')) {
            const target = this.expr();
            const body = this.definitionBody(line);
            return { $type: 'SingletonClass', line, target, body };
        }
        const path = this.constPath();
        const superclass = this.acceptOp('<') ? this.expr() : null;
        const body = this.definitionBody(line);
        return { $type: 'ClassDef', line, path, superclass, body };
    }

    /** `A`, `A::B`, `::A::B`: the name a class or module statement defines. */
    private constPath(): NodeOf<'Const'> {
        const top = this.acceptOp('::');
        let t = this.next();
        if (t.kind !== 'const') { this.pos--; this.unexpected('a constant name'); }
        let node: NodeOf<'Const'> = { $type: 'Const', line: t.line, scope: null, top, name: t.text };
        while (this.isOp('::') && !this.peek().spaceBefore) {
            this.pos++;
            t = this.next();
            if (t.kind !== 'const') { this.pos--; this.unexpected('a constant name'); }
            node = { $type: 'Const', line: t.line, scope: node, top: false, name: t.text };
        }
        return node;
    }

    /** A class or module body: a fresh local scope, up to its `end`. */
    private definitionBody(line: number): RNode {
        const saved = this.scopes.splice(0);
        this.scopes.push(new Set());
        try {
            const body = this.beginBody(line);
            this.expectKw('end');
            return body;
        } finally { this.scopes.splice(0, this.scopes.length, ...saved); }
    }

    private methodNameToken(): string {
        const n = this.next();
        if (n.kind === 'sym') return (n.parts ?? []).filter((p): p is string => typeof p === 'string').join('');
        if (n.kind === 'ident' || n.kind === 'const' || n.kind === 'kw' || n.kind === 'op') return n.text;
        this.pos--;
        return this.unexpected('a method name');
    }

    protected blockBody(line: number): RNode[] {
        const node = this.beginBody(line);
        return node.$type === 'Begin' && node.rescues.length === 0 && node.ensure === null && node.elseBody === null ? node.body : [node];
    }

    protected unsupported(t: Token): never {
        const e = rubyError('NotImplementedError', `'${t.text}' is not supported in templates`);
        e.line = t.line;
        e.col = t.col;
        e.unsupported = t.text;
        throw e;
    }

    protected valueEnds(): boolean {
        const t = this.peek();
        return t.kind === 'nl' || t.kind === 'eof' || t.kind === 'erbtext' || t.kind === 'erbend' || this.isOp(';') || this.isOp('}') || this.isOp(')') || (t.kind === 'kw' && (STMT_END_KW.has(t.text) || MODIFIERS.has(t.text)));
    }

    protected exprOrList(): RNode {
        const first = this.expr();
        if (!this.isOp(',')) return first;
        const elements = [first];
        while (this.acceptOp(',')) elements.push(this.argument());
        return { $type: 'ArrayLit', line: first.line, elements };
    }

    protected condition(sep: string): RNode {
        const cond = this.exprStatement();
        this.acceptKw(sep);
        this.skipTerms();
        return cond;
    }

    protected beginBody(line: number): RNode {
        const body = this.bodyUntil('rescue', 'else', 'ensure', 'end');
        const rescues: Rescue[] = [];
        while (this.acceptKw('rescue')) {
            const classes: RNode[] = [];
            let variable: Target | null = null;
            while (!this.isOp('=>') && !this.isKw('then') && this.peek().kind !== 'nl' && !this.isOp(';')) {
                classes.push(this.isOp('*') ? this.argument() : this.ternary());
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
    protected parts(raw: RawPart[]): StrPart[] {
        return raw.map(p => {
            if (typeof p === 'string') return p;
            // Each level lexes its code again: nesting past the limit would cost its square.
            if (interpolationDepth >= MAX_INTERPOLATION_NESTING) {
                const e = rubyError('ScriptError', `syntax error, string interpolations nested more than ${MAX_INTERPOLATION_NESTING} levels deep (a limit of modelc)`);
                e.line = p.line;
                throw e;
            }
            interpolationDepth++;
            try {
                const state = { locals: new Set<string>([...this.scopes.flatMap(s => [...s])]) };
                const sub = new Parser(lex(p.code, p.line, state));
                sub.scopes.splice(0, 1, ...this.scopes.map(s => new Set(s)));
                const body = sub.statements(() => sub.peek().kind === 'eof');
                if (sub.peek().kind !== 'eof') sub.unexpected();
                return body;
            } finally {
                interpolationDepth--;
            }
        });
    }
}
