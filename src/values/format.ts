import { formatTimespanAs, TIMESPAN_FORMATS } from './time-format.js';
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
    // Puppet's first default format; its %-N drops leading as well as trailing zeros of the fraction.
    return formatTimespanAs(t, TIMESPAN_FORMATS[0]);
}
