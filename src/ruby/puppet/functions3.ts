import { PClassType, type PResourceType } from '../../types/index.js';
import { capitalizeTypeName, type PuppetValue } from '../../values/index.js';
import { RProc, RSymbol, rubyError, type RHash, type RValue } from '../objects.js';
import { to3x, toPuppet } from './convert.js';
import type { ScopeHost } from './host.js';
import type { PluginRuntime } from './runtime.js';

/** A function written with `Puppet::Parser::Functions.newfunction`. */
export class Function3 {
    readonly kind = '3x';
    constructor(readonly name: string, readonly rvalue: boolean, readonly arity: number, readonly body: RProc, readonly file: string) {}
}

const option = (opts: RHash | undefined, key: string): RValue => opts?.get(RSymbol.of(key)) ?? opts?.get(key) ?? null;

/** `Puppet::Parser::Functions` over one runtime: definitions and calls with Puppet's 3.x conventions. */
export class Functions3 {
    private readonly byName = new Map<string, Function3>();

    constructor(private readonly rt: PluginRuntime) {}

    get(name: string): Function3 | undefined {
        return this.byName.get(name);
    }

    has(name: string): boolean {
        return this.byName.has(name);
    }

    /** `newfunction(:name, :type => :rvalue, :arity => n, :doc => ...) do |args| ... end`. */
    define(args: RValue[], block: RProc | undefined): RValue {
        const nameArg = args[0] ?? null;
        const name = nameArg instanceof RSymbol ? nameArg.name : typeof nameArg === 'string' ? nameArg : '';
        if (!name) throw rubyError('ArgumentError', 'newfunction needs a name');
        const opts = args[1] instanceof Map ? args[1] : undefined;
        const type = option(opts, 'type');
        const typeName = type instanceof RSymbol ? type.name : type === null ? 'statement' : String(type);
        if (typeName !== 'rvalue' && typeName !== 'statement') throw rubyError('ArgumentError', `Invalid statement type ${typeName}`);
        const arityValue = option(opts, 'arity');
        const arity = typeof arityValue === 'bigint' ? Number(arityValue) : -1;
        if (!block) throw rubyError('ArgumentError', `function ${name} has no body`);
        this.byName.set(name, new Function3(name, typeName === 'rvalue', arity, block, this.rt.interp.file ?? ''));
        return new Map<RValue, RValue>([[RSymbol.of('arity'), BigInt(arity)], [RSymbol.of('type'), RSymbol.of(typeName)], [RSymbol.of('name'), `function_${name}`]]);
    }

    /** Runs the body with the scope as `self` and the arguments as one array (undef top-level arguments as ''). */
    invoke(fn: Function3, rubyArgs: RValue[], scope: ScopeHost): RValue {
        if (fn.arity >= 0 && rubyArgs.length !== fn.arity) {
            throw rubyError('ArgumentError', `${fn.name}(): Wrong number of arguments given (${rubyArgs.length} for ${fn.arity})`);
        }
        if (fn.arity < 0 && rubyArgs.length < Math.abs(fn.arity + 1)) {
            throw rubyError('ArgumentError', `${fn.name}(): Wrong number of arguments given (${rubyArgs.length} for minimum ${Math.abs(fn.arity + 1)})`);
        }
        const self = this.rt.ns.scopeObject(scope);
        const body = fn.body;
        const result = this.rt.withScope(scope, () => (body.callAs ? body.callAs(self, null, [rubyArgs], undefined, `real_function_${fn.name}`) : body.call([rubyArgs])));
        return fn.rvalue ? convertReturn(result) : null;
    }

    /** A call from Puppet code. */
    call(fn: Function3, args: PuppetValue[], scope: ScopeHost): PuppetValue {
        return this.rt.guard(() => {
            const ref = (t: PResourceType | PClassType): RValue => t instanceof PClassType
                ? this.rt.ns.resourceObject({ type: 'Class', title: capitalizeTypeName(t.className ?? ''), params: new Map() })
                : this.rt.ns.resourceObject(scope.findResource(t.typeName ?? '', t.title ?? '') ?? { type: t.typeName ?? '', title: t.title ?? '', params: new Map() });
            const result = this.invoke(fn, args.map(a => to3x(a, false, ref)), scope);
            if (!fn.rvalue) return null;
            return toPuppet(result);
        }, fn.file, true);
    }
}

/** What a 3.x function's value becomes: `:undef` is undef, deeply. */
function convertReturn(v: RValue): RValue {
    if (v instanceof RSymbol && v.name === 'undef') return null;
    if (Array.isArray(v)) return v.map(convertReturn);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [convertReturn(k), convertReturn(x)]));
    return v;
}


