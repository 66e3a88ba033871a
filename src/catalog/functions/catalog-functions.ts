import { formatValue, PClassType, PResourceType, PTypeType, rubyInspect } from '../../types/index.js';
import { dataClassName, type PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import { isValidTag } from '../tags.js';
import type { DeclarationMode, LogLevel } from '../runtime.js';
import type { FunctionContext, PuppetFunction } from './function.js';

/** Puppet's valid tag: a word character, then word characters, ':', '.' or '-'. */

function logger(level: LogLevel): PuppetFunction {
    return (call, args) => {
        const message = args.map(a => formatValue(a)).join(' ');
        const r = call.scope.resource;
        call.runtime.log(level, message, call.where, `Scope(${r ? r.ref : 'Class[main]'})`);
        return null;
    };
}

/**
 * Class names in include-like arguments (flattened), checked one after the other as Puppet's
 * transform_and_assert_classnames does: a value of any other kind falls through its case and
 * Ruby fails calling downcase on nil.
 */
function classNames(args: PuppetValue[]): string[] {
    return args.flat(Infinity as 1).map(a => {
        if (a === null) throw new RuntimeFailure(CatalogIssues.EVAL_UNDEF_CLASS_NAME.message());
        if (typeof a === 'string') {
            if (a === '') throw new RuntimeFailure(CatalogIssues.EVAL_EMPTY_CLASS_NAME.message());
            return a;
        }
        if (a instanceof PClassType) {
            if (a.className === null) throw new RuntimeFailure(CatalogIssues.EVAL_UNSPECIFIC_CLASS.message());
            return a.className;
        }
        if (a instanceof PResourceType) {
            if (a.typeName === null || a.typeName === '') throw new RuntimeFailure(CatalogIssues.EVAL_UNSPECIFIC_RESOURCE_CLASS.message());
            if (!/^[Cc]lass$/.test(a.typeName)) throw new RuntimeFailure(CatalogIssues.EVAL_RESOURCE_NOT_CLASS.message({ type: a.typeName }));
            if (a.title === null) throw new RuntimeFailure(CatalogIssues.EVAL_UNSPECIFIC_RESOURCE_CLASS_TITLE.message());
            return a.title;
        }
        throw new RuntimeFailure(CatalogIssues.EVAL_RUBY_NO_METHOD.message({ method: 'downcase', receiver: 'nil:NilClass', line: '      end.downcase' }));
    });
}

function includeLike(how: 'include' | 'require' | 'contain'): PuppetFunction {
    return (call, args) => {
        const names = classNames(args);
        call.runtime.includeClasses(names, call.scope, how, call.where);
        // Since Puppet 4.7 the classes, as Class references, are the value.
        return names.map(n => new PClassType(n.replace(/^::/, '').toLowerCase()));
    };
}

function isDefined(call: FunctionContext, a: PuppetValue): boolean {
    const c = call.runtime;
    if (a instanceof PTypeType) {
        // Type[File] asks as File does; Type[Class[c]] whether the class exists, declared or not.
        if (a.type instanceof PClassType) {
            if (a.type.className === null) throw new RuntimeFailure(CatalogIssues.EVAL_DEFINED_ALL_CLASSES.message());
            return c.loader.findClass(a.type.className.toLowerCase()) !== undefined;
        }
        return a.type instanceof PResourceType ? isDefined(call, a.type) : false;
    }
    if (a instanceof PResourceType) {
        if (a.typeName === null) throw new RuntimeFailure(CatalogIssues.EVAL_DEFINED_ALL_TYPES.message());
        if (a.title === null) return c.resourceType(a.typeName.toLowerCase()) !== undefined || c.loader.findDefine(a.typeName.toLowerCase()) !== undefined;
        return c.isDeclared(a.typeName, a.title);
    }
    if (a instanceof PClassType) {
        if (a.className === null) throw new RuntimeFailure(CatalogIssues.EVAL_DEFINED_ALL_CLASSES.message());
        // The main class is no catalog resource Puppet can find by this name.
        return a.className !== 'main' && c.isDeclared('Class', a.className);
    }
    if (typeof a === 'string') {
        if (a.startsWith('$')) return c.lookupVariable(a.slice(1), call.scope) !== undefined;
        if (a === '') return false;
        if (a === 'main') return true;
        // A core resource type (not by its absolute name), a defined type or a class.
        const n = a.toLowerCase();
        const bare = n.replace(/^::/, '');
        return (bare === n && c.resourceType(n) !== undefined) || c.loader.findDefine(bare) !== undefined || c.loader.findClass(bare) !== undefined;
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
    // Ruby's to_s of each value: collections as their inspect.
    fail: (_call, args) => { throw new RuntimeFailure(args.map(a => Array.isArray(a) || a instanceof Map ? rubyInspect(a) : formatValue(a)).join(' ')); },
    include: includeLike('include'),
    require: includeLike('require'),
    contain: includeLike('contain'),
    realize: (call, args) => { call.runtime.realize(args); return null; },
    tag: (call, args) => {
        // Each value's Ruby to_s, downcased (a 3.x argument: undef is ''); an invalid tag fails.
        const r = call.scope.resource;
        for (const t of args.flat(Infinity as 1)) {
            const name = (t === null ? '' : t instanceof Map ? rubyInspect(t) : formatValue(t)).toLowerCase();
            if (r?.tags.has(name)) continue;
            if (!isValidTag(name)) throw new RuntimeFailure(CatalogIssues.EVAL_INVALID_TAG.message({ name }));
            if (r) for (const x of [name, ...(name.includes('::') ? name.split('::') : [])]) r.tags.add(x);
        }
        return null;
    },
    tagged: (call, args) => {
        const r = call.scope.resource;
        const tags = call.runtime.catalog.tags;
        return args.flat().some(t => typeof t === 'string' && (tags.has(t.toLowerCase()) || (r !== null && r.tags.has(t.toLowerCase()))));
    },
    defined: (call, args) => args.some(a => isDefined(call, a)),
    create_resources: (call, args) => {
        const [type, hash, defaults] = args;
        if (args.length > 3) throw new RuntimeFailure(CatalogIssues.EVAL_CREATE_RESOURCES_ARGUMENTS.message({ count: args.length }));
        if (!(hash instanceof Map)) throw new RuntimeFailure(CatalogIssues.EVAL_CREATE_RESOURCES_NOT_HASH.message({ which: 'second' }));
        if (args.length === 3 && !(defaults instanceof Map)) throw new RuntimeFailure(CatalogIssues.EVAL_CREATE_RESOURCES_NOT_HASH.message({ which: 'third' }));
        const written = type instanceof PResourceType && type.typeName ? type.typeName : formatValue(type);
        // '@type' declares virtual resources, '@@type' exported ones.
        const mode: DeclarationMode = written.startsWith('@@') ? 'exported' : written.startsWith('@') ? 'virtual' : 'real';
        const typeName = written.replace(/^@{1,2}/, '');
        const defs = defaults instanceof Map ? defaults : new Map<PuppetValue, PuppetValue>();
        for (const [title, params] of hash) {
            if (!(params instanceof Map)) throw new RuntimeFailure(CatalogIssues.EVAL_NO_IMPLICIT_HASH.message({ kind: dataClassName(params) ?? 'Object' }));
            const attrs = new Map<string, PuppetValue>();
            for (const [k, v] of defs) attrs.set(String(k), v);
            for (const [k, v] of params) attrs.set(String(k), v);
            const list = [...attrs].map(([name, value]) => ({ name, value, plus: false, where: call.where, unlocated: true }));
            for (const t of Array.isArray(title) ? title : [title]) {
                call.runtime.declare(typeName, t, list, call.scope, mode, { file: call.where.file, line: call.where.line });
            }
        }
        return null;
    }
};
