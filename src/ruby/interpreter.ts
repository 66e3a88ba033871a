import { assertUnreachable } from '../common/index.js';
import { PDefault, PRegexp } from '../values/index.js';
import type { BlockNode, NodeOf, Param, RNode, StrPart, Target } from './ast.js';
import { inspect } from './inspect.js';
import { frozenObjects } from './methods/kernel.js';
import './methods/index.js';
import { stringMutators } from './methods/string.js';
import { Classes, ClassClass, classOf, Exceptions, Float, Integer, RClass, RMatchData, RObject, RProc, RRange, RSymbol, RubyError, rubyError, sym, truthy, type CallSite, type RHash, type RValue } from './objects.js';
import { rEquals, caseEquals } from './compare.js';
import { hashStore } from './methods/hash.js';
import { globalRegExp, regexpOf } from './regexp.js';

/** Local variables of a template, a block or a lambda; blocks see (and assign) their outer locals. */
class Frame {
    private readonly vars = new Map<string, RValue>();
    constructor(readonly parent: Frame | null) {}
    get(name: string): RValue {
        for (let f: Frame | null = this; f; f = f.parent) if (f.vars.has(name)) return f.vars.get(name) as RValue;
        return null;
    }
    set(name: string, v: RValue): void {
        for (let f: Frame | null = this; f; f = f.parent) if (f.vars.has(name)) { f.vars.set(name, v); return; }
        this.vars.set(name, v);
    }
    declare(name: string, v: RValue): void {
        this.vars.set(name, v);
    }
    has(name: string): boolean {
        return this.vars.has(name);
    }
}

/** `break` and `next` unwind to the block or loop that is innermost when they run. */
class BreakSignal { constructor(readonly target: object, readonly value: RValue) {} }
class NextSignal { constructor(readonly target: object, readonly value: RValue) {} }
class ReturnSignal { constructor(readonly value: RValue) {} }

/** The methods a host object (the template wrapper, the scope) answers beyond its class's. */
export type DynamicMethods = (self: RObject, name: string, args: RValue[], block: RProc | undefined, call: CallSite) => RValue | undefined;

export interface InterpreterOptions {
    readonly self: RObject;
    readonly ivars: Map<string, RValue>;
    readonly dynamic: DynamicMethods;
    /** Constants beyond Ruby's core classes (Puppet's own names). */
    readonly constants?: ReadonlyMap<string, RValue>;
}

const CONSTANTS = new Map<string, RValue>([
    ...Object.values(Classes).map(c => [c.name, c] as [string, RValue]),
    ...Object.values(Exceptions).map(c => [c.name, c] as [string, RValue]),
    ['Integer', Integer], ['Float', Float], ['Class', ClassClass], ['Fixnum', Integer], ['Bignum', Integer]
]);

/** Runs a parsed template: statements in order, text and `<%= %>` values appended to the output. */
export class Interpreter implements CallSite {
    private readonly out: string[] = [];
    private readonly targets: object[] = [];
    private lastMatch: RMatchData | null = null;
    private readonly globals = new Map<string, RValue>();
    /** Methods the template defined with `def`. */
    private readonly defs = new Map<string, NodeOf<'Def'>>();
    /** Locals holding a Puppet string (frozen in Ruby); ivars are frozen until the template assigns them. */
    private readonly frozenNames = new Set<string>();
    private readonly assignedIvars = new Set<string>();
    private line = 1;

    constructor(private readonly options: InterpreterOptions) {}

    /** The template's output. A RubyError leaves with the line it happened on. */
    run(program: RNode[]): string {
        const frame = new Frame(null);
        try {
            for (const node of program) this.eval(node, frame);
        } catch (e) {
            if (e instanceof BreakSignal || e instanceof NextSignal || e instanceof ReturnSignal) throw this.error('LocalJumpError', 'break from proc-closure');
            if (e instanceof RubyError && e.line === undefined) e.line = this.line;
            throw e;
        }
        return this.out.join('');
    }

