import { Classes, RObject, rubyError, type RValue } from '../objects.js';

/**
 * Ruby's Random: MT19937 seeded as Ruby seeds it (the integer's 32-bit words, least significant
 * first, through init_by_array), and `rand(n)` drawing masked 32-bit words until one is below n.
 * Deterministic: plugin code uses it with fixed seeds (fqdn_rotate, deterministic_rand).
 */
export class MersenneTwister {
    private readonly mt = new Uint32Array(624);
    private index = 625;

    constructor(seed: bigint) {
        let n = seed < 0n ? -seed : seed;
        const key: number[] = [];
        while (n > 0n) { key.push(Number(n & 0xffffffffn)); n >>= 32n; }
        if (key.length === 0) key.push(0);
        // Ruby drops a top word of 1 (its "leading-zero guard").
        if (key.length > 1 && key[key.length - 1] === 1) key.pop();
        // Ruby seeds a one-word integer directly, a longer one through init_by_array.
        if (key.length <= 1) this.initGenrand(key[0]);
        else this.initByArray(key);
    }

    private initGenrand(s: number): void {
        const mt = this.mt;
        mt[0] = s >>> 0;
        for (let i = 1; i < 624; i++) {
            const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
            mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
        }
        this.index = 624;
    }

    private initByArray(key: number[]): void {
        const mt = this.mt;
        this.initGenrand(19650218);
        let i = 1;
        let j = 0;
        for (let k = Math.max(624, key.length); k > 0; k--) {
            const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
            mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
            i++; j++;
            if (i >= 624) { mt[0] = mt[623]; i = 1; }
            if (j >= key.length) j = 0;
        }
        for (let k = 623; k > 0; k--) {
            const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
            mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
            i++;
            if (i >= 624) { mt[0] = mt[623]; i = 1; }
        }
        mt[0] = 0x80000000;
        this.index = 624;
    }

    next32(): number {
        const mt = this.mt;
        if (this.index >= 624) {
            for (let k = 0; k < 624; k++) {
                const y = (mt[k] & 0x80000000) | (mt[(k + 1) % 624] & 0x7fffffff);
                mt[k] = (mt[(k + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
            }
            this.index = 0;
        }
        let y = mt[this.index++];
        y ^= y >>> 11;
        y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
        y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
        y ^= y >>> 18;
        return y >>> 0;
    }

    /**
     * `rand(n)` for 0 < n <= 2**64: Ruby's limited_rand, a uniform integer in 0..n-1 from masked
     * 32-bit draws, most significant word first, retried while above the limit.
     */
    below(n: bigint): bigint {
        if (n <= 0n) throw rubyError('ArgumentError', `invalid argument - ${n}`);
        const limit = n - 1n;
        if (limit === 0n) return 0n;
        if (limit > 0xffffffffffffffffn) throw rubyError('RangeError', 'modelc supports Random#rand below 2**64');
        let mask = limit;
        for (let shift = 1n; shift <= 32n; shift <<= 1n) mask |= mask >> shift;
        for (;;) {
            let val = 0n;
            let retry = false;
            for (let i = 1n; i >= 0n; i--) {
                if (((mask >> (i * 32n)) & 0xffffffffn) === 0n) continue;
                val = (val | (BigInt(this.next32()) << (i * 32n))) & mask;
                if (limit < val) { retry = true; break; }
            }
            if (!retry) return val;
        }
    }
}

const generators = new WeakMap<RObject, MersenneTwister>();

/** `Random.new(seed)` and `rand(n)` on it. */
export function installRandom(): void {
    Classes.Random.defineStatic('new', (self, args) => {
        const seed = args[0];
        if (typeof seed !== 'bigint') throw rubyError('ArgumentError', 'modelc needs Random.new with an Integer seed (a catalog must not change from one compilation to the next)');
        const o = new RObject(Classes.Random, '#<Random>');
        generators.set(o, new MersenneTwister(seed));
        return o;
    });
    Classes.Random.define('rand', (self, args) => {
        const g = generators.get(self as RObject);
        const n: RValue = args[0] ?? null;
        if (!g || typeof n !== 'bigint') throw rubyError('ArgumentError', 'modelc supports Random#rand(Integer) only');
        return g.below(n);
    });
}
