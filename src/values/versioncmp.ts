/**
 * Puppet's versioncmp (Puppet::Util::Package.versioncmp): versions split into numbers, words and
 * separators; numbers compare by value unless one has a leading zero. Shared by the built-in
 * function and the Ruby plugin API.
 */
export function versioncmp(a: string, b: string): number {
    const vre = /[-.]|\d+|[^-.\d]+/g;
    const ax = a.match(vre) ?? [];
    const bx = b.match(vre) ?? [];
    const cmp = (x: string, y: string): number => x < y ? -1 : x > y ? 1 : 0;
    while (ax.length && bx.length) {
        const x = ax.shift() as string;
        const y = bx.shift() as string;
        if (x === y) continue;
        if (x === '-') return -1;
        if (y === '-') return 1;
        if (x === '.') return -1;
        if (y === '.') return 1;
        if (/^\d+$/.test(x) && /^\d+$/.test(y)) {
            if (x.startsWith('0') || y.startsWith('0')) return cmp(x.toUpperCase(), y.toUpperCase());
            return Math.sign(Number(BigInt(x) - BigInt(y)));
        }
        return cmp(x.toUpperCase(), y.toUpperCase());
    }
    return cmp(a, b);
}
