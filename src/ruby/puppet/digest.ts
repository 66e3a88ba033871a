import { createHash, pbkdf2Sync } from 'node:crypto';
import { binaryString, bytesOf } from '../methods/binary.js';
import { RClass, RObject, rubyError, type Method, type RValue } from '../objects.js';

const str = (v: RValue | undefined): string => (typeof v === 'string' ? v : String(v ?? ''));

/** The algorithm of a digest object (`Digest::SHA1.new`, `OpenSSL::Digest::SHA512.new`) and what it was fed. */
interface DigestState { readonly algorithm: string; chunks: Buffer[] }
const states = new WeakMap<RObject, DigestState>();

function stateOf(v: RValue): DigestState {
    const s = v instanceof RObject ? states.get(v) : undefined;
    if (!s) throw rubyError('TypeError', 'not a digest');
    return s;
}

const hashOf = (s: DigestState): Buffer => createHash(s.algorithm).update(Buffer.concat(s.chunks)).digest();

/** A digest class: one-shot class methods and instances fed with `update`/`<<`. */
function digestClass(path: string, algorithm: string): RClass {
    const c = new RClass(path, null);
    const statics: Record<string, Method> = {
        hexdigest: (_s, args) => createHash(algorithm).update(bytesOf(str(args[0]))).digest('hex'),
        base64digest: (_s, args) => createHash(algorithm).update(bytesOf(str(args[0]))).digest('base64'),
        digest: (_s, args) => binaryString(createHash(algorithm).update(bytesOf(str(args[0]))).digest()),
        new: (_s, args) => {
            const o = new RObject(c, `#<${path}>`);
            states.set(o, { algorithm, chunks: args.length > 0 ? [bytesOf(str(args[0]))] : [] });
            return o;
        }
    };
    for (const [n, m] of Object.entries(statics)) c.defineStatic(n, m);
    const update: Method = (self, args) => { stateOf(self).chunks.push(bytesOf(str(args[0]))); return self; };
    c.define(['update', '<<'], update);
    c.define('reset', self => { stateOf(self).chunks = []; return self; });
    c.define('digest', self => binaryString(hashOf(stateOf(self))));
    c.define(['hexdigest', 'to_s'], self => hashOf(stateOf(self)).toString('hex'));
    c.define('base64digest', self => hashOf(stateOf(self)).toString('base64'));
    c.define('name', () => algorithm.toUpperCase());
    return c;
}

const ALGORITHMS: ReadonlyArray<readonly [string, string]> = [['MD5', 'md5'], ['SHA1', 'sha1'], ['SHA256', 'sha256'], ['SHA384', 'sha384'], ['SHA512', 'sha512']];

/**
 * `Digest::MD5` ... `Digest::SHA512`, `OpenSSL::Digest::*` with `OpenSSL::PKCS5.pbkdf2_hmac`, and
 * `Base64`: pure computations plugin code uses.
 */
export function digestConstants(): Array<[string, RValue]> {
    const digest = new RClass('Digest', null, [], true);
    const openssl = new RClass('OpenSSL', null, [], true);
    const osslDigest = new RClass('OpenSSL::Digest', null);
    openssl.constants.set('Digest', osslDigest);
    const out: Array<[string, RValue]> = [['Digest', digest], ['OpenSSL', openssl], ['OpenSSL::Digest', osslDigest]];
    for (const [n, a] of ALGORITHMS) {
        const c = digestClass(`Digest::${n}`, a);
        digest.constants.set(n, c);
        out.push([`Digest::${n}`, c]);
        const o = digestClass(`OpenSSL::Digest::${n}`, a);
        osslDigest.constants.set(n, o);
        out.push([`OpenSSL::Digest::${n}`, o]);
    }
    // OpenSSL::Digest.new('SHA512'): the named algorithm's digest.
    osslDigest.defineStatic('new', (_s, args) => {
        const name = str(args[0]).toUpperCase().replace(/-/g, '');
        const cls = osslDigest.constants.get(name);
        if (!(cls instanceof RClass)) throw rubyError('RuntimeError', `Unsupported digest algorithm (${str(args[0])}).: unknown object name`);
        const make = cls.statics.get('new');
        return make ? make(cls, args.slice(1), undefined, undefined as never) : null;
    });
    const pkcs5 = new RClass('OpenSSL::PKCS5', null, [], true);
    openssl.constants.set('PKCS5', pkcs5);
    out.push(['OpenSSL::PKCS5', pkcs5]);
    const pbkdf2 = (pass: RValue, salt: RValue, iter: RValue, keylen: RValue, algorithm: string): string =>
        binaryString(pbkdf2Sync(bytesOf(str(pass)), bytesOf(str(salt)), Number(iter), Number(keylen), algorithm));
    pkcs5.defineStatic('pbkdf2_hmac', (_s, args) => pbkdf2(args[0], args[1], args[2], args[3], stateOf(args[4] ?? null).algorithm));
    pkcs5.defineStatic('pbkdf2_hmac_sha1', (_s, args) => pbkdf2(args[0], args[1], args[2], args[3], 'sha1'));

    const base64 = new RClass('Base64', null, [], true);
    const s = (v: RValue | undefined): string => (typeof v === 'string' ? v : '');
    base64.defineStatic('encode64', (_x, args) => (bytesOf(s(args[0])).toString('base64').replace(/(.{60})/g, '$1\n') + '\n').replace(/\n\n$/, '\n'));
    base64.defineStatic('strict_encode64', (_x, args) => bytesOf(s(args[0])).toString('base64'));
    base64.defineStatic('urlsafe_encode64', (_x, args) => bytesOf(s(args[0])).toString('base64url'));
    for (const n of ['decode64', 'strict_decode64', 'urlsafe_decode64']) base64.defineStatic(n, (_x, args) => Buffer.from(s(args[0]), 'base64').toString('utf8'));
    out.push(['Base64', base64]);
    return out;
}
