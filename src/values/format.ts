import { formatFloat } from '../common/index.js';
import type { PTimespan, PTimestamp } from './values.js';

export { formatFloat };

/** The textual form of a Timestamp, as Puppet prints it: 2020-01-01T00:00:00.000000000 UTC. */
export function formatTimestamp(t: PTimestamp): string {
    const ms = Number(t.nanos / 1_000_000n);
    const nanos = ((t.nanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n;
    const iso = new Date(ms).toISOString().slice(0, 19);
    return `${iso}.${String(nanos).padStart(9, '0')} UTC`;
}

/** Puppet's default Timespan form `D-HH:MM:SS.F` (fraction without trailing zeros, at least one digit). */
export function formatTimespan(t: PTimespan): string {
    let n = t.nanos < 0n ? -t.nanos : t.nanos;
    const sign = t.nanos < 0n ? '-' : '';
    const frac = n % 1_000_000_000n;
    n /= 1_000_000_000n;
    const s = n % 60n; n /= 60n;
    const m = n % 60n; n /= 60n;
    const h = n % 24n; const d = n / 24n;
    const two = (x: bigint): string => String(x).padStart(2, '0');
    const f = String(frac).padStart(9, '0').replace(/0+$/, '') || '0';
    return `${sign}${d}-${two(h)}:${two(m)}:${two(s)}.${f}`;
}