    private error(cls: keyof typeof Exceptions, message: string): RubyError {
        const e = rubyError(cls, message);
        e.line = this.line;
        return e;
    }

    private body(nodes: readonly RNode[], frame: Frame): RValue {
        let v: RValue = null;
        for (const n of nodes) v = this.eval(n, frame);
        return v;
    }

    eval(node: RNode, frame: Frame): RValue {
        this.line = node.line;
        switch (node.$type) {
            case 'Nil': return null;
            case 'Bool': return node.value;
            case 'Self': return this.options.self;
            case 'Int': return node.value;
            case 'Float': return node.value;
            case 'Str': return this.interpolate(node.parts, frame);
            case 'Sym': return sym(this.interpolate(node.parts, frame));
            case 'Regex': return regexpOf(this.interpolate(node.parts, frame), node.flags);
            case 'ArrayLit': return this.evalArgs(node.elements, frame);
            case 'HashLit': return this.hash(node, frame);
            case 'RangeLit': return new RRange(node.from ? this.eval(node.from, frame) : null, node.to ? this.eval(node.to, frame) : null, node.exclusive);
            case 'LVar': return frame.get(node.name);
            case 'IVar': return this.options.ivars.get(node.name) ?? null;
            case 'GVar': return this.globalVar(node.name);
            case 'NthRef': return this.lastMatch?.group(node.n) ?? null;
            case 'Const': return this.constant(node, frame);
            case 'Call': return this.call(node, frame);
            case 'Splat': return this.splat(this.eval(node.value, frame));
            case 'DoubleSplat': return this.eval(node.value, frame);
            case 'Not': return !truthy(this.eval(node.value, frame));
            case 'And': { const l = this.eval(node.left, frame); return truthy(l) ? this.eval(node.right, frame) : l; }
            case 'Or': { const l = this.eval(node.left, frame); return truthy(l) ? l : this.eval(node.right, frame); }
            case 'Defined': return this.defined(node.value, frame);
            case 'If': return this.body(truthy(this.eval(node.cond, frame)) ? node.then : node.else, frame);
            case 'While': return this.loop(node, frame);
            case 'For': return this.forLoop(node, frame);
            case 'Case': return this.caseOf(node, frame);
            case 'Assign': {
                const v = this.eval(node.value, frame);
                if (node.target.$type === 'LVar') {
                    if (typeof v === 'string' && this.isFrozenString(node.value)) this.frozenNames.add(node.target.name);
                    else this.frozenNames.delete(node.target.name);
                }
                this.assign(node.target, v, frame);
                return v;
            }
            case 'OpAssign': return this.opAssign(node, frame);
            case 'MultiAssign': {
                const v = this.eval(node.value, frame);
                this.destructure(node.targets, node.splat, v, frame);
                return v;
            }
            case 'Begin': return this.begin(node, frame);
            case 'RescueMod':
                try { return this.eval(node.body, frame); } catch (e) {
                    if (e instanceof RubyError && e.cls.isSubclassOf(Exceptions.StandardError)) return this.eval(node.rescue, frame);
                    throw e;
                }
            case 'Break': throw new BreakSignal(this.currentTarget(), node.value ? this.eval(node.value, frame) : null);
            case 'Next': throw new NextSignal(this.currentTarget(), node.value ? this.eval(node.value, frame) : null);
            case 'Redo': throw this.error('NotImplementedError', "'redo' is not supported in templates");
            case 'Return': throw new ReturnSignal(node.value ? this.eval(node.value, frame) : null);
            case 'Def': this.defs.set(node.name, node); return sym(node.name);
            case 'Seq': return this.body(node.body, frame);
            case 'Lambda': return this.makeProc(node.block, frame, true);
            case 'Unsupported': throw this.error('NotImplementedError', `${node.what} is not supported in templates`);
            case 'ErbText': this.out.push(node.text); return null;
            case 'ErbInsert': { const v = this.body(node.body, frame); this.out.push(this.toS(v)); return null; }
            default: return assertUnreachable(node);
        }
    }

