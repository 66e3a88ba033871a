import { compareUtf8, rawJson, rubyJsonNumber } from '../common/index.js';
import {
    capitalize, PAnyType, PArrayType, PBooleanType, PClassType, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PNotUndefType,
    POptionalType, PPatternType, PRegexpType, PResourceType, PSimpleType, PStringType, PTupleType, PTypeType, PVariantType, resolveAlias
} from '../types/index.js';
import { PSensitive, resourceReference, toData, type PuppetValue, type ToDataRules } from '../values/index.js';
import type { CompileResult, LogEntry } from './compiler.js';
import type { CompileError } from './errors.js';
import type { CatalogResource } from './resource.js';

/**
 * A JSON value whose numbers keep Puppet's Integer/Float distinction: bigint is an Integer,
 * number a Float (written with a fraction). `undefined` members are left out.
 */
export type Json = null | boolean | bigint | number | string | Json[] | { [key: string]: Json | undefined };

/** How catalogs write what rich data leaves open: exact Integers, references as "Type[title]" strings, other types as Pcore objects. */
const CATALOG_RULES: ToDataRules = {
    integer: n => n,
    float: n => n,
    type: t => {
        if (!(t instanceof PAnyType)) return null;
        if (t instanceof PResourceType && t.typeName !== null && t.title !== null) return resourceReference(t.typeName, t.title);
        if (t instanceof PClassType && t.className !== null) return `Class[${t.className === 'main' ? 'main' : capitalize(t.className)}]`;
        return pcoreType(t);
    }
};

/**
 * CATALOG_RULES with every number already the text Ruby writes (JSON.rawJSON): a tree made with
 * them is JSON.stringify'd without a replacer, natively, instead of calling back into script for
 * every member (the replacer was a fifth of a cold compile of 5,000 resources).
 */
const TEXT_RULES: ToDataRules = {
    integer: n => rawJson(n.toString()),
    float: n => rubyJsonNumber(n),
    type: t => numbersAsText(CATALOG_RULES.type(t) as Json)
};

/** `v` with its numbers as TEXT_RULES writes them (for the few trees not made by toData). */
function numbersAsText(v: Json | undefined): unknown {
    if (typeof v === 'bigint' || typeof v === 'number') return rubyJsonNumber(v);
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(numbersAsText);
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, numbersAsText(x)]));
}

/** The rich-data JSON form of a catalog parameter value (values' one encoder, catalog rules). */
export function toCatalogJson(v: PuppetValue): Json {
    return toData(v, CATALOG_RULES) as Json;
}

/** A type as Puppet's rich data writes it: `{"__ptype": "Pcore::IntegerType", "from": 1, "to": 2}`. */
export function pcoreType(t: PAnyType): Json {
    const r = resolveAlias(t);
    const out: { [k: string]: Json | undefined } = { __ptype: `Pcore::${r.kind}Type` };
    const range = (from: bigint | number | null, to: bigint | number | null): void => {
        if (from !== null || to !== null) out.from = from;
        if (to !== null) out.to = to;
    };
    const sub = (x: PAnyType | null): Json | undefined => x === null ? undefined : pcoreType(x);
    if (r instanceof PIntegerType) range(r.from, r.to);
    else if (r instanceof PFloatType) range(r.from, r.to);
    else if (r instanceof PStringType) out.size_type_or_value = sub(r.size);
    else if (r instanceof PEnumType) { out.values = [...r.values]; if (r.caseInsensitive) out.case_insensitive = true; }
    else if (r instanceof PPatternType) out.patterns = r.patterns.map(p => ({ __ptype: 'Pcore::RegexpType', pattern: p.source }));
    else if (r instanceof PRegexpType) out.pattern = r.pattern?.source;
    else if (r instanceof PArrayType) { out.element_type = sub(r.element ?? PSimpleType.of('Any')); out.size_type = sub(r.size); }
    else if (r instanceof PHashType) { out.key_type = sub(r.key ?? PSimpleType.of('Any')); out.value_type = sub(r.value ?? PSimpleType.of('Any')); out.size_type = sub(r.size); }
    else if (r instanceof PTupleType) { out.types = r.types.map(pcoreType); out.size_type = sub(r.size); }
    else if (r instanceof PVariantType) out.types = r.types.map(pcoreType);
    else if (r instanceof POptionalType || r instanceof PNotUndefType || r instanceof PTypeType || r instanceof PIterableType) out.type = sub(r.type);
    else if (r instanceof PBooleanType && r.value !== null) out.value = r.value;
    else if (r instanceof PResourceType) { if (r.typeName !== null) out.type_name = capitalize(r.typeName); }
    else if (r instanceof PClassType) { if (r.className !== null) out.class_name = r.className; }
    return out;
}

const byteCompare = compareUtf8;

