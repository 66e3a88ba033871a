/**
 * Ruby's `Random.new(seed).rand(max)` for a non-negative Integer seed and a positive Integer max:
 * MT19937 seeded by init_by_array with the seed's 32-bit words (least significant first), and
 * Ruby's limited_rand (masked draws, retried while above the limit). fqdn_rand depends on it
 * giving Ruby's numbers.
 */
export function rubyRandomInt(seed: bigint, max: bigint): bigint {
    const mt = new MersenneTwister(wordsOf(seed));
    return limitedRand(mt, max - 1n);
}

/** The seed as Ruby packs it: 32-bit words, least significant first, at least one. */
function wordsOf(seed: bigint): number[] {
    const words: number[] = [];
    let v = seed < 0n ? -seed : seed;
    while (v > 0n) {
        words.push(Number(v & 0xffffffffn));
        v >>= 32n;
    }
    return words.length === 0 ? [0] : words;
}

class MersenneTwister {
    private readonly state = new Uint32Array(624);
    private index = 625;

    constructor(key: readonly number[]) {
        this.initGenrand(19650218);
        const s = this.state;
        let i = 1;
        let j = 0;
        for (let k = Math.max(624, key.length); k > 0; k--) {
            const prev = s[i - 1] ^ (s[i - 1] >>> 30);
            s[i] = ((s[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
            i++;
            j++;
            if (i >= 624) { s[0] = s[623]; i = 1; }
            if (j >= key.length) j = 0;
        }
        for (let k = 623; k > 0; k--) {
            const prev = s[i - 1] ^ (s[i - 1] >>> 30);
            s[i] = ((s[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
            i++;
            if (i >= 624) { s[0] = s[623]; i = 1; }
        }
        s[0] = 0x80000000;
        this.index = 624;
    }

    private initGenrand(seed: number): void {
        const s = this.state;
        s[0] = seed >>> 0;
        for (let i = 1; i < 624; i++) {
            const prev = s[i - 1] ^ (s[i - 1] >>> 30);
            s[i] = (Math.imul(prev, 1812433253) + i) >>> 0;
        }
    }

    private twist(): void {
        const s = this.state;
        for (let i = 0; i < 624; i++) {
            const y = (s[i] & 0x80000000) | (s[(i + 1) % 624] & 0x7fffffff);
            s[i] = (s[(i + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
        }
        this.index = 0;
    }

    next32(): number {
        if (this.index >= 624) this.twist();
        let y = this.state[this.index++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9d2c5680;
        y ^= (y << 15) & 0xefc60000;
        y ^= y >>> 18;
        return y >>> 0;
    }
}

/** Ruby's limited_rand: a uniform integer in 0..limit from masked 32-bit draws, most significant word first. */
function limitedRand(mt: MersenneTwister, limit: bigint): bigint {
    if (limit === 0n) return 0n;
    let mask = limit;
    for (let shift = 1n; shift <= 32n; shift <<= 1n) mask |= mask >> shift;
    for (;;) {
        let val = 0n;
        let retry = false;
        for (let i = 1n; i >= 0n; i--) {
            if (((mask >> (i * 32n)) & 0xffffffffn) !== 0n) {
                val |= BigInt(mt.next32()) << (i * 32n);
                val &= mask;
                if (limit < val) { retry = true; break; }
            }
        }
        if (!retry) return val;
    }
}
