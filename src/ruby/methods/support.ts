import { classOf, Exceptions, REnumerator, RProc, RRange, rubyError, RubyError, type RValue } from '../objects.js';

/** ArgumentError unless min <= given <= max, with Ruby's message. */
export function arity(args: readonly RValue[], min: number, max = min): void {
    if (args.length >= min && args.length <= max) return;
    const expected = min === max ? `${min}` : max === Infinity ? `${min}+` : `${min}..${max}`;
    throw rubyError('ArgumentError', `wrong number of arguments (given ${args.length}, expected ${expected})`);
}

const conversionName = (v: RValue): string => (v === null ? 'nil' : v === true ? 'true' : v === false ? 'false' : classOf(v).name);

export function str(v: RValue): string {
    if (typeof v === 'string') return v;
    throw rubyError('TypeError', `no implicit conversion of ${conversionName(v)} into String`);
}

export function int(v: RValue): bigint {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
    if (v === null) throw rubyError('TypeError', 'no implicit conversion from nil to integer');
    throw rubyError('TypeError', `no implicit conversion of ${conversionName(v)} into Integer`);
}

export const num = (v: RValue): number => Number(int(v));

export function arr(v: RValue): RValue[] {
    if (Array.isArray(v)) return v;
    throw rubyError('TypeError', `no implicit conversion of ${conversionName(v)} into Array`);
}

export function needBlock(block: RProc | undefined): RProc {
    if (!block) throw rubyError('LocalJumpError', 'no block given (yield)');
    return block;
}

export function isError(e: unknown, cls: keyof typeof Exceptions): boolean {
    return e instanceof RubyError && e.cls.isSubclassOf(Exceptions[cls]);
}

/** What a blockless iteration returns: an Enumerator over `items` finished by `finish`. */
export function enumerator(items: RValue[], method: string, finish: (results: RValue[], items: RValue[]) => RValue): REnumerator {
    return new REnumerator(items, method, finish);
}

export function rangeItems(r: RRange): RValue[] {
    const { from, to } = r;
    if (typeof from === 'bigint' && (typeof to === 'bigint' || typeof to === 'number')) {
        const out: RValue[] = [];
        const end = typeof to === 'number' ? BigInt(Math.floor(to)) : to;
        const stop = r.exclusive && (typeof to === 'bigint' || Number.isInteger(to)) ? end - 1n : end;
        if (stop - from > 10_000_000n) throw rubyError('RangeError', 'range too large for a template');
        for (let i = from; i <= stop; i++) out.push(i);
        return out;
    }
    if (typeof from === 'string' && typeof to === 'string') {
        const out: RValue[] = [];
        let s = from;
        if (s.length > to.length) return out;
        for (let n = 0; n < 100_000; n++) {
            if (s === to) { if (!r.exclusive) out.push(s); return out; }
            out.push(s);
            s = succ(s);
            if (s.length > to.length) return out;
        }
        return out;
    }
    if (from === null || to === null) throw rubyError('RangeError', 'cannot convert endless range to an array');
    throw rubyError('TypeError', `can't iterate from ${classOf(from).name}`);
}

/** String#succ for the alphanumeric strings ranges use: "a" -> "b", "az" -> "ba", "zz" -> "aaa", "a9" -> "b0". */
export function succ(s: string): string {
    if (s === '') return '';
    const chars = s.split('');
    let i = chars.length - 1;
    while (i >= 0) {
        const c = chars[i];
        if (c === 'z') { chars[i] = 'a'; i--; continue; }
        if (c === 'Z') { chars[i] = 'A'; i--; continue; }
        if (c === '9') { chars[i] = '0'; i--; continue; }
        if (/[a-yA-Y0-8]/.test(c)) { chars[i] = String.fromCharCode(c.charCodeAt(0) + 1); return chars.join(''); }
        chars[i] = String.fromCharCode(c.charCodeAt(0) + 1);
        return chars.join('');
    }
    const first = s[0];
    const lead = first === 'z' ? 'a' : first === 'Z' ? 'A' : first === '9' ? '1' : '';
    return lead + chars.join('');
}