    private currentTarget(): object {
        const t = this.targets[this.targets.length - 1];
        if (!t) throw this.error('LocalJumpError', 'break from proc-closure');
        return t;
    }

    private interpolate(parts: StrPart[], frame: Frame): string {
        if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
        let s = '';
        for (const p of parts) s += typeof p === 'string' ? p : this.toS(this.body(p, frame));
        return s;
    }

    toS(v: RValue): string {
        if (typeof v === 'string') return v;
        const r = this.send(v, 'to_s', []);
        return typeof r === 'string' ? r : inspect(v);
    }

    private hash(node: NodeOf<'HashLit'>, frame: Frame): RHash {
        const h: RHash = new Map();
        for (const e of node.entries) {
            if (Array.isArray(e)) {
                let k = this.eval(e[0], frame);
                // Ruby dups and freezes string keys; strings are values here already.
                if (k instanceof PDefault) k = sym('default');
                hashStore(h, k, this.eval(e[1], frame));
            } else {
                const other = this.eval(e, frame);
                if (!(other instanceof Map)) throw this.error('TypeError', `no implicit conversion of ${classOf(other).name} into Hash`);
                for (const [k, v] of other) hashStore(h, k, v);
            }
        }
        return h;
    }

    private splat(v: RValue): RValue[] {
        if (Array.isArray(v)) return v;
        if (v === null) return [];
        if (v instanceof Map) return [...v].map(([k, x]) => [k, x]);
        if (v instanceof RRange) return this.send(v, 'to_a', []) as RValue[];
        return [v];
    }

    private evalArgs(nodes: readonly RNode[], frame: Frame): RValue[] {
        const out: RValue[] = [];
        for (const n of nodes) {
            if (n.$type === 'Splat') out.push(...this.splat(this.eval(n.value, frame)));
            else out.push(this.eval(n, frame));
        }
        return out;
    }

    private globalVar(name: string): RValue {
        switch (name) {
            case '$~': return this.lastMatch;
            case '$&': return this.lastMatch?.group(0) ?? null;
            case '$`': return this.lastMatch ? this.lastMatch.input.slice(0, this.lastMatch.match.index) : null;
            case "$'": return this.lastMatch ? this.lastMatch.input.slice(this.lastMatch.match.index + this.lastMatch.match[0].length) : null;
            case '$;': case '$,': return null;
            case '$/': return '\n';
            default: return this.globals.get(name) ?? null;
        }
    }

    private constant(node: NodeOf<'Const'>, frame: Frame): RValue {
        let path = node.name;
        if (node.scope) {
            const outer = this.eval(node.scope, frame);
            if (!(outer instanceof RClass)) throw this.error('TypeError', `${inspect(outer)} is not a class/module`);
            path = `${outer.name}::${node.name}`;
        }
        const v = this.options.constants?.get(path) ?? CONSTANTS.get(path);
        // An unqualified name is looked up in the template's class first, as Ruby names it.
        if (v === undefined) throw this.error('NameError', `uninitialized constant ${node.scope ? path : `${classOf(this.options.self).name}::${path}`}`);
        return v;
    }

    private defined(node: RNode, frame: Frame): RValue {
        switch (node.$type) {
            case 'LVar': return 'local-variable';
            case 'IVar': return this.options.ivars.has(node.name) ? 'instance-variable' : null;
            case 'GVar': return this.globals.has(node.name) ? 'global-variable' : null;
            case 'Const': try { this.constant(node, frame); return 'constant'; } catch { return null; }
            case 'Call':
                if (node.recv === null) return this.respondsTo(this.options.self, node.name) ? 'method' : null;
                try { return this.respondsTo(this.eval(node.recv, frame), node.name) ? 'method' : null; } catch { return null; }
            case 'Nil': case 'Self': case 'Bool': return 'expression';
            case 'Assign': case 'OpAssign': case 'MultiAssign': return 'assignment';
            default: return 'expression';
        }
    }

