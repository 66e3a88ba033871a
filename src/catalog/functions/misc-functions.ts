import { pathExists } from '../../common/index.js';
import { formatValue } from '../../types/index.js';
import { join } from 'node:path';
import { formatTimespanAs, PDeferred, PTimespan, PTimestamp, strftimeUtc, TimeFormatError, utcOffset, type PuppetValue } from '../../values/index.js';
import { DataFailure, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { Closure, FunctionContext, PuppetFunction } from './function.js';
import { checkSignature, legacyArguments } from './signatures.js';
import { filePathText } from './support.js';

/** `mod/rest` -> modules/mod/<kind>/rest, or an absolute path. */
function moduleFilePath(call: FunctionContext, name: string, kind: string): string | undefined {
    const exists = (p: string): boolean => pathExists(call.runtime.loader.fs, p);
    if (name.startsWith('/')) return exists(name) ? name : undefined;
    const [module, ...rest] = name.split('/');
    const p = call.runtime.loader.moduleFile(module, kind, rest.join('/'));
    return p && exists(p) ? p : undefined;
}

/**
 * Puppet's split_key for `get`/`getvar` navigation: segments separated by '.', quoted segments
 * kept as written, whitespace around segments dropped, digit segments as Integer indexes.
 * Null when the string is not well formed.
 */
function splitKey(key: string): PuppetValue[] | null {
    if (!/['".]/.test(key)) return [key];
    const parts = key.split(/(\s*"[^"]+"\s*|\s*'[^']+'\s*|[^'".]+)/);
    while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop(); // Ruby's split drops trailing empties
    if (parts.shift() !== '') return null;
    const count = parts.length;
    if (count === 0) return null;
    const kept = parts.filter(p => p !== '.');
    if (kept.length * 2 !== count + 1) return null;
    return kept.map(seg => {
        const t = seg.trim();
        if (t.startsWith('"') || t.startsWith("'")) return t.slice(1, -1);
        return /^:?[+-]?[0-9]+$/.test(t) ? BigInt(t.replace(/^:/, '')) : t;
    });
}

/** `get`: the value at a dotted path, through `dig` (its argument checks and errors). */
function getFromValue(call: FunctionContext, v: PuppetValue, navigation: string, dflt: PuppetValue | undefined, block?: Closure): PuppetValue {
    if (v === null) return dflt ?? null;
    if (navigation === '') return v;
    const segments = splitKey(`x.${navigation}`);
    if (segments === null) throw new RuntimeFailure(CatalogIssues.EVAL_GET_SYNTAX.message());
    segments.shift();
    const args = [v, ...segments];
    checkSignature('dig', args, undefined);
    try {
        const out = call.functions.get('dig')!({ ...call, name: 'dig' }, args, undefined);
        return out === null ? dflt ?? null : out;
    } catch (e) {
        // dig's failures carry an Error value; a block given to get is handed it.
        if (e instanceof DataFailure && block) return call.callLambda(block, [e.data]);
        throw e;
    }
}


/** Calls a function by name as a direct call would be dispatched. */
function callNamed(call: FunctionContext, name: string, args: PuppetValue[], block: Closure | undefined): PuppetValue {
    const f = call.functions.get(name);
    if (f) {
        const given = legacyArguments(name, args);
        return f({ ...call, name, argumentMismatch: checkSignature(name, given, block?.lambda) }, given, block);
    }
    const def = call.runtime.loader.findFunction(name);
    if (def) return call.runtime.callPuppetFunction(def, args, block, call.where);
    throw new RuntimeFailure(CatalogIssues.EVAL_CALL_UNKNOWN_FUNCTION.message({ name }));
}

/**
 * Puppet's DeferredResolver on a call(Deferred): deferred arguments (in arrays and hashes too)
 * first; a name with '$' digs into that top-scope variable.
 */
function resolveDeferred(call: FunctionContext, d: PDeferred): PuppetValue {
    const resolve = (v: PuppetValue): PuppetValue => v instanceof PDeferred ? resolveDeferred(call, v)
        : Array.isArray(v) ? v.map(resolve) : v instanceof Map ? new Map([...v].map(([k, x]) => [k, resolve(x)])) : v;
    const args = d.args.map(resolve);
    if (!d.name.startsWith('$')) return callNamed(call, d.name, args, undefined);
    // Scope#[] of the top scope: an unknown variable warns as a template's lookup does.
    const value = call.runtime.scopeLookupvar(d.name.slice(1), call.runtime.topScope, call.where) ?? null;
    return callNamed(call, 'dig', [value, ...args], undefined);
}

export const miscFunctions: Record<string, PuppetFunction> = {
    call: (call, [first, ...rest], block) => first instanceof PDeferred ? resolveDeferred(call, first) : callNamed(call, String(first), rest, block),
    getvar: (call, [name, dflt]) => {
        if (call.argumentMismatch) throw new RuntimeFailure(CatalogIssues.EVAL_GETVAR_NAME.message());
        const m = /^((?:::)?(?:\w+::)*\w+)(.*)$/s.exec(String(name))!;
        let navigation = m[2];
        if (navigation.startsWith('.')) navigation = navigation.slice(1);
        else if (navigation !== '') throw new RuntimeFailure(CatalogIssues.EVAL_GETVAR_AFTER_NAME.message({ char: navigation[0] }));
        const v = call.runtime.lookupVariable(m[1], call.scope);
        return v === undefined ? dflt ?? null : getFromValue(call, v, navigation, dflt);
    },
    get: (call, [v, path, dflt], block) => getFromValue(call, v, String(path), dflt, block),
    file: (call, names) => {
        for (const n of names) {
            const p = moduleFilePath(call, filePathText(call, n), 'files');
            if (p) return call.runtime.loader.fs.readText(p);
        }
        throw new RuntimeFailure(CatalogIssues.EVAL_FILE_NOT_FOUND.message({ names: names.map(n => formatValue(n)) }));
    },
    find_file: (call, names) => {
        for (const n of names) {
            const p = moduleFilePath(call, filePathText(call, n), 'files');
            if (p) return p;
        }
        return null;
    },
    find_template: (call, names) => {
        for (const n of names.flat()) {
            const p = moduleFilePath(call, String(n), 'templates');
            if (p) return p;
        }
        return null;
    },
    module_directory: (call, names) => {
        for (const n of names.flat()) {
            const p = call.runtime.loader.moduleFile(String(n), '', '');
            if (p && pathExists(call.runtime.loader.fs, p)) return join(p, '.').replace(/\/\.$/, '');
        }
        return null;
    },
    strftime: (call, [a, b, c]) => {
        // A timezone formats the time at that zone's offset (Puppet's Timestamp.format_time).
        const at = (zone: PuppetValue | undefined): number | undefined => typeof zone === 'string' && zone !== '' ? utcOffset(zone) : undefined;
        try {
            if (a instanceof PTimespan) return formatTimespanAs(a, String(b));
            if (a instanceof PTimestamp) return strftimeUtc(a, String(b), at(c));
            call.runtime.warnOnce('deprecations:legacy#strftime', CatalogIssues.EVAL_STRFTIME_LEGACY.message({ file: call.where.file, line: call.where.line }), call.where);
            return strftimeUtc(new PTimestamp(BigInt(Date.now()) * 1_000_000n), String(a), at(b));
        } catch (e) {
            if (e instanceof TimeFormatError) throw new RuntimeFailure(e.message);
            throw e;
        }
    }
};
