import { capitalize, coreType as coreDataType, formatValue, PClassType, PResourceType } from '../../types/index.js';
import { type PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { LogLevel } from '../runtime.js';
import type { FunctionContext, PuppetFunction } from './function.js';

function logger(level: LogLevel): PuppetFunction {
    return (call, args) => {
        const message = args.map(a => formatValue(a)).join(' ');
        const r = call.scope.resource;
        call.runtime.log(level, message, call.where, `Scope(${r ? r.ref : 'Class[main]'})`);
        return null;
    };
}

/** Class names in include-like arguments: strings, Class references, arrays of them. */
function classNames(args: PuppetValue[]): string[] {
    return args.flatMap(a => Array.isArray(a) ? classNames(a) : [a]).map(a => {
        if (a instanceof PClassType && a.className !== null) return a.className;
        if (a instanceof PResourceType && a.typeName === 'Class' && a.title !== null) return a.title;
        return formatValue(a);
    });
}

function includeLike(how: 'include' | 'require' | 'contain'): PuppetFunction {
    return (call, args) => {
        for (const n of classNames(args)) call.runtime.includeClass(n, call.scope, how, call.where);
        return null;
    };
}

function isDefined(call: FunctionContext, a: PuppetValue): boolean {
    const c = call.runtime;
    if (a instanceof PResourceType) {
        if (a.typeName === null) return true;
        if (a.title === null) return c.resourceType(a.typeName) !== undefined || c.loader.findDefine(a.typeName) !== undefined;
        return c.isDeclared(a.typeName, a.title);
    }
    if (a instanceof PClassType) return a.className === null ? true : c.isDeclared('Class', a.className);
    if (typeof a === 'string') {
        if (a.startsWith('$')) {
            const name = a.slice(1);
            return c.lookupVariable(name, call.scope) !== undefined;
        }
        const n = a.replace(/^::/, '').toLowerCase();
        return c.resourceType(n) !== undefined || c.loader.findClass(n) !== undefined || c.loader.findDefine(n) !== undefined
            || coreDataType(capitalize(n)) !== undefined;
    }
    return false;
}

export const catalogFunctions: Record<string, PuppetFunction> = {
    debug: logger('debug'),
    info: logger('info'),
    notice: logger('notice'),
    warning: logger('warning'),
    err: logger('err'),
    alert: logger('alert'),
    crit: logger('crit'),
    emerg: logger('emerg'),
    fail: (_call, args) => { throw new RuntimeFailure(args.map(a => formatValue(a)).join(' ')); },
    include: includeLike('include'),
    require: includeLike('require'),
    contain: includeLike('contain'),
    realize: (call, args) => { call.runtime.realize(args); return null; },
    tag: (call, args) => {
        const r = call.scope.resource;
        if (r) for (const t of args.flat()) if (typeof t === 'string') for (const x of [t.toLowerCase(), ...(t.includes('::') ? t.toLowerCase().split('::') : [])]) r.tags.add(x);
        return null;
    },
    tagged: (call, args) => {
        const r = call.scope.resource;
        const tags = call.runtime.catalog.tags;
        return args.flat().some(t => typeof t === 'string' && (tags.has(t.toLowerCase()) || (r !== null && r.tags.has(t.toLowerCase()))));
    },
    defined: (call, args) => args.some(a => isDefined(call, a)),
    create_resources: (call, [type, hash, defaults]) => {
        if (!(hash instanceof Map)) throw new RuntimeFailure(CatalogIssues.EVAL_PARAMETER_NOT.message({ fname: 'create_resources', name: 'resources', expected: 'a Hash' }));
        const typeName = type instanceof PResourceType && type.typeName ? type.typeName : formatValue(type);
        const defs = defaults instanceof Map ? defaults : new Map<PuppetValue, PuppetValue>();
        for (const [title, params] of hash) {
            const attrs = new Map<string, PuppetValue>();
            for (const [k, v] of defs) attrs.set(String(k), v);
            if (params instanceof Map) for (const [k, v] of params) attrs.set(String(k), v);
            const list = [...attrs].map(([name, value]) => ({ name, value, plus: false, where: call.where }));
            call.runtime.declare(typeName, title, list, call.scope, 'real', { file: call.where.file, line: call.where.line });
        }
        return null;
    }
};
