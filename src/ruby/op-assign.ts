import type { NodeOf } from './ast.js';
import type { Frame } from './frame.js';
import type { Interpreter } from './interpreter.js';
import { rubyError, truthy, type RValue } from './objects.js';

/** `x op= v`, `a[i] ||= v`, `o.attr &&= v`: receivers and index arguments are evaluated once. */
export function opAssign(it: Interpreter, node: NodeOf<'OpAssign'>, frame: Frame): RValue {
    const t = node.target;
    let get: () => RValue;
    let set: (v: RValue) => void;
    switch (t.$type) {
        case 'LVar': get = () => frame.get(t.name); set = v => frame.set(t.name, v); break;
        case 'IVar': get = () => it.eval(t, frame); set = v => { it.writeIvar(t.name, v, frame); }; break;
        case 'GVar': get = () => it.globalVar(t.name); set = v => { it.setGlobal(t.name, v); }; break;
        case 'Const': get = () => { try { return it.eval(t, frame); } catch { return null; } }; set = v => { it.assign(t, v, frame); }; break;
        case 'Index': {
            const recv = it.eval(t.recv, frame);
            const args = it.evalArgs(t.args, frame);
            get = () => it.send(recv, '[]', args);
            set = v => { it.send(recv, '[]=', [...args, v]); };
            break;
        }
        case 'Attr': {
            const recv = it.eval(t.recv, frame);
            get = () => it.send(recv, t.name, []);
            set = v => { it.send(recv, `${t.name}=`, [v]); };
            break;
        }
        case 'Nested': {
            const e = rubyError('ScriptError', 'syntax error, unexpected operator-assignment');
            e.line = node.line;
            throw e;
        }
    }
    const current = t.$type === 'IVar' && t.name.startsWith('@') ? (() => { try { return get(); } catch { return null; } })() : get();
    let v: RValue;
    if (node.op === '||') { if (truthy(current)) return current; v = it.eval(node.value, frame); } else if (node.op === '&&') { if (!truthy(current)) return current; v = it.eval(node.value, frame); } else v = it.send(current, node.op, [it.eval(node.value, frame)]);
    set(v);
    return v;
}
