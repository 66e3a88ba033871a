/**
 * A line diff of two texts as `' '`/`'-'`/`'+'`-prefixed lines (longest common subsequence).
 * Texts in models are small (file contents, templates), so the quadratic table is fine; very
 * long texts fall back to "all removed, all added" rather than allocate a huge table.
 */
export function lineDiff(a: string, b: string): string[] {
    // A final newline ends the last line; it does not start an empty one.
    const x = (a.endsWith('\n') ? a.slice(0, -1) : a).split('\n');
    const y = (b.endsWith('\n') ? b.slice(0, -1) : b).split('\n');
    if (x.length * y.length > 4_000_000) return [...x.map(l => `-${l}`), ...y.map(l => `+${l}`)];
    const n = x.length;
    const m = y.length;
    const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
        for (let j = m - 1; j >= 0; j--) {
            lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
        }
    }
    const out: string[] = [];
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
        if (x[i] === y[j]) { out.push(` ${x[i]}`); i++; j++; }
        else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push(`-${x[i++]}`);
        else out.push(`+${y[j++]}`);
    }
    while (i < n) out.push(`-${x[i++]}`);
    while (j < m) out.push(`+${y[j++]}`);
    if (a.endsWith('\n') !== b.endsWith('\n')) {
        out.push(b.endsWith('\n') ? '\\ newline at end of file added' : '\\ newline at end of file removed');
    }
    return out;
}
