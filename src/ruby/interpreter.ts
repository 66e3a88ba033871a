import { assertUnreachable } from '../common/index.js';
import { PDefault, PObjectValue, PRegexp } from '../values/index.js';
import type { BlockNode, NodeOf, Param, RNode, StrPart, Target } from './ast.js';
import { DEFAULT_LIMITS, Definitions, takeKeywords, type Limits } from './definitions.js';
import { BreakSignal, Frame, NextSignal, RetrySignal, ReturnSignal, type Ctx, type MethodFrame } from './frame.js';
import { inspect } from './inspect.js';
import { frozenObjects } from './methods/kernel.js';
import './methods/index.js';
import { stringMutators } from './methods/string.js';
import { Classes, classOf, Exceptions, Kernel, RClass, RMatchData, RObject, RProc, RRange, RSymbol, RubyError, sym, truthy, type CallSite, type RHash, type RValue } from './objects.js';
import { rEquals, caseEquals } from './compare.js';
import { hashStore } from './methods/hash.js';
import { caseOf, forLoop, whileLoop } from './control.js';
import { opAssign } from './op-assign.js';
import { globalRegExp, regexpOf } from './regexp.js';

/** The methods a host object (the template wrapper, the scope) answers beyond its class's. */
export type DynamicMethods = (self: RObject | PObjectValue, name: string, args: RValue[], block: RProc | undefined, call: CallSite) => RValue | undefined;

export interface InterpreterOptions {
    readonly self: RObject;
    /** The template's instance variables (a plugin's main object keeps its own). */
    readonly ivars?: Map<string, RValue>;
    readonly dynamic: DynamicMethods;
    /** Constants beyond Ruby's core classes (Puppet's own names). */
    readonly constants?: ReadonlyMap<string, RValue>;
    /** A constant nothing defines: a value, or undefined for Ruby's NameError. */
    readonly constMissing?: (path: string) => RValue | undefined;
    readonly limits?: Limits;
}

/** Runs parsed Ruby: a template's statements (text appended to the output) or a plugin file's. */
export class Interpreter extends Definitions {
    private readonly out: string[] = [];
    private readonly targets: object[] = [];
    private lastMatch: RMatchData | null = null;
    private readonly globals = new Map<string, RValue>();
    /** Locals holding a Puppet string (frozen in Ruby); ivars are frozen until the template assigns them. */
    private readonly frozenNames = new Set<string>();
    private readonly assignedIvars = new Set<string>();
    /** The exceptions being handled (`$!`, and what a bare `raise` re-raises). */
    private readonly handling: RubyError[] = [];

    constructor(private readonly options: InterpreterOptions) {
        super(options.limits ?? DEFAULT_LIMITS, options.constants, options.constMissing);
        if (options.ivars) for (const [k, v] of options.ivars) options.self.ivars.set(k, v);
    }

    /** The context of top-level code: `self` is the host object, definitions go to Object. */
    topContext(file?: string): Ctx {
        return { self: this.options.self, defTarget: null, singletonDefs: false, nesting: [], block: undefined, method: null, file };
    }

    /** The template's output. A RubyError leaves with the line it happened on. */
    run(program: RNode[]): string {
        this.runBody(program, new Frame(null, this.topContext()));
        return this.out.join('');
    }

    /** Runs top-level code of a plugin file; the value of its last statement. */
    runBody(program: readonly RNode[], frame: Frame): RValue {
        try {
            return this.body(program, frame);
        } catch (e) {
            if (e instanceof BreakSignal || e instanceof NextSignal || e instanceof ReturnSignal) throw this.error('LocalJumpError', 'break from proc-closure');
            if (e instanceof RubyError && e.line === undefined) { e.line = this.line; e.file = this.file; }
            throw e;
        }
    }

    body(nodes: readonly RNode[], frame: Frame): RValue {
        let v: RValue = null;
        for (const n of nodes) v = this.eval(n, frame);
        return v;
    }

