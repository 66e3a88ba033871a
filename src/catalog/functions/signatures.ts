import type { Lambda } from '../../../generated/langium/ast.js';
import {
    describeSignatures, formatValue, objectNewName, objectNewSignatures, parseTypeString, PObjectType, PTypeAliasType, registerNewSignatures, resolveAlias, signatureAccepts, type BlockArity, type PAnyType, type Signature, type SignatureBlock, type SignatureParam,
    type TypeNameResolver
} from '../../types/index.js';
import { PBinary, PIterator, PRegexp, PSemVer, PSemVerRange, PTimespan, PTimestamp, type PuppetValue } from '../../values/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import { BLOCK_TYPES, DISPATCHES, LEGACY_ARITY, LOCAL_TYPES, MISMATCH_DISPATCHES, NEW_DISPATCHES, TYPE_DISPLAY } from './dispatches.js';

/** Splits at top-level commas, outside brackets, braces, quotes and regexp literals. */
function splitTopLevel(text: string): string[] {
    const out: string[] = [];
    let depth = 0;
    let quote: string | null = null;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
        const ch = text[i];
        if (quote !== null) {
            if (ch === '\\') i++;
            else if (ch === quote) quote = null;
        } else if (ch === "'" || ch === '"' || ch === '/') quote = ch;
        else if (ch === '[' || ch === '{' || ch === '(') depth++;
        else if (ch === ']' || ch === '}' || ch === ')') depth--;
        else if (ch === ',' && depth === 0) { out.push(text.slice(start, i).trim()); start = i + 1; }
    }
    const last = text.slice(start).trim();
    if (last !== '') out.push(last);
    return out;
}

/** A resolver of local type aliases, each created on first use (StringData refers to itself). */
function localTypes(bodies: Readonly<Record<string, string>>): TypeNameResolver {
    const aliases = new Map<string, PTypeAliasType>();
    const resolve = (name: string): PAnyType | undefined => {
        const body = bodies[name];
        if (body === undefined) return undefined;
        let alias = aliases.get(name);
        if (!alias) {
            alias = new PTypeAliasType(name);
            aliases.set(name, alias);
            alias.resolved = parseTypeString(body, resolve);
        }
        return alias;
    };
    return resolve;
}

const coreLocalTypes = localTypes(LOCAL_TYPES);

/** A block entry (`Callable[2, 2]`, `Callable[String]`, `Callable`, `BlockType`): its arity and printed form. */
function parseBlock(typeText: string, name: string, optional: boolean, resolve: TypeNameResolver): SignatureBlock {
    const known = BLOCK_TYPES[typeText];
    // Puppet prints a block only when its type is Optional or Callable: a required alias (lookup's BlockType) is left out.
    if (known) {
        const types = known.types?.map(t => parseTypeString(t, resolve));
        return { name, optional, counted: true, min: known.min, max: known.max, display: optional ? known.display : '', types };
    }
    const m = /^Callable(?:\[(.*)\])?$/.exec(typeText);
    if (!m) throw new Error(`not a block type: ${typeText}`);
    if (m[1] === undefined) return { name, optional, counted: false, min: 0, max: null, display: 'Callable' };
    const parts = splitTopLevel(m[1]);
    const display = `Callable[${parts.join(', ')}]`;
    if (parts.every(p => /^\d+$/.test(p))) return { name, optional, counted: true, min: Number(parts[0]), max: Number(parts[1] ?? parts[0]), display };
    return { name, optional, counted: true, min: parts.length, max: parts.length, display, types: parts.map(p => parseTypeString(p, resolve)) };
}

/** One signature from its printed form (see dispatches.ts). */
function parseSignature(text: string, resolve: TypeNameResolver): Signature {
    const params: SignatureParam[] = [];
    let required = 0;
    let repeated = false;
    let block: SignatureBlock | undefined;
    for (const entry of splitTopLevel(text)) {
        const m = /^(.*\S)\s+(\w+)([?*+]?)$/.exec(entry);
        if (!m) throw new Error(`bad signature entry: ${entry}`);
        const [, typeText, name, indicator] = m;
        if (typeText.startsWith('Callable') || BLOCK_TYPES[typeText]) { block = parseBlock(typeText, name, indicator === '?', resolve); continue; }
        params.push({ name, type: parseTypeString(typeText, resolve), display: TYPE_DISPLAY[typeText] });
        if (indicator === '' || indicator === '+') required++;
        if (indicator === '*' || indicator === '+') repeated = true;
    }
    return { params, required, repeated, block };
}

interface Dispatch {
    readonly name: string;
    readonly sigs: readonly Signature[];
    /** The `argument_mismatch` dispatches. */
    readonly mismatch: readonly Signature[];
}

const parsed = new Map<string, Dispatch>();

function dispatchesOf(name: string): Dispatch | undefined {
    const texts = DISPATCHES[name];
    if (!texts) return undefined;
    let d = parsed.get(name);
    if (!d) {
        const parse = (t: string): Signature => parseSignature(t, coreLocalTypes);
        d = { name, sigs: texts.map(parse), mismatch: (MISMATCH_DISPATCHES[name] ?? []).map(parse) };
        parsed.set(name, d);
    }
    return d;
}

const parsedNew = new Map<string, Dispatch>();