    respondsTo(v: RValue, name: string): boolean {
        if (classOf(v).findMethod(name)) return true;
        return v instanceof RObject && this.options.dynamic(v, `respond_to?:${name}`, [], undefined, this) === true;
    }

    /** Runs a loop: `break` leaves it with its value, `next` ends the iteration `iterate` is running. */
    private asLoop(run: (iterate: (body: readonly RNode[], frame: Frame) => void) => RValue): RValue {
        const token = {};
        const iterate = (body: readonly RNode[], frame: Frame): void => {
            try { this.body(body, frame); } catch (e) {
                if (!(e instanceof NextSignal && e.target === token)) throw e;
            }
        };
        this.targets.push(token);
        try {
            return run(iterate);
        } catch (e) {
            if (e instanceof BreakSignal && e.target === token) return e.value;
            throw e;
        } finally { this.targets.pop(); }
    }

    private loop(node: NodeOf<'While'>, frame: Frame): RValue {
        return this.asLoop(iterate => {
            let first = node.doWhile;
            while (first || truthy(this.eval(node.cond, frame)) !== node.until) {
                first = false;
                iterate(node.body, frame);
            }
            return null;
        });
    }

    private forLoop(node: NodeOf<'For'>, frame: Frame): RValue {
        const iter = this.eval(node.iter, frame);
        return this.asLoop(iterate => {
            const items = iter instanceof Map ? [...iter].map(([k, v]) => [k, v]) : this.splatIterable(iter);
            for (const item of items) {
                if (node.target.$type === 'Nested') this.destructure(node.target.targets, node.target.splat, item, frame);
                else this.assign(node.target, item, frame);
                iterate(node.body, frame);
            }
            return iter;
        });
    }

    private splatIterable(v: RValue): RValue[] {
        if (Array.isArray(v)) return v;
        if (v instanceof RRange) return this.send(v, 'to_a', []) as RValue[];
        throw this.error('NoMethodError', `undefined method \`each' for ${describe(v)}`);
    }

    private caseOf(node: NodeOf<'Case'>, frame: Frame): RValue {
        const subject = node.subject ? this.eval(node.subject, frame) : undefined;
        for (const w of node.whens) {
            for (const vn of w.values) {
                const candidates = vn.$type === 'Splat' ? this.splat(this.eval(vn.value, frame)) : [this.eval(vn, frame)];
                for (const c of candidates) {
                    const hit = subject === undefined ? truthy(c) : this.caseEquals(c, subject);
                    if (hit) return this.body(w.body, frame);
                }
            }
        }
        return node.else ? this.body(node.else, frame) : null;
    }

    /** `pattern === value`, as `case/when` and `grep` use it. */
    caseEquals(pattern: RValue, value: RValue): boolean {
        if (pattern instanceof PRegexp) {
            if (typeof value !== 'string' && !(value instanceof RSymbol)) return false;
            return this.match(pattern, typeof value === 'string' ? value : value.name) !== null;
        }
        return caseEquals(pattern, value, (a, b) => this.send(a, '==', [b]) === true);
    }

    /** Runs a regexp against a string, setting `$~` as Ruby does. */
    match(re: PRegexp, s: string, from = 0): RMatchData | null {
        const r = globalRegExp(re);
        r.lastIndex = from;
        const m = r.exec(s);
        this.lastMatch = m ? new RMatchData(m, s) : null;
        return this.lastMatch;
    }

    setLastMatch(m: RMatchData | null): void {
        this.lastMatch = m;
    }

