import type { PuppetValue } from '../values/index.js';
import { isInstance } from './instance.js';
import { isAssignable } from './assignable.js';
import { countMismatch, describeMismatch, exactly, formatMismatch, mergeMismatches, typeMismatchOf, type Mismatch, type Range } from './mismatch.js';
import { POptionalType, PSimpleType, type PAnyType } from './model.js';
import { typeToPlainString } from './to-string.js';

/** One parameter of a function signature (a Puppet `dispatch`). */
export interface SignatureParam {
    readonly name: string;
    readonly type: PAnyType;
    /** How the signature prints the type, when not its `to_s` (Deferred prints as its Object type). */
    readonly display?: string;
}

/** The block a signature takes: `Callable[min, max]`, or any block when `counted` is false. */
export interface SignatureBlock {
    readonly name: string;
    readonly optional: boolean;
    readonly counted: boolean;
    readonly min: number;
    readonly max: number | null;
    /** The block type as the signature prints it (`Callable[2, 2]`); empty when Puppet leaves the block out. */
    readonly display: string;
    /** The types of the block's parameters, for a typed block (`Callable[String]`). */
    readonly types?: readonly PAnyType[];
}

/** One signature of a function: typed parameters, how many are required, a repeated last one, a block. */
export interface Signature {
    readonly params: readonly SignatureParam[];
    readonly required: number;
    readonly repeated: boolean;
    readonly block?: SignatureBlock;
}

/** How many arguments the lambda given to a call takes (`max` null with a captures-rest parameter). */
export interface BlockArity {
    readonly min: number;
    readonly max: number | null;
    /** The lambda's parameter types (null: untyped), when the caller knows them. */
    readonly types?: ReadonlyArray<PAnyType | null>;
}

/** The lambda's type of the block's parameter `i` (an untyped or missing one is Any). */
function lambdaParamType(block: BlockArity, i: number): PAnyType | undefined {
    const ts = block.types;
    if (ts === undefined || ts.length === 0) return undefined;
    return ts[Math.min(i, ts.length - 1)] ?? PSimpleType.of('Any');
}

function paramRange(sig: Signature): Range {
    return { from: BigInt(sig.required), to: sig.repeated ? null : BigInt(sig.params.length) };
}

function within(outer: Range, inner: Range): boolean {
    return inner.from >= outer.from && (outer.to === null || (inner.to !== null && inner.to <= outer.to));
}

function arityRange(b: BlockArity): Range {
    return { from: BigInt(b.min), to: b.max === null ? null : BigInt(b.max) };
}

/**
 * Whether a call can be dispatched to the signature: the arguments are instances of the parameter
 * types and the lambda accepts the block's arguments (a lambda with optional parameters is
 * accepted by a block type asking for fewer; the block's argument types are not checked).
 */
export function signatureAccepts(sig: Signature, args: readonly PuppetValue[], block: BlockArity | undefined): boolean {
    if (!within(paramRange(sig), exactly(args.length))) return false;
    if (!args.every((a, i) => isInstance(sig.params[Math.min(i, sig.params.length - 1)].type, a))) return false;
    if (block === undefined) return sig.block === undefined || sig.block.optional;
    if (sig.block === undefined) return false;
    if (sig.block.counted && !within(arityRange(block), { from: BigInt(sig.block.min), to: sig.block.max === null ? null : BigInt(sig.block.max) })) return false;
    // Calling the block constrains it: each lambda parameter must take what the block is given.
    return (sig.block.types ?? []).every((t, i) => {
        const lt = lambdaParamType(block, i);
        return lt === undefined || isAssignable(lt, t);
    });
}

/** Puppet's describe_signature_arguments: a count mismatch, or the first parameter that rejects its argument. */
function describeArguments(sig: Signature, args: readonly PuppetValue[], at: string): Mismatch[] {
    const expected = paramRange(sig);
    if (!within(expected, exactly(args.length))) return [countMismatch([at], expected, exactly(args.length))];
    for (const [i, a] of args.entries()) {
        const p = sig.params[Math.min(i, sig.params.length - 1)];
        const found = describeMismatch(p.type, a);
        if (found.length > 0) return found.map(m => ({ ...m, path: [at, `parameter '${p.name}'`, ...m.path] }));
    }
    return [];
}

