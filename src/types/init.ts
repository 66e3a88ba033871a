import type { PuppetValue } from '../values/index.js';
import { isAssignable } from './assignable.js';
import { TypeConstructionError } from './construct.js';
import { generalize } from './infer.js';
import { isInstance } from './instance.js';
import { inferSetType } from './mismatch.js';
import { PAnyType, PInitType, PIntegerType, PSimpleType, PTupleType, PVariantType, type InitResolution } from './model.js';
import type { Signature } from './signature-mismatch.js';
import { typeToString } from './to-string.js';

/**
 * The signatures of a type's new function (Puppet's `T.new_function` dispatches), or undefined
 * where the type has none. The compiler owns the new functions and registers them here, since an
 * Init type's instances are the values those functions accept.
 */
export type NewSignatures = (t: PAnyType) => readonly Signature[] | undefined;

let newSignatures: NewSignatures = () => undefined;

export function registerNewSignatures(lookup: NewSignatures): void {
    newSignatures = lookup;
}

/** Puppet's error for a type without a usable new function (raised, so reported where it was evaluated). */
export function newNotSupported(t: PAnyType): TypeConstructionError {
    return new TypeConstructionError(`Creation of new instance of type '${typeToString(t)}' is not supported`, 'RUNTIME_ERROR', undefined, true);
}

interface ParamTuple {
    readonly types: readonly PAnyType[];
    readonly min: number;
    readonly max: number | null;
}

const tupleOf = (p: ParamTuple): PTupleType => new PTupleType(p.types, new PIntegerType(BigInt(p.min), p.max === null ? null : BigInt(p.max)));
const variantOf = (ts: readonly PAnyType[]): PAnyType => ts.length === 1 ? ts[0] : new PVariantType(ts);

/**
 * What Init[T, args] accepts besides instances of T, from T's new function: with no init args, the
 * type of each one-parameter signature's parameter (a single value) and the other signatures'
 * parameter lists (an array of arguments); with init args, the first parameter of each signature
 * that takes one value followed by the init args. T may not be Init, Optional or NotUndef (its new
 * would recurse or mean nothing), nor a type without a new function.
 */
export function initResolution(t: PInitType): InitResolution {
    if (t.resolution) return t.resolution;
    const inner = t.type;
    if (inner === null) return t.resolution = { single: null, other: null, optionalSingle: false };
    if (inner.kind === 'Init' || inner.kind === 'Optional' || inner.kind === 'NotUndef') throw newNotSupported(inner);
    const sigs = newSignatures(inner);
    if (sigs === undefined) throw newNotSupported(inner);
    const tuples: ParamTuple[] = sigs.map(s => ({ types: s.params.map(p => p.type), min: s.required, max: s.repeated ? null : s.params.length }));
    const single: PAnyType[] = [inner];
    let other: ParamTuple[] = [];
    if (t.initArgs.length === 0) {
        for (const p of tuples) {
            if (p.min === 1 && p.max === 1) single.push(p.types[0]);
            else other.push(p);
        }
    } else {
        const argTypes = t.initArgs.map((a: PuppetValue) => inferSetType(a));
        const count = 1 + argTypes.length;
        const fitting = tuples.filter(p => count >= p.min && (p.max === null || count <= p.max) && p.types.length > 0
            && isAssignable(tupleOf(p), new PTupleType([p.types[0], ...argTypes])));
        if (fitting.length === 0) {
            throw new TypeConstructionError(`The type '${typeToString(t)}' does not represent a valid set of parameters for ${baseName(inner)}.new()`, 'RUNTIME_ERROR', undefined, true);
        }
        single.push(...fitting.map(p => p.types[0]));
        other = [];
    }
    return t.resolution = {
        single: variantOf(single),
        other: other.length === 0 ? null : variantOf(other.map(tupleOf)),
        optionalSingle: other.some(p => p.min === 1)
    };
}

/** The name of T's generalized type (`Integer` for Integer[1, 2]), as the error names the new function's type. */
function baseName(t: PAnyType): string {
    return typeToString(generalize(t)).replace(/\[.*$/s, '');
}

/** Whether `v` is an instance of the Init type: of RichData for plain Init, else of T or what T.new accepts. */
export function isInitInstance(t: PInitType, v: PuppetValue): boolean {
    if (t.type === null) return isInstance(PSimpleType.of('RichData'), v);
    const r = initResolution(t);
    if (isInstance(t.type, v)) return true;
    if (r.single !== null && isInstance(r.single, v)) return true;
    if (r.other === null) return false;
    return isInstance(r.other, v) || (r.optionalSingle && isInstance(r.other, [v]));
}

/** Whether every instance of `o` is one of the Init type. */
export function isInitAssignable(t: PInitType, o: PAnyType): boolean {
    if (o instanceof PInitType) return t.type === null || (o.type !== null && isAssignable(t.type, o.type));
    if (t.type === null) return isAssignable(PSimpleType.of('RichData'), o);
    const r = initResolution(t);
    return isAssignable(t.type, o) || (r.single !== null && isAssignable(r.single, o))
        || (r.other !== null && (isAssignable(r.other, o) || (r.optionalSingle && isAssignable(r.other, new PTupleType([o])))));
}
