import { PTimespan, PTimestamp, type PuppetValue } from '../../values/index.js';
import { EvalIssue, RuntimeFailure } from '../errors.js';
import { article, CatalogIssues } from '../issues.js';

const NS = 1_000_000_000n;
type Time = PTimespan | PTimestamp;

function label(v: PuppetValue | Time): string {
    return v instanceof PTimespan ? 'Timespan' : v instanceof PTimestamp ? 'Timestamp' : typeof v === 'bigint' ? 'Integer' : 'Float';
}

/** Seconds as nanoseconds, truncated as Ruby's to_i does. */
function nanos(n: bigint | number): bigint {
    return typeof n === 'bigint' ? n * NS : BigInt(Math.trunc(n * 1e9));
}

/**
 * Arithmetic with Timespan and Timestamp (Puppet's TimeData): a number on the left of `+`
 * (or of `*` with a Timespan) changes places, one on the left of `- Timespan` is a Timespan of
 * that many seconds; a Timestamp moves by a Timespan or seconds, two Timestamps differ by a
 * Timespan; a Timespan scales and divides by numbers.
 */
export function timeArith(op: string, left: bigint | number | Time, right: bigint | number | Time): PuppetValue {
    let l = left;
    let r = right;
    if (!(l instanceof PTimespan || l instanceof PTimestamp)) {
        if (op === '+' || (op === '*' && r instanceof PTimespan)) [l, r] = [r, l];
        else if (op === '-' && r instanceof PTimespan) l = new PTimespan(nanos(l as bigint | number));
        else throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE_WHEN, { op, left: article(label(l)), right: article(label(r)) }, undefined, 'left');
    }
    const time = l as Time;
    const rn = r instanceof PTimespan || r instanceof PTimestamp ? r.nanos : undefined;
    const an = (s: string): string => article(s).replace(/^a/, 'A');
    if (time instanceof PTimestamp) {
        if (op === '+') {
            if (r instanceof PTimestamp) throw new RuntimeFailure(CatalogIssues.EVAL_TIME_ADD.message({ what: an(label(r)), to: 'Timestamp' }));
            return new PTimestamp(time.nanos + (rn ?? nanos(r as bigint | number)));
        }
        if (op === '-') return r instanceof PTimestamp ? new PTimespan(time.nanos - r.nanos) : new PTimestamp(time.nanos - (rn ?? nanos(r as bigint | number)));
        throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE, { op, operand: 'a Timestamp' }, undefined, 'left');
    }
    switch (op) {
        case '+': return r instanceof PTimestamp ? new PTimestamp(time.nanos + r.nanos) : new PTimespan(time.nanos + (rn ?? nanos(r as bigint | number)));
        case '-':
            if (r instanceof PTimestamp) throw new RuntimeFailure(CatalogIssues.EVAL_TIME_SUBTRACT.message({ what: an(label(r)), from: 'Timespan' }));
            return new PTimespan(time.nanos - (rn ?? nanos(r as bigint | number)));
        case '*':
            if (rn !== undefined) throw new RuntimeFailure(CatalogIssues.EVAL_TIME_MULTIPLY.message({ what: article(label(r)) }));
            return new PTimespan(typeof r === 'bigint' ? time.nanos * r : BigInt(Math.trunc(Number(time.nanos) * (r as number))));
        case '/':
            if (r instanceof PTimespan) return Number(time.nanos) / Number(r.nanos);
            if (rn !== undefined) throw new RuntimeFailure(CatalogIssues.EVAL_TIME_DIVIDE.message({ what: article(label(r)) }));
            if (r === 0n || r === 0) throw EvalIssue.of(CatalogIssues.EVAL_DIV_BY_ZERO, {});
            return new PTimespan(typeof r === 'bigint' ? floorDiv(time.nanos, r) : BigInt(Math.floor(Number(time.nanos) / (r as number))));
        case '%': {
            // Ruby's divmod on the whole seconds; Puppet's evaluator takes no Float on either side of '%'.
            if (rn !== undefined) throw new RuntimeFailure(CatalogIssues.EVAL_TIME_MODULO.message({ what: article(label(r)) }));
            if (typeof r === 'number') throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE_WHEN, { op, left: 'a Timespan', right: 'a Float' }, undefined, 'left');
            if (r === 0n) throw EvalIssue.of(CatalogIssues.EVAL_DIV_BY_ZERO, {});
            const secs = floorDiv(time.nanos, NS);
            return secs - floorDiv(secs, r as bigint) * (r as bigint);
        }
        default:
            throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE, { op, operand: 'a Timespan' }, undefined, 'left');
    }
}

function floorDiv(a: bigint, b: bigint): bigint {
    const q = a / b;
    return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}
