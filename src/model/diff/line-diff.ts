import { lazyRequire } from '../../common/index.js';

const diffLib = lazyRequire<typeof import('diff')>(import.meta.url, 'diff');

/** Lines of context kept around each change, as `diff -u` does. */
export const DEFAULT_CONTEXT = 3;

/**
 * A unified diff of two texts as hunks: `@@ -a,b +c,d @@` headers, then `' '`/`'-'`/`'+'`-prefixed
 * lines, with `context` unchanged lines around each change (Myers' O(ND) diff from the `diff`
 * package, so a one-line change in a long file costs about its length, not its square).
 */
export function lineDiff(a: string, b: string, context = DEFAULT_CONTEXT): string[] {
    const patch = diffLib().structuredPatch('old', 'new', a, b, undefined, undefined, { context });
    const out: string[] = [];
    for (const h of patch.hunks) {
        out.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines);
    }
    return out;
}

/** `diff -u`'s range: the start alone for one line, `start,0` (one before) for none. */
function range(start: number, lines: number): string {
    if (lines === 1) return String(start);
    return `${lines === 0 ? start - 1 : start},${lines}`;
}