/** A resource of the normalized catalog; with TEXT_RULES, its numbers are already their JSON text. */
function resourceJson(r: CatalogResource, rules: ToDataRules = CATALOG_RULES): Json {
    const params = r.outputParams();
    const names = [...params.keys()].filter(k => params.get(k)?.value !== null).sort(byteCompare);
    const parameters: { [k: string]: Json } = {};
    const sensitive: string[] = [];
    for (const k of names) {
        let v = params.get(k)?.value ?? null;
        if (v instanceof PSensitive) { sensitive.push(k); v = v.value; }
        parameters[k] = toData(v, rules) as Json;
    }
    return {
        type: r.type, title: r.title, tags: [...r.tags].sort(byteCompare), exported: r.exported,
        file: r.where?.file, line: r.where ? rules.integer(BigInt(r.where.line)) as Json : undefined,
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
                message: r.plain ? r.message : `${r.message} on node ${result.node}`, file: r.file ?? null, line: r.line === undefined ? null : BigInt(r.line),
                pos: r.pos === undefined ? undefined : BigInt(r.pos), issue_code: r.issueCode, basic_message: r.basic,
                class: r.rubyClass, cause_class: r.causeClass
            },
            notices, logs: r.plain ? logs : [...logs, errorLog(e, result.node)]
        };
    }
    return catalogJson(result, notices, logs, resources => resources.map(r => resourceJson(r)));
}

/**
 * `normalizedResult(result)` as JSON text, written in pieces as `writeJsonText` does, each
 * resource made as it is written: a catalog of 100,000 resources is never held twice over.
 */
export function writeNormalizedResult(result: CompileResult, write: (piece: string) => void): void {
    if (result.error) {
        writeJsonText(normalizedResult(result), write);
        return;
    }
    let sorted: readonly CatalogResource[] = [];
    const whole = catalogJson(result, result.logs.filter(l => l.level === 'notice').map(l => l.message), result.logs.map(l => logJson(l, result.node)),
        resources => { sorted = resources; return LATER; });
    writeJsonText(whole, write, '', 2,
        v => (v === LATER ? { length: sorted.length, at: i => JSON.stringify(resourceJson(sorted[i] as CatalogResource, TEXT_RULES), null, 2) } : undefined));
}

/** Stands for the resources in the tree `writeNormalizedResult` writes. */
const LATER: Json[] = [];

function catalogJson(result: CompileResult, notices: string[], logs: Json[], resourcesJson: (sorted: CatalogResource[]) => Json[]): Json {
    const cat = result.catalog;
    const resources = [...cat.resources];
    const sorted = [...resources].sort((a, b) => byteCompare(a.type, b.type) || byteCompare(a.title, b.title));
    const present = new Set(resources);
    const edges = cat.edges.filter(x => present.has(x.source) && present.has(x.target))
        .map(x => ({ source: x.source.ref, target: x.target.ref }))
        .sort((a, b) => byteCompare(a.source, b.source) || byteCompare(a.target, b.target));
    return {
        name: result.node, environment: result.environment, classes: [...cat.classes], tags: [...cat.tags].sort(byteCompare),
        resources: resourcesJson(sorted), edges, resource_order: resources.map(r => r.ref), notices, logs
    };
}

/**
 * jsonText's text in pieces, for output too large to build as one string (a 100k-resource
 * catalog is 55 MB): the two outer levels are written piece by piece, each element below them
 * as jsonText makes it. The pieces joined are exactly jsonText(v).
 */
export function writeJsonText(v: Json, write: (piece: string) => void, indent = '', depth = 2,
    later?: (v: Json) => { readonly length: number; at(i: number): string } | undefined): void {
    if (depth === 0 || v === null || typeof v !== 'object') {
        write(jsonText(v, indent));
        return;
    }
    const inner = `${indent}  `;
    // An array whose items' JSON text (at no indentation) is made as it is written (see writeNormalizedResult).
    const lazy = later?.(v);
    if (lazy) {
        if (lazy.length === 0) {
            write('[]');
            return;
        }
        write('[\n');
        for (let i = 0; i < lazy.length; i++) {
            const text = lazy.at(i);
            write(`${inner}${text.includes('\n') ? text.replaceAll('\n', `\n${inner}`) : text}${i < lazy.length - 1 ? ',\n' : '\n'}`);
        }
        write(`${indent}]`);
        return;
    }
    const items: Array<[string, Json]> = Array.isArray(v)
        ? v.map(x => ['', x])
        : Object.entries(v).filter((e): e is [string, Json] => e[1] !== undefined).map(([k, x]) => [`${JSON.stringify(k)}: `, x]);
    const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
    if (items.length === 0) {
        write(`${open}${close}`);
        return;
    }
    write(`${open}\n`);
    items.forEach(([key, x], i) => {
        write(`${inner}${key}`);
        writeJsonText(x, write, inner, depth - 1, later);
        write(i < items.length - 1 ? ',\n' : '\n');
    });
    write(`${indent}${close}`);
}

/**
 * Puppet's numbers as Ruby writes them; everything else is left to JSON.stringify, whose native
 * walk is several times faster than building the text in script (the whole output of a cold
 * compile is written this way).
 */
function puppetNumbers(_key: string, v: unknown): unknown {
    return typeof v === 'bigint' || typeof v === 'number' ? rubyJsonNumber(v) : v;
}

/** JSON text with 2-space indentation; Floats keep a fraction, Integers are exact. */
export function jsonText(v: Json, indent = ''): string {
    const text = JSON.stringify(v, puppetNumbers, 2);
    // A string's line breaks are escaped in JSON text, so every break is one of the layout's.
    return indent && text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text;
}