/** Puppet's describe_signature_block. Its count check is the reverse of dispatch's (the lambda's range must lie within the block's). */
function describeBlock(sig: Signature, block: BlockArity | undefined, at: string): Mismatch[] {
    if (block === undefined) return sig.block === undefined || sig.block.optional ? [] : [{ kind: 'missing-block', path: [at], text: 'expects a block' }];
    if (sig.block === undefined) return [{ kind: 'unexpected-block', path: [at], text: 'does not expect a block' }];
    if (!sig.block.counted) return [];
    const expected: Range = { from: BigInt(sig.block.min), to: sig.block.max === null ? null : BigInt(sig.block.max) };
    const actual = arityRange(block);
    if (!within(expected, actual)) return [countMismatch([at, sig.block.name], expected, actual)];
    // Puppet's describer compares a typed block's parameter types the other way round from dispatch.
    const out: Mismatch[] = [];
    (sig.block.types ?? []).forEach((t, i) => {
        const lt = lambdaParamType(block, i);
        if (lt !== undefined && !isAssignable(t, lt)) out.push(typeMismatchOf([at, 'block', `index ${i}`], t, lt));
    });
    return out;
}

/** A signature as Puppet prints it: `String string_value, Callable[2, 2] block?`. */
export function signatureString(sig: Signature): string {
    const parts = sig.params.map((p, i) => {
        const last = i === sig.params.length - 1;
        let type = p.type;
        let indicator = '';
        if (sig.repeated && last) indicator = sig.required === sig.params.length ? '+' : '*';
        else if (i + 1 > sig.required) {
            indicator = '?';
            if (type instanceof POptionalType && type.type !== null) type = type.type;
        }
        return `${p.display ?? typeToPlainString(type)} ${p.name}${indicator}`;
    });
    if (sig.block && sig.block.display !== '') parts.push(`${sig.block.display} ${sig.block.name}${sig.block.optional ? '?' : ''}`);
    return parts.join(', ');
}

/** The mismatch without the signature it came from. */
function unsigned(m: Mismatch): Mismatch {
    return { ...m, path: m.path.slice(1) };
}

/**
 * Why no signature of function `name` accepts the call, in the words of Puppet's
 * TypeMismatchDescriber#describe_signatures: one merged reason when all signatures fail alike
 * ("'sort' expects 1 argument, got none"), else every signature with its reasons. Undefined when
 * a signature accepts the call.
 */
export function describeSignatures(name: string, sigs: readonly Signature[], args: readonly PuppetValue[], block: BlockArity | undefined): string | undefined {
    return describeLabeledSignatures(`'${name}'`, sigs, args, block);
}

/**
 * As describeSignatures, for a callable Puppet labels itself: a function by its quoted name, a
 * lambda as `block` (Puppet's closure name 'lambda').
 */
export function describeLabeledSignatures(label: string, sigs: readonly Signature[], args: readonly PuppetValue[], block: BlockArity | undefined): string | undefined {
    if (sigs.some(s => signatureAccepts(s, args, block))) return undefined;
    // The signature path element (Puppet's SignaturePathElement prints as "1.", "2.", ...).
    const at = (i: number): string => `${i + 1}.`;
    let errors = sigs.map((s, i) => describeArguments(s, args, at(i)));
    if (!errors.every(e => e.length > 0)) {
        const blockErrors = sigs.map((s, i) => describeBlock(s, block, at(i)));
        const failed = blockErrors.filter(e => e.length > 0).length;
        // Block errors replace all when every signature has one; otherwise argument errors take precedence.
        if (failed === blockErrors.length) errors = blockErrors;
        else if (failed > 0) errors = errors.map((e, i) => e.length === 0 ? blockErrors[i] : e);
    }
    const merged = mergeMismatches(0, 'count', errors);
    if (merged.length === 1) return `${label}${formatMismatch(merged[0])}`;
    if (sigs.length === 1) {
        return [`${label} expects (${signatureString(sigs[0])})`, ...errors[0].map(e => `  rejected:${formatMismatch(unsigned(e))}`)].join('\n');
    }
    const lines = [`The function ${label} was called with arguments it does not accept. It expects one of:`];
    sigs.forEach((s, i) => {
        lines.push(`  (${signatureString(s)})`);
        for (const e of errors[i]) lines.push(`    rejected:${formatMismatch(unsigned(e))}`);
    });
    return lines.join('\n');
}

/** A parameter of a Puppet-language function or lambda, as its call is checked. */
export interface ClosureParam {
    readonly name: string;
    /** The declared type; untyped parameters take Any. */
    readonly type: PAnyType | null;
    readonly hasDefault: boolean;
    readonly splat: boolean;
}

/**
 * Why the given arguments do not fit a Puppet-language function or lambda (undefined when they
 * do): Puppet checks them as one signature, so one mismatch is reported alone and several are
 * listed under the signature ("'f' expects (Integer a)\n  rejected: ...").
 */
export function describeClosureCall(label: string, params: readonly ClosureParam[], args: readonly PuppetValue[]): string | undefined {
    const any = PSimpleType.of('Any');
    const sig: Signature = {
        params: params.map(p => ({ name: p.name, type: p.type ?? any })),
        required: params.filter(p => !p.hasDefault && !p.splat).length,
        repeated: params.length > 0 && params[params.length - 1].splat
    };
    return describeLabeledSignatures(label, [sig], args, undefined);
}
