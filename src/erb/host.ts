import { PDefault, type PuppetValue } from '../values/index.js';
import { Classes, Exceptions, RObject, RProc, RRange, RSymbol, RubyError, rubyError, type CallSite, type RValue } from '../ruby/index.js';
import type { DynamicMethods } from '../ruby/index.js';
import { arity, str } from '../ruby/index.js';

/** What a template sees of the compiler: Puppet's TemplateWrapper and Scope, reduced to what templates use. */
export interface ErbHost {
    /** The variables the template gets as `@name`: the calling scope's (Puppet's `scope.to_hash`), undef ones left out. */
    readonly variables: ReadonlyMap<string, PuppetValue>;
    /** The scope as Puppet prints it: `Scope(Class[main])`. */
    readonly scopeName: string;
    /** The template file (as `file` returns it), or null for an inline template. */
    readonly file: string | null;
    /** `scope['x']` / `scope.lookupvar('x')`: the value, or undefined for an unknown variable (warned about unless `quiet`). */
    lookupvar(name: string, quiet?: boolean): PuppetValue | undefined;
    /** `scope.call_function('name', [args])`. */
    callFunction(name: string, args: PuppetValue[]): PuppetValue;
    /** `scope.function_<name>([args])` of a module's 3.x function; undefined when no module has one of the name. */
    callFunction3(name: string, args: PuppetValue[]): PuppetValue | undefined;
    /** `scope.setvar('name', value)`. */
    setvar(name: string, value: PuppetValue): void;
    classes(): string[];
    tags(): string[];
}

/**
 * The 3.x-style functions Puppet 7 still offers as `scope.function_<name>([args])`; 4.x-only
 * functions (`upcase`, `join`, ...) are not methods of the scope there.
 */
const LEGACY_FUNCTIONS = new Set([
    'assert_type', 'binary_file', 'break', 'contain', 'create_resources', 'defined', 'dig', 'digest', 'each', 'epp', 'fail', 'file', 'filter',
    'find_file', 'fqdn_rand', 'generate', 'hiera', 'hiera_array', 'hiera_hash', 'hiera_include', 'include', 'inline_epp', 'inline_template',
    'lest', 'lookup', 'map', 'match', 'md5', 'new', 'next', 'realize', 'reduce', 'regsubst', 'require', 'return', 'reverse_each', 'scanf',
    'sha1', 'sha256', 'shellquote', 'slice', 'split', 'sprintf', 'step', 'strftime', 'tag', 'tagged', 'template', 'then', 'type', 'versioncmp',
    'with', 'debug', 'info', 'notice', 'warning', 'err', 'alert', 'emerg', 'crit'
]);

/** Template values handed back to Puppet: symbols become strings (`:undef` undef, `:default` default). */
export function toPuppet(v: RValue): PuppetValue {
    if (v instanceof RSymbol) return v.name === 'undef' ? null : v.name === 'default' ? PDefault.instance : v.name;
    if (Array.isArray(v)) return v.map(toPuppet);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [toPuppet(k), toPuppet(x)]));
    if (v instanceof RRange || v instanceof RProc || v instanceof RObject) throw rubyError('ArgumentError', 'this value cannot be passed to a Puppet function');
    return v as PuppetValue;
}

/** A function the template called failed in Ruby code at `site` (the first frame of Puppet's backtrace). */
export class HostCallError extends Error {
    constructor(message: string, readonly site: { readonly file: string; readonly line: number }) {
        super(message);
    }
}

/** A failure of Puppet code called from the template is a Ruby exception there (rescue-able, and reported as the template's). */
function asRuby(f: () => RValue): RValue {
    try {
        return f();
    } catch (e) {
        if (e instanceof RubyError || !(e instanceof Error)) throw e;
        const r = new RubyError(Exceptions.ParseError, e.message);
        if (e instanceof HostCallError) { r.file = e.site.file; r.line = e.site.line; }
        throw r;
    }
}

export function hostObjects(host: ErbHost): { self: RObject; dynamic: DynamicMethods } {
    const scope = new RObject(Classes.Scope, `${host.scopeName}:Puppet::Parser::Scope`, host.scopeName);
    const where = host.file ? `template[${host.file}]` : 'template[inline]';
    const self = new RObject(Classes.TemplateWrapper, '#<Puppet::Parser::TemplateWrapper>', where);
    const lookup = (args: RValue[]): RValue => { arity(args, 1, 2); return host.lookupvar(str(args[0])) ?? null; };
    const wrapperMethods: Record<string, (args: RValue[], call: CallSite) => RValue> = {
        scope: () => scope,
        file: () => host.file,
        'has_variable?': args => { arity(args, 1); const v = host.lookupvar(str(args[0] instanceof RSymbol ? args[0].name : args[0]), true); return v !== undefined && v !== null; },
        classes: () => host.classes(),
        all_tags: () => host.tags(),
        tags: () => { throw rubyError('NotImplementedError', "Call 'all_tags' instead."); },
        to_s: () => where,
        inspect: () => self.inspectText
    };
    const scopeMethods: Record<string, (args: RValue[], call: CallSite) => RValue> = {
        '[]': lookup,
        lookupvar: lookup,
        'include?': args => { const v = host.lookupvar(str(args[0])); return v !== undefined && v !== null; },
        'exist?': args => host.lookupvar(str(args[0])) !== undefined,
        call_function: args => {
            arity(args, 1, 2);
            const fargs = args.length > 1 ? args[1] : [];
            return host.callFunction(str(args[0]), (Array.isArray(fargs) ? fargs : [fargs]).map(toPuppet));
        },
        setvar: args => { arity(args, 2, 3); host.setvar(str(args[0]), toPuppet(args[1])); return args[1]; },
        to_hash: () => new Map([...host.variables]),
        to_s: () => host.scopeName,
        inspect: () => host.scopeName
    };
    const dynamic: DynamicMethods = (obj, name, args, _block, call) => {
        const probe = name.startsWith('respond_to?:');
        const method = probe ? name.slice('respond_to?:'.length) : name;
        const table = obj === self ? wrapperMethods : obj === scope ? scopeMethods : undefined;
        if (!table) return undefined;
        const legacy = obj === scope && method.startsWith('function_') && LEGACY_FUNCTIONS.has(method.slice('function_'.length));
        if (probe) return method in table || legacy;
        if (method in table) return asRuby(() => table[method](args, call));
        if (legacy) {
            if (args.length !== 1 || !Array.isArray(args[0])) {
                throw rubyError('ArgumentError', `custom functions must be called with a single array that contains the arguments. For example, function_example([1]) instead of function_example(1)`);
            }
            const fargs = args[0];
            return asRuby(() => host.callFunction(method.slice('function_'.length), fargs.map(toPuppet)));
        }
        // A module's 3.x function (stdlib's str2bool ...): Scope#method_missing loads it by name.
        if (obj === scope && method.startsWith('function_') && !probe && args.length === 1 && Array.isArray(args[0])) {
            const fargs = args[0];
            let found = true;
            const r = asRuby(() => {
                const v = host.callFunction3(method.slice('function_'.length), fargs.map(toPuppet));
                if (v === undefined) { found = false; return null; }
                return v;
            });
            if (found) return r;
        }
        return undefined;
    };
    return { self, dynamic };
}
