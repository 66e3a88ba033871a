/** A seeded PRNG (mulberry32), so a seed always gives the same scenarios. */
export class Rng {
    private state: number;

    constructor(seed: number) {
        this.state = seed >>> 0;
    }

    /** A float in [0, 1). */
    next(): number {
        this.state = (this.state + 0x6d2b79f5) >>> 0;
        let t = this.state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }

    /** True with probability p. */
    chance(p: number): boolean {
        return this.next() < p;
    }

    /** An integer in [lo, hi]. */
    int(lo: number, hi: number): number {
        return lo + Math.floor(this.next() * (hi - lo + 1));
    }

    pick<T>(list: readonly T[]): T {
        return list[Math.floor(this.next() * list.length)];
    }

    /** One of the keys of `weights`, chosen in proportion to its weight. */
    weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
        const entries = Object.entries(weights) as [K, number][];
        let r = this.next() * entries.reduce((a, [, w]) => a + w, 0);
        for (const [k, w] of entries) {
            if ((r -= w) < 0) return k;
        }
        return entries[entries.length - 1][0];
    }

    /** `n` distinct elements of `list`, in random order. */
    sample<T>(list: readonly T[], n: number): T[] {
        const copy = [...list];
        for (let i = copy.length - 1; i > 0; i--) {
            const j = Math.floor(this.next() * (i + 1));
            [copy[i], copy[j]] = [copy[j], copy[i]];
        }
        return copy.slice(0, Math.min(n, copy.length));
    }

    /** A child generator, so one part's choices don't shift another's. */
    fork(): Rng {
        return new Rng(Math.floor(this.next() * 4294967296));
    }
}
