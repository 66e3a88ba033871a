/**
 * Ruby's Float#to_s, which Puppet uses wherever a Float becomes text (PN, notices, JSON):
 * shortest round-trip digits, exponent form below 1e-4 and from 1e15 (16 digits before the point),
 * `-0.0` keeps its sign.
 */
export function formatFloat(f: number): string {
    if (Number.isNaN(f)) return 'NaN';
    if (!Number.isFinite(f)) return f > 0 ? 'Infinity' : '-Infinity';
    if (f === 0) return Object.is(f, -0) ? '-0.0' : '0.0';
    const abs = Math.abs(f);
    if (abs >= 1e15 || abs < 1e-4) {
        const [mant, exp] = f.toExponential().split('e');
        const m = mant.includes('.') ? mant : `${mant}.0`;
        const e = Number(exp);
        return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
    }
    const s = String(f);
    if (s.includes('e')) {
        // JavaScript switches to exponents from 1e21 only; below 1e15 we never get here.
        return s;
    }
    return s.includes('.') ? s : `${s}.0`;
}

/** JSON.rawJSON (Node 21+; ES2023's lib does not declare it): a value JSON.stringify writes as the given text. */
export const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/**
 * A Puppet number as Ruby's JSON generator writes it, for a JSON.stringify replacer: an Integer
 * (bigint) exact, a Float always with a fraction or an exponent (`2.0`, `1.0e+20`), so the two stay
 * apart in the text; a non-finite Float as null.
 */
export function rubyJsonNumber(n: bigint | number): unknown {
    if (typeof n === 'bigint') return rawJson(n.toString());
    return Number.isFinite(n) ? rawJson(formatFloat(n)) : null;
}