    private opAssign(node: NodeOf<'OpAssign'>, frame: Frame): RValue {
        // Receivers and index arguments are evaluated once.
        const t = node.target;
        let get: () => RValue;
        let set: (v: RValue) => void;
        switch (t.$type) {
            case 'LVar': get = () => frame.get(t.name); set = v => frame.set(t.name, v); break;
            case 'IVar': get = () => this.options.ivars.get(t.name) ?? null; set = v => { this.options.ivars.set(t.name, v); }; break;
            case 'GVar': get = () => this.globals.get(t.name) ?? null; set = v => { this.globals.set(t.name, v); }; break;
            case 'Index': {
                const recv = this.eval(t.recv, frame);
                const args = this.evalArgs(t.args, frame);
                get = () => this.send(recv, '[]', args);
                set = v => { this.send(recv, '[]=', [...args, v]); };
                break;
            }
            case 'Attr': {
                const recv = this.eval(t.recv, frame);
                get = () => this.send(recv, t.name, []);
                set = v => { this.send(recv, `${t.name}=`, [v]); };
                break;
            }
            case 'Nested': throw this.error('ScriptError', 'syntax error, unexpected operator-assignment');
        }
        const current = get();
        let v: RValue;
        if (node.op === '||') { if (truthy(current)) return current; v = this.eval(node.value, frame); } else if (node.op === '&&') { if (!truthy(current)) return current; v = this.eval(node.value, frame); } else v = this.send(current, node.op, [this.eval(node.value, frame)]);
        set(v);
        return v;
    }

    assign(t: Target, v: RValue, frame: Frame): void {
        switch (t.$type) {
            case 'LVar': frame.set(t.name, v); return;
            case 'IVar': this.assignedIvars.add(t.name); this.options.ivars.set(t.name, v); return;
            case 'GVar': this.globals.set(t.name, v); return;
            case 'Index': { const recv = this.eval(t.recv, frame); this.send(recv, '[]=', [...this.evalArgs(t.args, frame), v]); return; }
            case 'Attr': this.send(this.eval(t.recv, frame), `${t.name}=`, [v]); return;
            case 'Nested': this.destructure(t.targets, t.splat, v, frame); return;
            default: assertUnreachable(t);
        }
    }

    private destructure(targets: readonly Target[], splat: number, v: RValue, frame: Frame): void {
        const items = Array.isArray(v) ? v : v === null ? [null] : [v];
        if (splat < 0) { targets.forEach((t, i) => this.assign(t, items[i] ?? null, frame)); return; }
        const after = targets.length - splat - 1;
        targets.forEach((t, i) => {
            if (i < splat) this.assign(t, items[i] ?? null, frame);
            else if (i === splat) this.assign(t, items.slice(splat, Math.max(splat, items.length - after)), frame);
            else this.assign(t, items[items.length - (targets.length - i)] ?? null, frame);
        });
    }

    private begin(node: NodeOf<'Begin'>, frame: Frame): RValue {
        try {
            let v: RValue;
            try {
                v = this.body(node.body, frame);
            } catch (e) {
                if (!(e instanceof RubyError)) throw e;
                for (const r of node.rescues) {
                    const classes = r.classes.length === 0 ? [Exceptions.StandardError] : this.evalArgs(r.classes, frame);
                    if (classes.some(c => c instanceof RClass && e.cls.isSubclassOf(c))) {
                        if (r.variable) this.assign(r.variable, new RObject(e.cls, `#<${e.cls.name}: ${e.message}>`, e.message), frame);
                        return this.body(r.body, frame);
                    }
                }
                throw e;
            }
            return node.elseBody ? this.body(node.elseBody, frame) : v;
        } finally {
            if (node.ensure) this.body(node.ensure, frame);
        }
    }

    // ---- calls ----

