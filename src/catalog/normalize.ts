import { rawJson, rubyJsonNumber, utf8OrderFor } from '../common/index.js';
import {
    capitalize, PAnyType, PArrayType, PBooleanType, PClassType, PEnumType, PFloatType, PHashType, PIntegerType, PIterableType, PNotUndefType,
    POptionalType, PPatternType, PRegexpType, PResourceType, PSimpleType, PStoredReference, PStringType, PTupleType, PTypeType, PVariantType, resolveAlias
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
    },
    // Puppet writes a parameter's references as their text, a hash's keys included.
    key: k => k instanceof PStoredReference ? resourceReference(k.typeName!, k.title!) : undefined
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

/** A resource of the normalized catalog; with TEXT_RULES, its numbers are already their JSON text. */
function resourceJson(r: CatalogResource, rules: ToDataRules = CATALOG_RULES): Json {
    const params = r.outputParams();
    const names: string[] = [];
    params.forEach((p, k) => { if (p.value !== null) names.push(k); });
    // Attribute names are Puppet names (ASCII): the native order is their UTF-8 order.
    names.sort();
    const parameters: { [k: string]: Json } = {};
    let sensitive: string[] | undefined;
    for (const k of names) {
        let v = params.get(k)?.value ?? null;
        if (v instanceof PSensitive) { (sensitive ??= []).push(k); v = v.value; }
        parameters[k] = toData(v, rules) as Json;
    }
    const tags = [...r.tags];
    return {
        type: r.type, title: r.title, tags: tags.sort(utf8OrderFor(tags)), exported: r.exported,
        file: r.where?.file, line: r.where ? rules.integer(BigInt(r.where.line)) as Json : undefined,
        parameters, sensitive_parameters: sensitive
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
    writeJsonText(whole, write, '', 2, v => (v === LATER ? inner => resourceTexts(sorted, inner) : undefined));
}

/** Resources written per JSON.stringify call: one call per resource was a tenth of writing a catalog. */
const BATCH = 128;

function* resourceTexts(sorted: readonly CatalogResource[], inner: string): Generator<string> {
    for (let i = 0; i < sorted.length; i += BATCH) {
        yield elementsText(sorted.slice(i, i + BATCH).map(r => resourceJson(r, TEXT_RULES)), inner);
    }
}

/**
 * The JSON text of `items` as elements of an array at indentation `inner`, each on its own lines,
 * separated by `,\n`, as jsonText writes them: JSON.stringify indents them itself when they are
 * wrapped in as many arrays as `inner` is deep, whose brackets are then cut off.
 */
function elementsText(items: readonly unknown[], inner: string): string {
    let wrapped: unknown = items;
    let open = '[\n';
    let close = '\n]';
    for (let indent = '  '; indent.length <= inner.length - 2; indent += '  ') {
        wrapped = [wrapped];
        open = `${open}${indent}[\n`;
        close = `\n${indent}]${close}`;
    }
    const text = JSON.stringify(wrapped, null, 2);
    return text.slice(open.length, text.length - close.length);
}

/** Stands for the resources in the tree `writeNormalizedResult` writes. */
const LATER: Json[] = [];

function catalogJson(result: CompileResult, notices: string[], logs: Json[], resourcesJson: (sorted: CatalogResource[]) => Json[]): Json {
    const cat = result.catalog;
    const resources = [...cat.resources];
    const order = utf8OrderFor(resources.flatMap(r => [r.type, r.title]));
    const sorted = [...resources].sort((a, b) => order(a.type, b.type) || order(a.title, b.title));
    const present = new Set(resources);
    const edges = cat.edges.filter(x => present.has(x.source) && present.has(x.target))
        .map(x => ({ source: x.source.ref, target: x.target.ref }));
    const edgeOrder = utf8OrderFor(edges.flatMap(x => [x.source, x.target]));
    edges.sort((a, b) => edgeOrder(a.source, b.source) || edgeOrder(a.target, b.target));
    const tags = [...cat.tags];
    return {
        name: result.node, environment: result.environment, classes: [...cat.classes], tags: tags.sort(utf8OrderFor(tags)),
        resources: resourcesJson(sorted), edges, resource_order: resources.map(r => r.ref), notices, logs
    };
}

/**
 * jsonText's text in pieces, for output too large to build as one string (a 100k-resource
 * catalog is 55 MB): the two outer levels are written piece by piece, each element below them
 * as jsonText makes it. The pieces joined are exactly jsonText(v).
 */
export function writeJsonText(v: Json, write: (piece: string) => void, indent = '', depth = 2,
    later?: (v: Json) => ((inner: string) => Iterable<string>) | undefined): void {
    if (depth === 0 || v === null || typeof v !== 'object') {
        write(jsonText(v, indent));
        return;
    }
    const inner = `${indent}  `;
    // An array whose elements' text is made as it is written, in pieces of several elements each
    // already at `inner` (see writeNormalizedResult).
    const lazy = later?.(v);
    if (lazy) {
        let first = true;
        for (const piece of lazy(inner)) {
            write(first ? `[\n${piece}` : `,\n${piece}`);
            first = false;
        }
        write(first ? '[]' : `\n${indent}]`);
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
    // Array elements written whole with no number in them (edges, resource_order: one per
    // resource) go out BATCH at a time through one JSON.stringify.
    let batch: Json[] = [];
    let separator = `${open}\n`;
    const flush = (): void => {
        if (batch.length === 0) return;
        write(`${separator}${elementsText(batch, inner)}`);
        separator = ',\n';
        batch = [];
    };
    for (const [key, x] of items) {
        const whole = depth === 1 || x === null || typeof x !== 'object';
        if (key === '' && whole && numberFree(x)) {
            batch.push(x);
            if (batch.length === BATCH) flush();
            continue;
        }
        flush();
        if (whole) {
            write(`${separator}${inner}${key}${jsonText(x, inner)}`);
        } else {
            write(`${separator}${inner}${key}`);
            writeJsonText(x, write, inner, depth - 1, later);
        }
        separator = ',\n';
    }
    flush();
    write(`\n${indent}${close}`);
}

/** Whether JSON.stringify writes `v` as Puppet does without a replacer: no number in it, one level down at most (edges, strings). */
function numberFree(v: Json): boolean {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
    if (typeof v !== 'object') return false;
    for (const x of Array.isArray(v) ? v : Object.values(v)) {
        if (x !== null && x !== undefined && typeof x !== 'string' && typeof x !== 'boolean') return false;
    }
    return true;
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
    const text = JSON.stringify(v, numberFree(v) ? undefined : puppetNumbers, 2);
    // A string's line breaks are escaped in JSON text, so every break is one of the layout's.
    return indent && text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text;
}
