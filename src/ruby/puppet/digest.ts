import { createHash } from 'node:crypto';
import { RClass, type Method, type RValue } from '../objects.js';

/** Strings Ruby holds as bytes (what `digest` returns): hashed and encoded as such, not as UTF-8. */
const binary = new Set<string>();
const bytesOf = (s: string): Buffer => Buffer.from(s, binary.has(s) ? 'latin1' : 'utf8');

function digestClass(name: string, algorithm: string): RClass {
    const c = new RClass(`Digest::${name}`, null);
    const str = (v: RValue | undefined): string => (typeof v === 'string' ? v : String(v ?? ''));
    const statics: Record<string, Method> = {
        hexdigest: (_s, args) => createHash(algorithm).update(bytesOf(str(args[0]))).digest('hex'),
        base64digest: (_s, args) => createHash(algorithm).update(bytesOf(str(args[0]))).digest('base64'),
        digest: (_s, args) => {
            const out = createHash(algorithm).update(bytesOf(str(args[0]))).digest().toString('latin1');
            binary.add(out);
            return out;
        }
    };
    for (const [n, m] of Object.entries(statics)) c.defineStatic(n, m);
    return c;
}

/** `Digest::MD5`, `Digest::SHA1`, `Digest::SHA256`, `Digest::SHA512` and `Base64`: pure computations plugin code uses. */
export function digestConstants(): Array<[string, RValue]> {
    const digest = new RClass('Digest', null, [], true);
    const out: Array<[string, RValue]> = [['Digest', digest]];
    for (const [n, a] of [['MD5', 'md5'], ['SHA1', 'sha1'], ['SHA256', 'sha256'], ['SHA384', 'sha384'], ['SHA512', 'sha512']]) {
        const c = digestClass(n, a);
        digest.constants.set(n, c);
        out.push([`Digest::${n}`, c]);
    }
    const base64 = new RClass('Base64', null, [], true);
    const s = (v: RValue | undefined): string => (typeof v === 'string' ? v : '');
    base64.defineStatic('encode64', (_x, args) => (Buffer.from(s(args[0]), 'utf8').toString('base64').replace(/(.{60})/g, '$1\n') + '\n').replace(/\n\n$/, '\n'));
    base64.defineStatic('strict_encode64', (_x, args) => Buffer.from(s(args[0]), 'utf8').toString('base64'));
    base64.defineStatic('urlsafe_encode64', (_x, args) => Buffer.from(s(args[0]), 'utf8').toString('base64url'));
    for (const n of ['decode64', 'strict_decode64', 'urlsafe_decode64']) base64.defineStatic(n, (_x, args) => Buffer.from(s(args[0]), 'base64').toString('utf8'));
    out.push(['Base64', base64]);
    return out;
}