    private call(node: NodeOf<'Call'>, frame: Frame): RValue {
        if (node.recv === null && node.vcall && node.name === 'block_given?') return false;
        const recv = node.recv === null ? this.options.self : this.eval(node.recv, frame);
        if (node.safe && recv === null) return null;
        const args = this.evalArgs(node.args, frame);
        let block: RProc | undefined;
        if (node.block) block = this.makeProc(node.block, frame, false);
        else if (node.blockArg) block = this.toProc(this.eval(node.blockArg, frame));
        this.line = node.line;
        if (node.name === 'frozen?' && node.recv !== null && args.length === 0 && (typeof recv === 'string' || recv instanceof Map)) {
            return typeof recv === 'string' ? this.isFrozenString(node.recv) : (node.recv.$type === 'IVar' && node.recv.name === 'trusted') || frozenObjects.has(recv);
        }
        if (typeof recv === 'string' && node.recv !== null && Object.hasOwn(stringMutators, node.name)) {
            if (this.isFrozenString(node.recv)) throw this.error('FrozenError', `can't modify frozen String: ${inspect(recv)}`);
            // Strings are immutable here: an in-place method gives its variable the new string.
            const { value, result } = stringMutators[node.name](recv, args, block, this);
            const target = node.recv;
            if (target.$type === 'LVar' || target.$type === 'IVar' || target.$type === 'GVar') this.assign(target, value, frame);
            return result;
        }
        try {
            return this.send(recv, node.name, args, block, node.recv === null, node.vcall);
        } catch (e) {
            if (block && e instanceof BreakSignal && e.target === block) return e.value;
            throw e;
        }
    }

    /** Puppet's strings are frozen; literals and the results of methods are not. */
    private isFrozenString(expr: RNode): boolean {
        switch (expr.$type) {
            case 'IVar': return !this.assignedIvars.has(expr.name);
            case 'LVar': return this.frozenNames.has(expr.name);
            case 'Call': return expr.name === 'freeze' || (expr.name === 'to_s' && expr.recv?.$type === 'Sym');
            default: return false;
        }
    }

    private toProc(v: RValue): RProc | undefined {
        if (v === null) return undefined;
        if (v instanceof RProc) return v;
        if (v instanceof RSymbol) {
            return new RProc(args => {
                if (args.length === 0) throw this.error('ArgumentError', 'no receiver given');
                return this.send(args[0], v.name, args.slice(1));
            }, -2, true);
        }
        if (v instanceof Map) return new RProc(args => (v as RHash).get(args[0]) ?? null, 1, true);
        throw this.error('TypeError', `wrong argument type ${classOf(v).name} (expected Proc)`);
    }

    private makeProc(block: BlockNode, frame: Frame, isLambda: boolean): RProc {
        const required = block.params.filter(p => p.kind === 'req' || p.kind === 'nested').length;
        const arity = block.params.some(p => p.kind === 'rest' || p.kind === 'opt') ? -(required + 1) : required;
        const proc: RProc = new RProc(args => {
            const inner = new Frame(frame);
            let values = args;
            if (isLambda) {
                const max = block.params.some(p => p.kind === 'rest') ? Infinity : block.params.filter(p => p.kind !== 'block').length;
                if (args.length < required || args.length > max) throw this.error('ArgumentError', `wrong number of arguments (given ${args.length}, expected ${max === required ? required : max === Infinity ? `${required}+` : `${required}..${max}`})`);
            } else if (block.spreads && args.length === 1 && Array.isArray(args[0])) values = args[0];
            this.bindParams(block.params, values, inner);
            this.targets.push(proc);
            try {
                return this.body(block.body, inner);
            } catch (e) {
                if (e instanceof NextSignal && e.target === proc) return e.value;
                if (isLambda && e instanceof BreakSignal && e.target === proc) return e.value;
                if (isLambda && e instanceof ReturnSignal) return e.value;
                throw e;
            } finally { this.targets.pop(); }
        }, arity, isLambda, block);
        return proc;
    }

