import { capitalize, PAnyType, PClassType, PResourceType, typeToString } from '../types/index.js';
import {
    formatFloat, formatTimespan, formatTimestamp, PBinary, PDefault, PDeferred, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp,
    type PuppetValue
} from '../values/index.js';
import type { CompileResult, LogEntry } from './compiler.js';
import type { CompileError } from './errors.js';
import type { CatalogResource } from './resource.js';

/**
 * A JSON value whose numbers keep Puppet's Integer/Float distinction: bigint is an Integer,
 * number a Float (written with a fraction). `undefined` members are left out.
 */
export type Json = null | boolean | bigint | number | string | Json[] | { [key: string]: Json | undefined };

/** The rich-data JSON form of a catalog parameter value (references as "Type[title]" strings). */
export function toCatalogJson(v: PuppetValue): Json {
    if (v === null || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'number' || typeof v === 'string') return v;
    if (Array.isArray(v)) return v.map(toCatalogJson);
    if (v instanceof Map) {
        if ([...v.keys()].every(k => typeof k === 'string' && k !== '__ptype')) {
            const o: { [k: string]: Json } = {};
            for (const [k, x] of v) o[k as string] = toCatalogJson(x);
            return o;
        }
        return { __ptype: 'Hash', __pvalue: [...v].flatMap(([k, x]) => [toCatalogJson(k), toCatalogJson(x)]) };
    }
    if (v instanceof PResourceType && v.typeName !== null && v.title !== null) return `${capitalize(v.typeName)}[${v.title}]`;
    if (v instanceof PClassType && v.className !== null) return `Class[${v.className === 'main' ? 'main' : capitalize(v.className)}]`;
    if (v instanceof PSensitive) return { __ptype: 'Sensitive', __pvalue: toCatalogJson(v.value) };
    if (v instanceof PDefault) return { __ptype: 'Default' };
    if (v instanceof PRegexp) return { __ptype: 'Regexp', __pvalue: v.source };
    if (v instanceof PBinary) return { __ptype: 'Binary', __pvalue: Buffer.from(v.bytes).toString('base64') };
    if (v instanceof PTimestamp) return { __ptype: 'Timestamp', __pvalue: formatTimestamp(v) };
    if (v instanceof PTimespan) return { __ptype: 'Timespan', __pvalue: formatTimespan(v) };
    if (v instanceof PSemVer) return { __ptype: 'SemVer', __pvalue: v.toString() };
    if (v instanceof PSemVerRange) return { __ptype: 'SemVerRange', __pvalue: v.toString() };
    if (v instanceof PDeferred) return { __ptype: 'Deferred', name: v.name, arguments: v.args.map(toCatalogJson) };
    if (v instanceof PAnyType) return { __ptype: 'Type', __pvalue: typeToString(v) };
    return null;
}

function byteCompare(a: string, b: string): number {
    return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function resourceJson(r: CatalogResource): Json {
    const names = [...r.params.keys()].filter(k => r.params.get(k)?.value !== null).sort(byteCompare);
    const parameters: { [k: string]: Json } = {};
    const sensitive: string[] = [];
    for (const k of names) {
        let v = r.params.get(k)?.value ?? null;
        if (v instanceof PSensitive) { sensitive.push(k); v = v.value; }
        parameters[k] = toCatalogJson(v);
    }
    return {
        type: r.type, title: r.title, tags: [...r.tags].sort(byteCompare), exported: r.exported,
        file: r.where?.file, line: r.where ? BigInt(r.where.line) : undefined,
        parameters, sensitive_parameters: sensitive.length ? sensitive : undefined
    };
}

function logJson(l: LogEntry, node: string): Json {
    return {
        level: l.level, message: l.message, source: l.source, file: l.file, line: l.line === undefined ? undefined : BigInt(l.line)
    } satisfies Json;
    void node;
}

function errorLog(e: CompileError, node: string): Json {
    const log = e.report.log;
    return {
        level: 'err', message: log.withNode ? `${log.message} on node ${node}` : log.message,
        file: log.file, line: log.line === undefined ? undefined : BigInt(log.line)
    };
}

/** The oracle's normalized JSON (a catalog, or the error object), as a Json tree. */
export function normalizedResult(result: CompileResult): Json {
    const notices = result.logs.filter(l => l.level === 'notice').map(l => l.message);
    const logs = result.logs.map(l => logJson(l, result.node));
    const e = result.error;
    if (e) {
        const r = e.report;
        return {
            error: {
                message: `${r.message} on node ${result.node}`, file: r.file ?? null, line: r.line === undefined ? null : BigInt(r.line),
                pos: r.pos === undefined ? undefined : BigInt(r.pos), issue_code: r.issueCode, basic_message: r.basic,
                class: r.rubyClass, cause_class: r.causeClass
            },
            notices, logs: [...logs, errorLog(e, result.node)]
        };
    }
    const cat = result.catalog;
    const resources = [...cat.resources.values()];
    const sorted = [...resources].sort((a, b) => byteCompare(a.type, b.type) || byteCompare(a.title, b.title));
    const present = new Set(resources);
    const edges = cat.edges.filter(x => present.has(x.source) && present.has(x.target))
        .map(x => ({ source: x.source.ref, target: x.target.ref }))
        .sort((a, b) => byteCompare(a.source, b.source) || byteCompare(a.target, b.target));
    return {
        name: result.node, environment: result.environment, classes: [...cat.classes], tags: [...cat.tags].sort(byteCompare),
        resources: sorted.map(resourceJson), edges, resource_order: resources.map(r => r.ref), notices, logs
    };
}

/** JSON text with 2-space indentation; Floats keep a fraction, Integers are exact. */
export function jsonText(v: Json, indent = ''): string {
    if (v === null) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'number') return Number.isFinite(v) ? formatFloat(v).replace(/e\+?/, 'e') : 'null';
    if (typeof v === 'string') return JSON.stringify(v);
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
        if (v.length === 0) return '[]';
        return `[\n${v.map(x => inner + jsonText(x, inner)).join(',\n')}\n${indent}]`;
    }
    const entries = Object.entries(v).filter((e): e is [string, Json] => e[1] !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${jsonText(x, inner)}`).join(',\n')}\n${indent}}`;
}
