import { stringifyJson } from '../model/index.js';
import type { NodeError } from './compile-node.js';
import type { BindingOrigin, Location, NodeReport, ParameterChange, RevisionInfo, ValueOrigin } from './report-model.js';

/** Shared wording of the text and markdown reports. */

export function where(l: Location | undefined): string {
    if (!l) return '';
    return `${l.file}${l.line !== undefined ? `:${l.line}` : ''}`;
}

/** Rich data for reading: a resource reference (`{__ptype: 'Type', __pvalue: "Service['x']"}`) as its text. */
function readable(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(readable);
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    if (o.__ptype === 'Type' && typeof o.__pvalue === 'string') return { ref: o.__pvalue };
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, readable(x)]));
}

/** A value on one line: strings quoted, data as compact JSON, resource references bare. */
export function oneLine(v: unknown): string {
    if (typeof v === 'string') return JSON.stringify(v);
    return stringifyJson(readable(v)).trimEnd().replace(/\n\s*/g, ' ').replace(/\{ "ref": "((?:[^"\\]|\\.)*)" \}/g, (_, r: string) => JSON.parse(`"${r}"`) as string);
}

export function revision(r: RevisionInfo): string {
    return r.commit ? `${r.label} (${r.commit.slice(0, 10)})` : r.label;
}

export function errorText(e: NodeError): string {
    const at = e.file ? `${e.file}${e.line !== undefined ? `:${e.line}` : ''}${e.column !== undefined ? `:${e.column}` : ''}: ` : '';
    return `${at}error ${e.code}: ${e.message}`;
}

const ORIGIN_WORDS: Record<string, string> = {
    declared: 'set', parameterDefault: 'parameter default', resourceDefault: 'resource default', override: 'override',
    binding: 'looked up', relationship: 'relationship', compiler: 'set by the compiler', enc: 'from the classifier'
};

function bindingText(b: BindingOrigin): string {
    const parts = [`\`${b.key}\``];
    if (b.at) parts.push(`from ${where(b.at)}`);
    const level = [b.category ? `level "${b.category}"` : '', b.layer ? `${b.layer} layer` : ''].filter(Boolean).join(', ');
    if (level) parts.push(`(${level})`);
    if (b.merge && b.contributors) parts.push(`${b.merge} merge of ${b.contributors.map(where).join(', ')}`);
    return parts.join(' ');
}

/** Where a value came from, in words: "looked up `k` from data/x.yaml:4 (level "L", environment layer)". */
export function originText(o: ValueOrigin | undefined): string {
    if (!o) return '';
    if (o.kind === 'binding' && o.binding) return `${ORIGIN_WORDS.binding} ${bindingText(o.binding)}`;
    return `${ORIGIN_WORDS[o.kind] ?? o.kind}${o.at ? ` at ${where(o.at)}` : ''}`;
}

export function changeLine(p: ParameterChange): string {
    if (p.redacted) return `${p.kind} (Sensitive, value redacted)`;
    if (p.diff) return 'content changed';
    switch (p.kind) {
        case 'added': return `added ${oneLine(p.new)}`;
        case 'removed': return `removed (was ${oneLine(p.old)})`;
        case 'changed': return `${oneLine(p.old)} → ${oneLine(p.new)}`;
    }
}

export const STATUS_WORDS: Record<NodeReport['status'], string> = {
    changed: 'changed', unchanged: 'unchanged', failed: 'stopped compiling', fixed: 'compiles again', broken: 'fails at both'
};

export function nodeCounts(n: NodeReport): string {
    const parts = [
        n.added.length ? `${n.added.length} added` : '', n.removed.length ? `${n.removed.length} removed` : '', n.changed.length ? `${n.changed.length} changed` : ''
    ].filter(Boolean);
    return parts.length ? parts.join(', ') : STATUS_WORDS[n.status];
}
