import type { NodeOf } from './ast.js';
import type { Frame } from './frame.js';
import { describe, type Interpreter } from './interpreter.js';
import { RRange, rubyError, truthy, type RValue } from './objects.js';

/** Loops and `case`: `while`/`until` (and `begin...end while`), `for`, `case/when` with `===`. */
export function whileLoop(it: Interpreter, node: NodeOf<'While'>, frame: Frame): RValue {
    return it.asLoop(iterate => {
        let first = node.doWhile;
        while (first || truthy(it.eval(node.cond, frame)) !== node.until) {
            first = false;
            iterate(node.body, frame);
        }
        return null;
    });
}

export function forLoop(it: Interpreter, node: NodeOf<'For'>, frame: Frame): RValue {
    const iter = it.eval(node.iter, frame);
    return it.asLoop(iterate => {
        const items = iter instanceof Map ? [...iter].map(([k, v]) => [k, v]) : splatIterable(it, iter);
        for (const item of items) {
            if (node.target.$type === 'Nested') it.destructure(node.target.targets, node.target.splat, item, frame);
            else it.assign(node.target, item, frame);
            iterate(node.body, frame);
        }
        return iter;
    });
}

function splatIterable(it: Interpreter, v: RValue): RValue[] {
    if (Array.isArray(v)) return v;
    if (v instanceof RRange) return it.send(v, 'to_a', []) as RValue[];
    throw rubyError('NoMethodError', `undefined method \`each' for ${describe(v)}`);
}

export function caseOf(it: Interpreter, node: NodeOf<'Case'>, frame: Frame): RValue {
    const subject = node.subject ? it.eval(node.subject, frame) : undefined;
    for (const w of node.whens) {
        for (const vn of w.values) {
            const candidates = vn.$type === 'Splat' ? it.splat(it.eval(vn.value, frame)) : [it.eval(vn, frame)];
            for (const c of candidates) {
                const hit = subject === undefined ? truthy(c) : it.caseEquals(c, subject);
                if (hit) return it.body(w.body, frame);
            }
        }
    }
    return node.else ? it.body(node.else, frame) : null;
}
