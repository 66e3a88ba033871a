import type { RClass, RProc, RValue } from './objects.js';

/** The method a body runs in: what `super`, `__method__` and `return` refer to. */
export interface MethodFrame {
    readonly owner: RClass;
    readonly name: string;
    readonly args: RValue[];
    /** A class method (`def self.x`): `super` looks in the superclass's class methods. */
    readonly isStatic: boolean;
    /** The def's parameters: a bare `super` passes their current values. */
    readonly params?: readonly import('./ast.js').Param[];
}

/**
 * What code runs against besides its locals: `self`, where `def` puts methods, the lexical
 * module nesting constants are looked up through (innermost first), the block `yield` calls
 * and the method `super` continues.
 */
export interface Ctx {
    readonly self: RValue;
    /** null at the top level: a `def` there is a private method of every object (Ruby's main). */
    readonly defTarget: RClass | null;
    /** Inside `class << self`: `def` defines class methods. */
    readonly singletonDefs: boolean;
    readonly nesting: readonly RClass[];
    readonly block: RProc | undefined;
    readonly method: MethodFrame | null;
    /** The plugin file the code was written in (errors name it). */
    readonly file?: string;
}

/** Local variables of a body, a block or a lambda; blocks see (and assign) their outer locals. */
export class Frame {
    private readonly vars = new Map<string, RValue>();
    readonly ctx: Ctx;
    constructor(readonly parent: Frame | null, ctx?: Ctx) {
        const c = ctx ?? parent?.ctx;
        if (!c) throw new Error('a top frame needs a context');
        this.ctx = c;
    }
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
export class BreakSignal { constructor(readonly target: object, readonly value: RValue) {} }
export class NextSignal { constructor(readonly target: object, readonly value: RValue) {} }
/** `return` unwinds to the method (or lambda) whose frame it was written in. */
export class ReturnSignal { constructor(readonly value: RValue, readonly method: MethodFrame | null) {} }
/** `retry` in a rescue clause runs its `begin` again. */
export class RetrySignal {}
