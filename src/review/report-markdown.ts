import { changeLine, errorText, nodeCounts, originText, revision, STATUS_WORDS, where } from './report-describe.js';
import type { NodeReport, ReviewReport } from './report-model.js';
import { summaryText } from './report-text.js';

/** GitHub refuses comments over 65,536 characters; keep a margin for what CI adds around it. */
export const DEFAULT_MARKDOWN_LIMIT = 60_000;

export interface MarkdownOptions {
    /** Stop adding node sections beyond this many characters. */
    readonly limit?: number;
    /** Where the full JSON report is, for the pointer written when the comment is cut. */
    readonly fullReport?: string;
}

/** Markdown-safe inline code (a backtick inside widens the fence). */
function code(text: string): string {
    const fence = text.includes('`') ? '``' : '`';
    return `${fence}${text.includes('`') ? ` ${text} ` : text}${fence}`;
}

function cell(text: string): string {
    return text.replace(/\|/g, '\\|');
}

function nodeSection(n: NodeReport): string[] {
    const out = [`<details><summary><b>${n.node}</b>: ${nodeCounts(n)}</summary>`, ''];
    if (n.error) out.push(`**Does not compile at head:** ${code(errorText(n.error))}`, '');
    if (n.baseError) out.push(`**Did not compile at base:** ${code(errorText(n.baseError))}`, '');
    if (n.added.length) {
        out.push('**Added**', '');
        for (const a of n.added) out.push(`- ${code(a.resource)}${a.declaredAt ? ` at ${code(where(a.declaredAt))}` : ''}`);
        out.push('');
    }
    if (n.removed.length) {
        out.push('**Removed**', '');
        for (const a of n.removed) out.push(`- ${code(a.resource)}${a.declaredAt ? ` (was at ${code(where(a.declaredAt))})` : ''}`);
        out.push('');
    }
    if (n.changed.length) {
        out.push('**Changed**', '');
        for (const c of n.changed) {
            out.push(`- ${code(c.resource)}${c.declaredAt ? ` at ${code(where(c.declaredAt))}` : ''}`);
            for (const p of c.parameters) {
                const origin = originText(p.origin);
                out.push(`  - ${code(p.name)}: ${changeLine(p)}${origin ? ` — ${origin}` : ''}`);
                if (p.diff && !p.redacted) {
                    // A fence the content cannot close early.
                    const fence = p.diff.some(l => l.includes('```')) ? '~~~~' : '```';
                    out.push(`    ${fence}diff`, ...p.diff.map(l => `    ${l}`), `    ${fence}`);
                }
            }
        }
        out.push('');
    }
    out.push('</details>', '');
    return out;
}

/**
 * The review as a pull-request comment: the summary and a table of the nodes that are not
 * unchanged first, then one collapsible section per such node; sections that would pass the
 * size limit are left out with a pointer to the full JSON report.
 */
export function formatReviewMarkdown(r: ReviewReport, options: MarkdownOptions = {}): string {
    const limit = options.limit ?? DEFAULT_MARKDOWN_LIMIT;
    const shown = r.nodes.filter(n => n.status !== 'unchanged');
    const head = [`### modelc review: ${code(revision(r.base))} → ${code(revision(r.head))}`, '', `**${summaryText(r)}**`, ''];
    if (shown.length > 0) {
        head.push('| node | status | added | removed | changed |', '|---|---|---:|---:|---:|');
        for (const n of shown) head.push(`| ${cell(n.node)} | ${STATUS_WORDS[n.status]} | ${n.added.length} | ${n.removed.length} | ${n.changed.length} |`);
        head.push('');
    }
    const unchanged = r.nodes.length - shown.length;
    if (unchanged > 0 && shown.length > 0) head.push(`${unchanged} other node${unchanged === 1 ? ' is' : 's are'} unchanged.`, '');
    let text = head.join('\n');
    let omitted = 0;
    for (const n of shown) {
        const section = `\n${nodeSection(n).join('\n')}`;
        if (omitted > 0 || text.length + section.length > limit) { omitted++; continue; }
        text += section;
    }
    if (omitted > 0) {
        const pointer = options.fullReport ? `the full report is in ${code(options.fullReport)}` : 'run `modelc review --format json` for the full report';
        text += `\n> ${omitted} node section${omitted === 1 ? '' : 's'} left out to keep this comment under ${limit} characters; ${pointer}.\n`;
    }
    return `${text.trimEnd()}\n`;
}
