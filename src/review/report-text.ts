import { changeLine, errorText, nodeCounts, oneLine, originText, revision, STATUS_WORDS, where } from './report-describe.js';
import type { NodeReport, ReviewReport } from './report-model.js';

export function summaryText(r: ReviewReport): string {
    const s = r.summary;
    const nodes = [
        `${s.changed} changed`, `${s.unchanged} unchanged`,
        s.failed ? `${s.failed} stopped compiling` : '', s.fixed ? `${s.fixed} compile again` : '', s.broken ? `${s.broken} fail at both` : ''
    ].filter(Boolean).join(', ');
    return `${s.nodes} node${s.nodes === 1 ? '' : 's'}: ${nodes}; resources: ${s.resourcesAdded} added, ${s.resourcesRemoved} removed, ${s.resourcesChanged} changed`;
}

function nodeText(n: NodeReport): string[] {
    const out = [`${n.node}: ${STATUS_WORDS[n.status]}${n.status === 'changed' ? ` (${nodeCounts(n)})` : ''}`];
    if (n.error) out.push(`  error at head: ${errorText(n.error)}`);
    if (n.baseError) out.push(`  error at base: ${errorText(n.baseError)}`);
    for (const a of n.added) out.push(`  + ${a.resource}${a.declaredAt ? ` at ${where(a.declaredAt)}` : ''}`);
    for (const a of n.removed) out.push(`  - ${a.resource}${a.declaredAt ? ` (was at ${where(a.declaredAt)})` : ''}`);
    for (const c of n.changed) {
        out.push(`  ~ ${c.resource}${c.declaredAt ? ` at ${where(c.declaredAt)}` : ''}`);
        for (const p of c.parameters) {
            const origin = originText(p.origin);
            out.push(`      ${p.name}: ${changeLine(p)}${origin ? ` — ${origin}` : ''}`);
            if (p.diff && !p.redacted) out.push(...p.diff.map(l => `        ${l}`));
            else if (p.kind === 'changed' && p.diff === undefined && !p.redacted && oneLine(p.old).length + oneLine(p.new).length > 160) {
                out.push(`        - ${oneLine(p.old)}`, `        + ${oneLine(p.new)}`);
            }
        }
    }
    return out;
}

const ANSI = { red: '\x1b[31m', green: '\x1b[32m', cyan: '\x1b[36m', bold: '\x1b[1m', reset: '\x1b[0m' } as const;

/** Terminal colours: additions green, removals red, hunk headers cyan, node lines bold. */
function colour(line: string): string {
    const t = line.trimStart();
    const paint = (c: string): string => `${c}${line}${ANSI.reset}`;
    if (/^\S.*: (changed|stopped compiling|compiles again|fails at both)/.test(line)) return paint(ANSI.bold);
    if (t.startsWith('@@')) return paint(ANSI.cyan);
    if (t.startsWith('+') || t.startsWith('error at head')) return paint(t.startsWith('+') ? ANSI.green : ANSI.red);
    if (t.startsWith('-')) return paint(ANSI.red);
    return line;
}

/** The review for a terminal: a summary line, then each node that is not unchanged; `color` for a TTY. */
export function formatReviewText(r: ReviewReport, options: { readonly color?: boolean } = {}): string {
    const out = [`review of ${r.repository}: ${revision(r.base)} → ${revision(r.head)} (environment ${r.environment})`, summaryText(r)];
    for (const n of r.nodes) if (n.status !== 'unchanged') out.push('', ...nodeText(n));
    return `${(options.color ? out.map(colour) : out).join('\n')}\n`;
}
