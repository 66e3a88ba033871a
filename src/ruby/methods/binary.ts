import { rubyError, type RValue } from '../objects.js';

/**
 * Strings Ruby holds as bytes (ASCII-8BIT: a digest, `pack`, `Integer#chr` past 127), one
 * character per byte. Plugin strings are JS strings, so which ones are bytes is remembered by
 * value: their bytes are their character codes, not their UTF-8 encoding.
 */
const binary = new Set<string>();

/** Marks a string as bytes; returns it. */
export function asBinary(s: string): string {
    if ([...s].some(c => c.charCodeAt(0) > 0x7f)) binary.add(s);
    return s;
}

export function isBinary(s: string): boolean {
    return binary.has(s);
}

/** A string's bytes as Ruby has them. */
export function bytesOf(s: string): Buffer {
    return Buffer.from(s, binary.has(s) ? 'latin1' : 'utf8');
}

/** Bytes as a Ruby binary string. */
export function binaryString(b: Uint8Array): string {
    return asBinary(Buffer.from(b).toString('latin1'));
}

/** `Array#pack` for the directives plugin code uses to build bytes: `C`/`c` (8-bit), with a count or `*`. */
export function pack(items: RValue[], format: string): string {
    const out: number[] = [];
    let i = 0;
    for (const m of format.replace(/\s+/g, '').matchAll(/([a-zA-Z])(\*|\d+)?/g)) {
        const [, d, n] = m;
        if (d !== 'C' && d !== 'c') throw rubyError('NotImplementedError', `pack directive ${d} is not supported`);
        const count = n === '*' ? items.length - i : n === undefined ? 1 : Number(n);
        for (let k = 0; k < count; k++, i++) {
            const v = items[i];
            if (typeof v !== 'bigint') throw rubyError('TypeError', `no implicit conversion of ${v === undefined ? 'nil' : typeof v} into Integer`);
            out.push(Number(BigInt.asUintN(8, v)));
        }
    }
    return binaryString(Uint8Array.from(out));
}

/** `String#unpack` for hex (`H`, `h`) and 8-bit (`C`, `c`) directives, with a count or `*`. */
export function unpack(s: string, format: string): RValue[] {
    const bytes = bytesOf(s);
    const out: RValue[] = [];
    let pos = 0;
    for (const m of format.replace(/\s+/g, '').matchAll(/([a-zA-Z])(\*|\d+)?/g)) {
        const [, d, n] = m;
        if (d === 'H' || d === 'h') {
            const digits = n === '*' ? (bytes.length - pos) * 2 : n === undefined ? 1 : Number(n);
            let text = '';
            for (let k = 0; k < digits && pos + (k >> 1) < bytes.length; k++) {
                const b = bytes[pos + (k >> 1)];
                const hi = d === 'H' ? k % 2 === 0 : k % 2 === 1;
                text += ((hi ? b >> 4 : b & 0x0f)).toString(16);
            }
            pos += Math.ceil(digits / 2);
            out.push(text);
        } else if (d === 'C' || d === 'c') {
            const count = n === '*' ? bytes.length - pos : n === undefined ? 1 : Number(n);
            for (let k = 0; k < count; k++, pos++) {
                out.push(pos < bytes.length ? BigInt(d === 'C' ? bytes[pos] : (bytes[pos] << 24) >> 24) : null);
            }
        } else {
            throw rubyError('NotImplementedError', `unpack directive ${d} is not supported`);
        }
    }
    return out;
}