/** The dispatches of a type's new function, by the type's kind (Tuple as Array, Struct as Hash). */
function newDispatchOf(kind: string): Dispatch | undefined {
    const key = kind === 'Tuple' ? 'Array' : kind === 'Struct' ? 'Hash' : kind;
    const spec = NEW_DISPATCHES[key];
    if (!spec) return undefined;
    let d = parsedNew.get(key);
    if (!d) {
        const resolve = localTypes(spec.types ?? {});
        const parse = (t: string): Signature => parseSignature(t, resolve);
        d = { name: spec.name, sigs: spec.sigs.map(parse), mismatch: (spec.mismatch ?? []).map(parse) };
        parsedNew.set(key, d);
    }
    return d;
}

/**
 * Parses the signatures of every built-in function and type's new function now. Each is parsed on
 * first use otherwise, through the Puppet parser, a few milliseconds for a function such as
 * `lookup`: the CLI's startup snapshot calls this so that every process starts with all of them.
 */
export function primeSignatures(): void {
    for (const name of Object.keys(DISPATCHES)) dispatchesOf(name);
    for (const kind of Object.keys(NEW_DISPATCHES)) newDispatchOf(kind);
}

// Init[T]'s values are those T's new function accepts: the type system asks for its signatures.
registerNewSignatures(t => {
    const r = resolveAlias(t);
    if (r instanceof PObjectType) return r.name === null ? undefined : objectNewSignatures(r);
    return r.kind === 'Init' ? undefined : newDispatchOf(r.kind)?.sigs;
});

/** An Object type's new function: its signatures dispatch the arguments, with Puppet's messages when none takes them. */
export function checkObjectNewSignature(t: PObjectType, args: readonly PuppetValue[]): void {
    const sigs = objectNewSignatures(t);
    const name = objectNewName(t);
    if (sigs.some(s => signatureAccepts(s, args, undefined))) return;
    throw new RuntimeFailure(describeSignatures(name, sigs, args, undefined) ?? CatalogIssues.EVAL_ARGUMENTS_REJECTED.message({ name }));
}

/** Dispatches to the dispatch's signatures; true when an `argument_mismatch` dispatch took the call. */
function dispatch(d: Dispatch, args: readonly PuppetValue[], block: BlockArity | undefined): boolean {
    if (d.sigs.some(s => signatureAccepts(s, args, block))) return false;
    if (d.mismatch.some(s => signatureAccepts(s, args, block))) return true;
    throw new RuntimeFailure(describeSignatures(d.name, d.sigs, args, block) ?? CatalogIssues.EVAL_ARGUMENTS_REJECTED.message({ name: d.name }));
}

/**
 * Dispatches `Type.new(args)` to the type's new function as Puppet does (`new_float`,
 * `new_array`, ...); when an `argument_mismatch` dispatch takes it, the conversion reports why.
 */
export function checkNewSignature(kind: string, args: readonly PuppetValue[]): void {
    const d = newDispatchOf(kind);
    if (d) dispatch(d, args, undefined);
}

/** How many arguments a lambda takes: parameters with a default are optional, a captures-rest one takes any number. */
export function lambdaArity(lambda: Lambda): BlockArity {
    const splat = lambda.params.some(p => p.splat);
    return { min: lambda.params.filter(p => !p.splat && p.value === undefined).length, max: splat ? null : lambda.params.length };
}

/**
 * The arguments a Puppet 3.x function is handed (Puppet's Runtime3FunctionArgumentConverter), in
 * arrays and hashes too: regexps, versions, binaries and times as their strings; an iterator is
 * refused. Other functions get the arguments as they are.
 */
export function legacyArguments(name: string, args: PuppetValue[]): PuppetValue[] {
    return LEGACY_ARITY[name] === undefined ? args : args.map(legacyValue);
}

function legacyValue(v: PuppetValue): PuppetValue {
    if (Array.isArray(v)) return v.map(legacyValue);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [legacyValue(k), legacyValue(x)]));
    if (v instanceof PIterator) throw new RuntimeFailure(CatalogIssues.EVAL_ITERATOR_NOT_SUPPORTED.message());
    if (v instanceof PRegexp || v instanceof PSemVer || v instanceof PSemVerRange || v instanceof PBinary || v instanceof PTimespan || v instanceof PTimestamp) return formatValue(v);
    return v;
}

/**
 * Dispatches a core function call as Puppet does: when no signature accepts the arguments and the
 * block, the call fails with Puppet's description of why. Returns true when one of the
 * function's `argument_mismatch` dispatches took the call: the function then reports the problem itself.
 */
export function checkSignature(name: string, args: readonly PuppetValue[], lambda: Lambda | undefined, lambdaTypes?: ReadonlyArray<PAnyType | null>): boolean {
    const arity = LEGACY_ARITY[name];
    if (arity !== undefined) {
        // Puppet 3.x functions declare an arity: N exactly, or -(N+1) for at least N.
        if (arity < 0 && args.length < -arity - 1) throw new RuntimeFailure(CatalogIssues.EVAL_LEGACY_ARITY.message({ fname: name, count: args.length, min: -arity - 1 }));
        if (arity >= 0 && args.length !== arity) throw new RuntimeFailure(CatalogIssues.EVAL_LEGACY_EXACT_ARITY.message({ fname: name, count: args.length, arity }));
        return false;
    }
    const d = dispatchesOf(name);
    return d ? dispatch(d, args, lambda ? { ...lambdaArity(lambda), types: lambdaTypes } : undefined) : false;
}
