import type { Diff } from '../../../generated/model/index.js';
import { stringifyJson } from '../json-text.js';

type DiffModel = Diff.ModelDiff;

const SIGN: Record<Diff.ChangeKind, string> = { added: '+', removed: '-', changed: '~', moved: '>' };

function where(l: Diff.SourceLocation | undefined): string {
    if (!l) return '';
    return l.line !== undefined ? `${l.file}:${l.line}` : l.file;
}

function value(v: unknown): string {
    return typeof v === 'string' ? JSON.stringify(v) : stringifyJson(v).trimEnd().replace(/\n\s*/g, ' ');
}

function provenanceLine(c: Diff.Change): string | undefined {
    const o = where(c.oldLocation);
    const n = where(c.newLocation);
    const bindings = [c.oldBinding, c.newBinding].filter((b): b is Diff.BindingOrigin => b !== undefined)
        .map(b => `${b.key}${b.layer ? ` in layer ${b.layer}` : ''}${b.category ? ` (${b.category})` : ''}${b.location ? ` at ${where(b.location)}` : ''}`);
    const parts: string[] = [];
    if (o || n) parts.push(o === n || !o || !n ? `at ${o || n}` : `at ${o} -> ${n}`);
    if (bindings.length > 0) parts.push(`bound by ${[...new Set(bindings)].join(' -> ')}`);
    return parts.length > 0 ? parts.join('; ') : undefined;
}

function summaryLine(d: DiffModel): string {
    const s = d.summary;
    if (!s || d.equal) return 'no differences';
    return `${s.total ?? 0} changes: ${s.added ?? 0} added, ${s.removed ?? 0} removed, ${s.changed ?? 0} changed, ${s.moved ?? 0} moved`;
}

function sideName(s: Diff.DiffSide): string {
    return `${s.file ?? s.label ?? '?'} (${s.modelKind})`;
}

/** Plain text for terminals: one line per change, values and provenance indented below. */
export function formatDiffText(d: DiffModel): string {
    const out = [`--- ${sideName(d.oldSide)}`, `+++ ${sideName(d.newSide)}`];
    for (const c of d.changes ?? []) {
        out.push(`${SIGN[c.kind]} ${c.path}${c.feature && !c.path.endsWith(`/${c.feature}`) ? ` ${c.feature}` : ''}`);
        if (c.kind === 'moved') out.push(`    position ${c.oldIndex} -> ${c.newIndex}`);
        else if (c.textDiff) out.push(...c.textDiff.map(l => `    ${l}`));
        else if (c.kind === 'changed') out.push(`    - ${value(c.oldValue)}`, `    + ${value(c.newValue)}`);
        else if (c.kind === 'added' && c.feature) out.push(`    + ${value(c.newValue)}`);
        else if (c.kind === 'removed' && c.feature) out.push(`    - ${value(c.oldValue)}`);
        const prov = provenanceLine(c);
        if (prov) out.push(`    ${prov}`);
    }
    out.push(summaryLine(d));
    return `${out.join('\n')}\n`;
}

/** Markdown for review comments: a summary table, then one collapsible section per change kind. */
export function formatDiffMarkdown(d: DiffModel): string {
    const out = [`### ${d.newSide.modelKind} diff: \`${d.oldSide.file ?? '?'}\` → \`${d.newSide.file ?? '?'}\``, '', `**${summaryLine(d)}**`, ''];
    const byType = d.summary?.byType ?? [];
    if (byType.length > 0) {
        out.push('| type | added | removed | changed | moved |', '|---|---:|---:|---:|---:|');
        for (const t of byType) out.push(`| ${t.objectType} | ${t.added ?? 0} | ${t.removed ?? 0} | ${t.changed ?? 0} | ${t.moved ?? 0} |`);
        out.push('');
    }
    for (const kind of ['added', 'removed', 'changed', 'moved'] as const) {
        const list = (d.changes ?? []).filter(c => c.kind === kind);
        if (list.length === 0) continue;
        out.push(`<details open><summary>${kind} (${list.length})</summary>`, '');
        for (const c of list) {
            const prov = provenanceLine(c);
            out.push(`- \`${c.path}\`${prov ? ` — ${prov}` : ''}`);
            if (c.kind === 'changed' && c.textDiff) out.push('  ```diff', ...c.textDiff.map(l => `  ${l}`), '  ```');
            else if (c.kind === 'changed') out.push(`  - old: \`${value(c.oldValue)}\``, `  - new: \`${value(c.newValue)}\``);
            else if (c.kind === 'moved') out.push(`  - position ${c.oldIndex} → ${c.newIndex}`);
        }
        out.push('', '</details>', '');
    }
    return `${out.join('\n').trimEnd()}\n`;
}