    private bindParams(params: readonly Param[], values: readonly RValue[], frame: Frame): void {
        const required = params.filter(p => p.kind === 'req' || p.kind === 'nested').length;
        let optional = Math.max(0, values.length - required);
        let i = 0;
        const restAt = params.findIndex(p => p.kind === 'rest');
        const afterRest = restAt < 0 ? 0 : params.slice(restAt + 1).filter(p => p.kind === 'req' || p.kind === 'nested').length;
        params.forEach(p => {
            switch (p.kind) {
                case 'req': frame.declare(p.name, values[i++] ?? null); break;
                case 'nested': {
                    const v = values[i++] ?? null;
                    this.bindParams(p.nested ?? [], Array.isArray(v) ? v : [v], frame);
                    break;
                }
                case 'opt':
                    if (optional > 0) { frame.declare(p.name, values[i++] ?? null); optional--; } else frame.declare(p.name, this.eval(p.value!, frame));
                    break;
                case 'rest': {
                    const n = Math.max(0, values.length - i - afterRest);
                    if (p.name) frame.declare(p.name, values.slice(i, i + n));
                    i += n;
                    break;
                }
                case 'block': if (!frame.has(p.name)) frame.declare(p.name, null); break;
            }
        });
    }

    yield(block: RProc, args: RValue[]): RValue {
        return block.call(args);
    }

    send(recv: RValue, name: string, args: RValue[], block?: RProc, fcall = false, vcall = false): RValue {
        if (recv === this.options.self && this.defs.has(name)) return this.invokeDef(this.defs.get(name)!, args, block);
        const cls = classOf(recv);
        if (recv instanceof RClass) {
            const s = recv.findStatic(name);
            if (s) return s(recv, args, block, this);
        }
        const m = cls.findMethod(name);
        if (m && (fcall || !KERNEL_PRIVATE.has(name))) return m(recv, args, block, this);
        if (recv instanceof RObject) {
            const r = this.options.dynamic(recv, name, args, block, this);
            if (r !== undefined) return r;
        }
        if (vcall) throw this.error('NameError', `undefined local variable or method \`${name}' for ${describe(recv)}`);
        if (m) throw this.error('NoMethodError', `private method \`${name}' called for ${describe(recv)}`);
        throw this.error('NoMethodError', `undefined method \`${name}' for ${describe(recv)}`);
    }

    private invokeDef(def: NodeOf<'Def'>, args: RValue[], block: RProc | undefined): RValue {
        const required = def.params.filter(p => p.kind === 'req' || p.kind === 'nested').length;
        const max = def.params.some(p => p.kind === 'rest') ? Infinity : def.params.filter(p => p.kind !== 'block').length;
        if (args.length < required || args.length > max) throw this.error('ArgumentError', `wrong number of arguments (given ${args.length}, expected ${max === required ? required : max === Infinity ? `${required}+` : `${required}..${max}`})`);
        const frame = new Frame(null);
        this.bindParams(def.params, args, frame);
        const blockParam = def.params.find(p => p.kind === 'block');
        if (blockParam) frame.declare(blockParam.name, block ?? null);
        const saved = this.targets.splice(0);
        try {
            return this.eval(def.body, frame);
        } catch (e) {
            if (e instanceof ReturnSignal) return e.value;
            throw e;
        } finally { this.targets.splice(0, this.targets.length, ...saved); }
    }

    equals(a: RValue, b: RValue): boolean {
        return rEquals(a, b, (x, y) => this.send(x, '==', [y]) === true);
    }
}

/** Kernel's functions are private: `raise 'x'` works, `1.raise` does not. */
const KERNEL_PRIVATE = new Set(['raise', 'fail', 'format', 'sprintf', 'Array', 'String', 'Integer', 'Float', 'Hash', 'puts', 'print', 'p', 'pp', 'require', 'lambda', 'proc', 'loop', 'catch', 'throw', 'rand', 'sleep', 'warn']);

/** How NoMethodError names the receiver: `nil:NilClass`, `"a":String`, `[1]:Array`. */
export function describe(v: RValue): string {
    if (v === null) return 'nil:NilClass';
    if (v === true) return 'true:TrueClass';
    if (v === false) return 'false:FalseClass';
    if (v instanceof RObject) return v.inspectText;
    if (v instanceof RClass) return `${v.name}:${v.isModule ? 'Module' : 'Class'}`;
    return `${inspect(v)}:${classOf(v).name}`;
}

