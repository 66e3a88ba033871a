/**
 * Compares two strings by their UTF-8 bytes, as Ruby sorts strings (and Puppet its catalog's
 * resources and tags), without encoding them: up to the first difference the bytes are equal,
 * and there UTF-8 byte order is code point order, which for two characters below the surrogates
 * is their code unit order. A surrogate at the difference (a code point above U+FFFF, or a lone
 * surrogate, which encoding replaces) takes the encoding's way.
 */
export function compareUtf8(a: string, b: string): number {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
        const x = a.charCodeAt(i);
        const y = b.charCodeAt(i);
        if (x === y) continue;
        if ((x >= 0xd800 && x <= 0xdfff) || (y >= 0xd800 && y <= 0xdfff)) return Buffer.compare(Buffer.from(a), Buffer.from(b));
        return x - y;
    }
    return a.length - b.length;
}