    eval(node: RNode, frame: Frame): RValue {
        this.line = node.line;
        this.file = frame.ctx.file;
        this.tick();
        switch (node.$type) {
            case 'Nil': return null;
            case 'Bool': return node.value;
            case 'Self': return frame.ctx.self;
            case 'Int': return node.value;
            case 'Float': return node.value;
            case 'Str': return this.interpolate(node.parts, frame);
            case 'Sym': return sym(this.interpolate(node.parts, frame));
            case 'Regex': return regexpOf(this.interpolate(node.parts, frame), node.flags);
            case 'ArrayLit': return this.evalArgs(node.elements, frame);
            case 'HashLit': return this.hash(node, frame);
            case 'RangeLit': return new RRange(node.from ? this.eval(node.from, frame) : null, node.to ? this.eval(node.to, frame) : null, node.exclusive);
            case 'LVar': return frame.get(node.name);
            case 'IVar': return this.readIvar(node.name, frame);
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
            case 'While': return whileLoop(this, node, frame);
            case 'For': return forLoop(this, node, frame);
            case 'Case': return caseOf(this, node, frame);
            case 'Assign': {
                const v = this.eval(node.value, frame);
                if (node.target.$type === 'LVar') {
                    if (typeof v === 'string' && this.isFrozenString(node.value)) this.frozenNames.add(node.target.name);
                    else this.frozenNames.delete(node.target.name);
                }
                this.assign(node.target, v, frame);
                return v;
            }
            case 'OpAssign': return opAssign(this, node, frame);
            case 'MultiAssign': {
                const v = this.eval(node.value, frame);
                this.destructure(node.targets, node.splat, v, frame);
                return v;
            }
            case 'Begin': return this.begin(node, frame);
            case 'RescueMod':
                try { return this.eval(node.body, frame); } catch (e) {
                    if (e instanceof RubyError && e.cls.isSubclassOf(Exceptions.StandardError)) {
                        // `x rescue $!.message`: the rescued error is `$!` there too
                        this.handling.push(e);
                        try { return this.eval(node.rescue, frame); } finally { this.handling.pop(); }
                    }
                    throw e;
                }
            case 'Break': throw new BreakSignal(this.currentTarget(), node.value ? this.eval(node.value, frame) : null);
            case 'Next': throw new NextSignal(this.currentTarget(), node.value ? this.eval(node.value, frame) : null);
            case 'Redo': throw this.error('NotImplementedError', "'redo' is not supported in templates");
            case 'Retry': throw new RetrySignal();
            case 'Return': throw new ReturnSignal(node.value ? this.eval(node.value, frame) : null, frame.ctx.method);
            case 'Def': return this.def(node, frame);
            case 'ClassDef': case 'ModuleDef': return this.classOrModule(node, frame);
            case 'SingletonClass': return this.singletonClass(node, frame);
            case 'Alias': return this.alias(node.to, node.from, frame);
            case 'Yield': {
                const block = frame.ctx.block;
                if (!block) throw this.error('LocalJumpError', 'no block given (yield)');
                return this.yield(block, this.evalArgs(node.args, frame));
            }
            case 'Super': return this.callSuper(node, frame);
            case 'Seq': return this.body(node.body, frame);
            case 'Lambda': return this.makeProc(node.block, frame, node.proc !== true);
            case 'Unsupported': throw this.unsupported(node.what, node.line);
            case 'ErbText': this.out.push(node.text); return null;
            case 'ErbInsert': { const v = this.body(node.body, frame); this.out.push(this.toS(v)); return null; }
            default: return assertUnreachable(node);
        }
    }

    private readIvar(name: string, frame: Frame): RValue {
        if (name.startsWith('@')) {
            const vars = this.classVars(frame, name.slice(1));
            if (!vars.has(`@${name}`)) throw this.error('NameError', `uninitialized class variable @${name} in ${frame.ctx.nesting[0]?.name ?? 'Object'}`);
            return vars.get(`@${name}`) ?? null;
        }
        return this.ivarsOf(frame.ctx.self).get(name) ?? null;
    }

    writeIvar(name: string, v: RValue, frame: Frame): void {
        if (name.startsWith('@')) { this.classVars(frame, name.slice(1)).set(`@${name}`, v); return; }
        if (frame.ctx.self === this.options.self) this.assignedIvars.add(name);
        this.ivarsOf(frame.ctx.self).set(name, v);
    }

    currentTarget(): object {
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

    splat(v: RValue): RValue[] {
        if (Array.isArray(v)) return v;
        if (v === null) return [];
        if (v instanceof Map) return [...v].map(([k, x]) => [k, x]);
        if (v instanceof RRange) return this.send(v, 'to_a', []) as RValue[];
        if (v instanceof RObject && this.respondsTo(v, 'to_a')) return this.send(v, 'to_a', []) as RValue[];
        return [v];
    }

    evalArgs(nodes: readonly RNode[], frame: Frame): RValue[] {
        const out: RValue[] = [];
        for (const n of nodes) {
            if (n.$type === 'Splat') out.push(...this.splat(this.eval(n.value, frame)));
            else out.push(this.eval(n, frame));
        }
        return out;
    }

    globalVar(name: string): RValue {
        switch (name) {
            case '$~': return this.lastMatch;
            case '$&': return this.lastMatch?.group(0) ?? null;
            case '$`': return this.lastMatch ? this.lastMatch.input.slice(0, this.lastMatch.match.index) : null;
            case "$'": return this.lastMatch ? this.lastMatch.input.slice(this.lastMatch.match.index + this.lastMatch.match[0].length) : null;
            case '$!': { const e = this.handling[this.handling.length - 1]; return e ? this.exceptionObject(e) : null; }
            case '$;': case '$,': return null;
            case '$/': return '\n';
            default: return this.globals.get(name) ?? null;
        }
    }

    setGlobal(name: string, v: RValue): void {
        this.globals.set(name, v);
    }

    private defined(node: RNode, frame: Frame): RValue {
        switch (node.$type) {
            case 'LVar': return 'local-variable';
            case 'IVar': return this.ivarsOf(frame.ctx.self).has(node.name) ? 'instance-variable' : null;
            case 'GVar': return this.globals.has(node.name) ? 'global-variable' : null;
            case 'Const': try { this.constant(node, frame); return 'constant'; } catch { return null; }
            case 'Call':
                if (node.recv === null) return this.respondsTo(frame.ctx.self, node.name) || this.defs.has(node.name) ? 'method' : null;
                try { return this.respondsTo(this.eval(node.recv, frame), node.name) ? 'method' : null; } catch { return null; }
            case 'Yield': return frame.ctx.block ? 'yield' : null;
            case 'Super': return frame.ctx.method && this.superMethod(frame.ctx.self, frame.ctx.method) ? 'super' : null;
            case 'Nil': case 'Self': case 'Bool': return 'expression';
            case 'Assign': case 'OpAssign': case 'MultiAssign': return 'assignment';
            default: return 'expression';
        }
    }

    respondsTo(v: RValue, name: string): boolean {
        if (v instanceof RClass && this.findStatic(v, name)) return true;
        if (this.findMethod(classOf(v), name)) return true;
        if (v instanceof RObject) {
            const rm = this.findMethod(classOf(v), 'respond_to_missing?');
            if (rm && truthy(rm(v, [sym(name), false], undefined, this))) return true;
            return this.options.dynamic(v, `respond_to?:${name}`, [], undefined, this) === true;
        }
        return false;
    }

    /** Runs a loop: `break` leaves it with its value, `next` ends the iteration `iterate` is running. */
    asLoop(run: (iterate: (body: readonly RNode[], frame: Frame) => void) => RValue): RValue {
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

    /** `pattern === value`, as `case/when` and `grep` use it. */
    caseEquals(pattern: RValue, value: RValue): boolean {
        if (pattern instanceof PRegexp) {
            if (typeof value !== 'string' && !(value instanceof RSymbol)) return false;
            return this.match(pattern, typeof value === 'string' ? value : value.name) !== null;
        }
        if (pattern instanceof RObject || pattern instanceof RClass) return truthy(this.send(pattern, '===', [value]));
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

    currentMatch(): RMatchData | null {
        return this.lastMatch;
    }

    assign(t: Target, v: RValue, frame: Frame): void {
        switch (t.$type) {
            case 'LVar': frame.set(t.name, v); return;
            case 'IVar': this.writeIvar(t.name, v, frame); return;
            case 'GVar': this.globals.set(t.name, v); return;
            case 'Const': this.assignConstant(t, v, frame); return;
            case 'Index': { const recv = this.eval(t.recv, frame); this.send(recv, '[]=', [...this.evalArgs(t.args, frame), v]); return; }
            case 'Attr': this.send(this.eval(t.recv, frame), `${t.name}=`, [v]); return;
            case 'Nested': this.destructure(t.targets, t.splat, v, frame); return;
            default: assertUnreachable(t);
        }
    }

    destructure(targets: readonly Target[], splat: number, v: RValue, frame: Frame): void {
        const items = Array.isArray(v) ? v : v === null ? [null] : [v];
        if (splat < 0) { targets.forEach((t, i) => this.assign(t, items[i] ?? null, frame)); return; }
        const after = targets.length - splat - 1;
        targets.forEach((t, i) => {
            if (i < splat) this.assign(t, items[i] ?? null, frame);
            else if (i === splat) this.assign(t, items.slice(splat, Math.max(splat, items.length - after)), frame);
            else this.assign(t, items[items.length - (targets.length - i)] ?? null, frame);
        });
    }

    /** The exception object a `rescue => e` binds (made once per error). */
    exceptionObject(e: RubyError): RObject {
        if (!e.exception) {
            e.exception = new RObject(e.cls, `#<${e.cls.name}: ${e.message}>`, e.message);
            e.exception.ivars.set('__message', e.message);
        }
        return e.exception;
    }

    private begin(node: NodeOf<'Begin'>, frame: Frame): RValue {
        try {
            for (;;) {
                try {
                let v: RValue;
                try {
                    v = this.body(node.body, frame);
                } catch (e) {
                    if (!(e instanceof RubyError)) throw e;
                    for (const r of node.rescues) {
                        const classes = r.classes.length === 0 ? [Exceptions.StandardError] : this.evalArgs(r.classes, frame);
                        if (classes.some(c => c instanceof RClass && e.cls.isSubclassOf(c))) {
                            if (r.variable) this.assign(r.variable, this.exceptionObject(e), frame);
                            this.handling.push(e);
                            try { return this.body(r.body, frame); } finally { this.handling.pop(); }
                        }
                    }
                    throw e;
                }
                return node.elseBody ? this.body(node.elseBody, frame) : v;
                } catch (e) {
                    if (e instanceof RetrySignal && node.rescues.length > 0) continue;
                    throw e;
                }
            }
        } finally {
            // Once, when the statement is left: a retry does not run it.
            if (node.ensure) this.body(node.ensure, frame);
        }
    }

    /** The error a bare `raise` re-raises inside a rescue clause. */
    currentError(): RubyError | undefined {
        return this.handling[this.handling.length - 1];
    }

    // ---- calls ----

    private call(node: NodeOf<'Call'>, frame: Frame): RValue {
        if (node.recv === null && node.vcall && (node.name === 'block_given?' || node.name === 'iterator?')) return frame.ctx.block !== undefined;
        if (node.recv === null && node.name === '__method__') return frame.ctx.method ? sym(frame.ctx.method.name) : null;
        if (node.recv === null && node.name === '__FILE__' && frame.ctx.file !== undefined) return frame.ctx.file;
        if (node.recv === null && node.name === 'binding') throw this.unsupported('binding', node.line);
        const recv = node.recv === null ? frame.ctx.self : this.eval(node.recv, frame);
        if (node.safe && recv === null) return null;
        const args = this.evalArgs(node.args, frame);
        let block: RProc | undefined;
        if (node.block) block = this.makeProc(node.block, frame, false);
        else if (node.blockArg) block = this.toProc(this.eval(node.blockArg, frame));
        this.line = node.line;
        this.file = frame.ctx.file;
        this.callerMethod = frame.ctx.method?.name;
        if (node.name === 'frozen?' && node.recv !== null && args.length === 0 && (typeof recv === 'string' || recv instanceof Map)) {
            return typeof recv === 'string' ? this.isFrozenString(node.recv) : (node.recv.$type === 'IVar' && node.recv.name === 'trusted') || frozenObjects.has(recv);
        }
        if (typeof recv === 'string' && node.recv !== null && Object.hasOwn(stringMutators, node.name) && !this.findOverlay(node.name)) {
            if (this.isFrozenString(node.recv)) throw this.error('FrozenError', `can't modify frozen String: ${inspect(recv)}`);
            // Strings are immutable here: an in-place method gives its variable the new string.
            const { value, result } = stringMutators[node.name](recv, args, block, this);
            const target = node.recv;
            if (target.$type === 'LVar' || target.$type === 'IVar' || target.$type === 'GVar') this.assign(target, value, frame);
            return result;
        }
        if (node.recv === null && (node.name === 'raise' || node.name === 'fail') && args.length === 0) {
            const current = this.currentError();
            if (current) throw current;
        }
        try {
            return this.send(recv, node.name, args, block, node.recv === null || node.recv.$type === 'Self', node.vcall);
        } catch (e) {
            if (block && e instanceof BreakSignal && e.target === block) return e.value;
            if (e instanceof RubyError && e.line === undefined) { e.line = node.line; e.file = frame.ctx.file; }
            throw e;
        }
    }

    private findOverlay(name: string): boolean {
        return this.findMethod(Classes.String, name) !== Classes.String.findMethod(name);
    }

    /** Puppet's strings are frozen; literals and the results of methods are not. */
    private isFrozenString(expr: RNode): boolean {
        switch (expr.$type) {
            case 'IVar': return !this.assignedIvars.has(expr.name) && this.options.ivars !== undefined;
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
        if (v instanceof RObject && this.respondsTo(v, 'to_proc')) return this.toProc(this.send(v, 'to_proc', []));
        throw this.error('TypeError', `wrong argument type ${classOf(v).name} (expected Proc)`);
    }

    makeProc(block: BlockNode, frame: Frame, isLambda: boolean): RProc {
        const required = block.params.filter(p => p.kind === 'req' || p.kind === 'nested').length;
        const arity = block.params.some(p => p.kind === 'rest' || p.kind === 'opt') ? -(required + 1) : required;
        const run = (outer: Frame, args: RValue[], asMethod: MethodFrame | null, blockArg: RProc | undefined): RValue => this.deeper(() => {
            const inner = new Frame(outer, asMethod || blockArg ? { ...outer.ctx, method: asMethod ?? outer.ctx.method, block: blockArg ?? outer.ctx.block } : undefined);
            let values = args;
            if (isLambda) {
                const max = block.params.some(p => p.kind === 'rest') ? Infinity : block.params.filter(p => p.kind !== 'block' && p.kind !== 'key' && p.kind !== 'keyrest').length;
                if (args.length < required || args.length > max) throw this.error('ArgumentError', `wrong number of arguments (given ${args.length}, expected ${max === required ? required : max === Infinity ? `${required}+` : `${required}..${max}`})`);
            } else if (block.spreads && args.length === 1 && Array.isArray(args[0])) values = args[0];
            this.bindParams(block.params, values, inner);
            const blockParam = block.params.find(p => p.kind === 'block');
            if (blockParam) inner.declare(blockParam.name, blockArg ?? null);
            this.targets.push(proc);
            try {
                return this.body(block.body, inner);
            } catch (e) {
                if (e instanceof NextSignal && e.target === proc) return e.value;
                if (isLambda && e instanceof BreakSignal && e.target === proc) return e.value;
                if ((isLambda || asMethod) && e instanceof ReturnSignal && (asMethod ? e.method === asMethod : true)) return e.value;
                throw e;
            } finally { this.targets.pop(); }
        });
        const proc: RProc = new RProc((args, blockArg) => run(frame, args, null, blockArg), arity, isLambda, block, (self, defTarget, args, blockArg, asMethod) => {
            const mf: MethodFrame | null = asMethod === null ? null : { owner: defTarget ?? classOf(self), name: asMethod, args, isStatic: false };
            const ctx: Ctx = { ...frame.ctx, self, defTarget, singletonDefs: false, method: mf ?? frame.ctx.method, block: blockArg ?? frame.ctx.block };
            // The block keeps its locals but runs against the new self.
            const rebound = new Frame(frame, ctx);
            return run(rebound, args, mf, blockArg);
        });
        return proc;
    }

    protected bindParams(params: readonly Param[], all: readonly RValue[], frame: Frame): void {
        const { positional: values, keywords } = takeKeywords(params, all);
        const required = params.filter(p => p.kind === 'req' || p.kind === 'nested').length;
        let optional = Math.max(0, values.length - required);
        let i = 0;
        const restAt = params.findIndex(p => p.kind === 'rest');
        const afterRest = restAt < 0 ? 0 : params.slice(restAt + 1).filter(p => p.kind === 'req' || p.kind === 'nested').length;
        const usedKeys = new Set<RValue>();
        for (const p of params) {
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
                case 'key': {
                    const k = sym(p.name);
                    if (keywords?.has(k)) { frame.declare(p.name, keywords.get(k) ?? null); usedKeys.add(k); } else if (p.value) frame.declare(p.name, this.eval(p.value, frame));
                    else throw this.error('ArgumentError', `missing keyword: :${p.name}`);
                    break;
                }
                case 'keyrest':
                    if (p.name) frame.declare(p.name, new Map([...(keywords ?? new Map())].filter(([k]) => !usedKeys.has(k))));
                    break;
                case 'block': if (!frame.has(p.name)) frame.declare(p.name, null); break;
            }
        }
        if (keywords && !params.some(p => p.kind === 'keyrest')) {
            const unknown = [...keywords.keys()].filter(k => !usedKeys.has(k));
            if (unknown.length) throw this.error('ArgumentError', `unknown keyword${unknown.length > 1 ? 's' : ''}: ${unknown.map(k => inspect(k)).join(', ')}`);
        }
    }

    yield(block: RProc, args: RValue[]): RValue {
        return block.call(args);
    }

    send(recv: RValue, name: string, args: RValue[], block?: RProc, fcall = false, vcall = false): RValue {
        if (recv === this.options.self && this.defs.has(name)) return this.defs.get(name)!(recv, args, block, this);
        if (recv instanceof RClass) {
            const s = this.findStatic(recv, name);
            if (s) return s(recv, args, block, this);
        }
        const m = this.findMethod(classOf(recv), name);
        // Kernel's functions are module functions too: `Kernel.format(...)` is allowed.
        if (m && (fcall || recv === Kernel || !KERNEL_PRIVATE.has(name) || m !== this.findMethod(Kernel, name))) return m(recv, args, block, this);
        if (fcall && this.defs.has(name)) return this.defs.get(name)!(recv, args, block, this);
        if (recv instanceof RObject || recv instanceof PObjectValue) {
            const r = this.options.dynamic(recv, name, args, block, this);
            if (r !== undefined) return r;
            const missing = this.findMethod(classOf(recv), 'method_missing');
            if (missing) return missing(recv, [sym(name), ...args], block, this);
        }
        if (vcall) throw this.error('NameError', `undefined local variable or method \`${name}' for ${describe(recv)}`);
        if (m) throw this.error('NoMethodError', `private method \`${name}' called for ${describe(recv)}`);
        throw this.error('NoMethodError', `undefined method \`${name}' for ${describe(recv)}`);
    }

    private callSuper(node: NodeOf<'Super'>, frame: Frame): RValue {
        const mf = frame.ctx.method;
        if (!mf) throw this.error('RuntimeError', 'super called outside of method');
        const args = node.args === null ? (mf.params ? zsuperArgs(mf.params, frame) : mf.args) : this.evalArgs(node.args, frame);
        const block = node.block ? this.makeProc(node.block, frame, false) : node.blockArg ? this.toProc(this.eval(node.blockArg, frame)) : frame.ctx.block;
        const m = this.superMethod(frame.ctx.self, mf);
        if (!m) {
            if (mf.name === 'initialize' || mf.name === 'inherited' || mf.name === 'included') return null;
            if (mf.name === 'method_missing') throw this.error('NoMethodError', `undefined method \`${this.toS(args[0] ?? null)}' for ${describe(frame.ctx.self)}`);
            if (mf.name === 'respond_to_missing?') return false;
            throw this.error('NoMethodError', `super: no superclass method \`${mf.name}' for ${describe(frame.ctx.self)}`);
        }
        return m(frame.ctx.self, args, block, this);
    }

    equals(a: RValue, b: RValue): boolean {
        return rEquals(a, b, (x, y) => this.send(x, '==', [y]) === true);
    }
}

/** What a bare `super` passes: the current values of the method's parameters. */
function zsuperArgs(params: readonly Param[], frame: Frame): RValue[] {
    const out: RValue[] = [];
    const keys: RHash = new Map();
    for (const p of params) {
        if (p.kind === 'req' || p.kind === 'opt') out.push(frame.get(p.name));
        else if (p.kind === 'rest' && p.name) out.push(...(frame.get(p.name) as RValue[]));
        else if (p.kind === 'key') keys.set(sym(p.name), frame.get(p.name));
    }
    if (keys.size) out.push(keys);
    return out;
}

/** Kernel's functions are private: `raise 'x'` works, `1.raise` does not. */
const KERNEL_PRIVATE = new Set(['raise', 'fail', 'format', 'sprintf', 'Array', 'String', 'Integer', 'Float', 'Hash', 'puts', 'print', 'p', 'pp', 'require', 'require_relative', 'lambda', 'proc', 'loop', 'catch', 'throw', 'rand', 'sleep', 'warn', 'attr_accessor', 'attr_reader', 'attr_writer', 'include', 'extend', 'private', 'protected', 'public', 'module_function', 'define_method']);

/** How NoMethodError names the receiver: `nil:NilClass`, `"a":String`, `[1]:Array`. */
export function describe(v: RValue): string {
    if (v === null) return 'nil:NilClass';
    if (v === true) return 'true:TrueClass';
    if (v === false) return 'false:FalseClass';
    if (v instanceof RObject) return v.inspectText;
    if (v instanceof RClass) return `${v.name}:${v.isModule ? 'Module' : 'Class'}`;
    // Ruby leaves the class out when the inspect text already starts with '#' (#<Sensitive ...>).
    const text = inspect(v);
    return text.startsWith('#') ? text : `${text}:${classOf(v).name}`;
}
