import { type FileSystemProvider } from '../../common/index.js';
import { formatValue, pcoreType } from '../../types/index.js';
import { PObjectValue, type ObjectMethods, type PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import type { HierarchyLevel } from './config.js';
import type { HieraScope } from './context.js';
import { LookupError, PuppetErrorClass } from './errors.js';
import type { Interpolator } from './interpolation.js';
import { Invocation } from './invocation.js';
import { lookupValueProblem } from './lookup-value.js';
import { typeAssertionMessage } from './type-support.js';
import { NOT_FOUND, type Found, type KeySegment, type LookupKey } from './lookup-key.js';

/**
 * The environment's functions as Hiera's data providers call them (a module's or the
 * environment's `data_hash`, `lookup_key` and `data_dig` functions). The catalog builder owns
 * function loading and evaluation, so it hands this in through the lookup context.
 */
export interface HieraFunctions {
    /** Whether Puppet's loaders find a function of this name (Puppet language, Ruby or built in). */
    has(name: string): boolean;
    call(name: string, args: PuppetValue[]): PuppetValue;
}

/** `$context.not_found()`: Puppet's `throw :no_such_key`, which the provider catches. */
export class NoSuchKey {
    static readonly instance = new NoSuchKey();
    private constructor() {}
}

/** What a function level needs from its layer. */
export interface FunctionLevelHost {
    readonly functions: HieraFunctions;
    readonly fs: FileSystemProvider;
    readonly interpolator: Interpolator;
    readonly scope: HieraScope;
    readonly environmentName: string;
    readonly moduleName: string | undefined;
    /** DataProvider#validate_data_hash: a module keeps only its own keys (and warns of the others, naming `subject`). */
    readonly ownKeys: (hash: Map<PuppetValue, PuppetValue>, subject: string) => ReadonlyMap<PuppetValue, PuppetValue>;
}

/**
 * Puppet's FunctionContext: one per level and location for the life of the provider (a compile),
 * holding the function's answers (the data hash, or each key's value) and its own cache.
 */
class FunctionContext {
    dataHash: ReadonlyMap<PuppetValue, PuppetValue> | undefined;
    readonly answers = new Map<string, PuppetValue>();
    readonly cache = new Map<PuppetValue, PuppetValue>();
}

/** The Puppet::LookupContext a call receives: the function context's cache, interpolation, not_found. */
function lookupContext(fc: FunctionContext, host: FunctionLevelHost, inv: Invocation): PObjectValue {
    const methods: ObjectMethods = {
        has: name => METHODS.has(name),
        call(name, args, block) {
            switch (name) {
                case 'not_found': throw NoSuchKey.instance;
                case 'interpolate': return host.interpolator.interpolate(args[0] ?? null, inv, host.scope, true);
                case 'explain': {
                    const text = block?.();
                    if (text !== undefined) inv.explainer?.text(typeof text === 'string' ? text : formatValue(text));
                    return null;
                }
                case 'cache': fc.cache.set(args[0] ?? null, args[1] ?? null); return args[1] ?? null;
                case 'cache_all':
                    if (args[0] instanceof Map) for (const [k, v] of args[0]) fc.cache.set(k, v);
                    return null;
                case 'cache_has_key': return fc.cache.has(args[0] ?? null);
                case 'cached_value': return fc.cache.get(args[0] ?? null) ?? null;
                case 'cached_entries':
                    if (!block) return [...fc.cache].map(([k, v]) => [k, v]);
                    for (const [k, v] of [...fc.cache]) block(k, v);
                    return null;
                case 'cached_file_data': {
                    const text = host.fs.readText(String(args[0]));
                    return block ? block(text) : text;
                }
            }
            return null;
        }
    };
    const values = new Map<string, PuppetValue>([['environment_name', host.environmentName], ['module_name', host.moduleName ?? null]]);
    return new PObjectValue(pcoreType('Puppet::LookupContext')!, values, methods);
}

const METHODS = new Set(['not_found', 'interpolate', 'explain', 'cache', 'cache_all', 'cache_has_key', 'cached_value', 'cached_entries', 'cached_file_data']);

/** A location as a function level's options carry it: `path` for files, `uri` for URIs. */
export interface FunctionLocation {
    readonly path: string;
    readonly display: string;
    readonly isUri: boolean;
}

/**
 * The levels whose data come from a function the environment defines (Puppet's
 * DataHashFunctionProvider, LookupKeyFunctionProvider and DataDigFunctionProvider).
 */
export class FunctionLevels {
    private readonly contexts = new Map<string, FunctionContext>();

    constructor(private readonly host: FunctionLevelHost) {}

    /** The value of `key` at one location of the level, or NOT_FOUND; explained as Puppet explains it. */
    lookup(level: HierarchyLevel, loc: FunctionLocation | null, key: LookupKey, inv: Invocation): Found {
        const id = `${level.name}\0${loc?.path ?? ''}`;
        let fc = this.contexts.get(id);
        if (!fc) { fc = new FunctionContext(); this.contexts.set(id, fc); }
        const fn = level.functionName;
        const where = loc === null ? undefined : loc.display;
        const options = (): Map<PuppetValue, PuppetValue> => {
            // Puppet interpolates them once, when it makes the level's provider: not part of the lookup's explanation.
            const o = new Map(this.host.interpolator.interpolate(level.options as Map<PuppetValue, PuppetValue>, new Invocation(inv.nameStack), this.host.scope, false) as Map<PuppetValue, PuppetValue>);
            if (loc !== null) o.set(loc.isUri ? 'uri' : 'path', loc.path);
            return o;
        };
        const call = (args: PuppetValue[]): Found => {
            try {
                return this.host.functions.call(fn, [...args, options(), lookupContext(fc, this.host, inv)]);
            } catch (e) {
                if (e instanceof NoSuchKey) return NOT_FOUND;
                throw e;
            }
        };
        switch (level.functionKind) {
            case 'data_hash': case 'v4_data_hash': {
                // V4DataHashFunctionProvider: the legacy function takes no arguments, and messages call it deprecated.
                const legacy = level.functionKind === 'v4_data_hash';
                const fullName = legacy ? `deprecated API function '${fn}'` : `data_hash function '${fn}'`;
                if (fc.dataHash === undefined) {
                    const h = legacy ? this.callLegacy(fn) : call([]);
                    const subject = `Value returned from ${fullName}${where === undefined ? '' : `, when using location '${where}',`}`;
                    if (!(h instanceof Map)) {
                        throw new LookupError(typeAssertionMessage(subject, 'Hash', h === NOT_FOUND ? null : h), {
                            code: BindingsIssues.LOOKUP_DATA_VALUE_TYPE, puppetClass: PuppetErrorClass.TYPE_ASSERTION
                        });
                    }
                    fc.dataHash = this.host.ownKeys(h, subject);
                }
                const root = key.rootKey;
                if (!fc.dataHash.has(root)) { inv.explainer?.notFound(root); return NOT_FOUND; }
                const raw = fc.dataHash.get(root) ?? null;
                this.validate(raw, `Value for key '${root}', in hash returned from ${fullName}`, where);
                const value = this.host.interpolator.interpolate(raw, inv, this.host.scope, true);
                inv.explainer?.found(root, value);
                return value;
            }
            case 'lookup_key': {
                const root = key.rootKey;
                if (!fc.answers.has(root)) {
                    const v = call([root]);
                    if (v === NOT_FOUND) { inv.explainer?.notFound(root); return NOT_FOUND; }
                    this.validate(v, `Value for key '${root}', returned from lookup_key function '${fn}'`, where);
                    fc.answers.set(root, v);
                }
                const value = fc.answers.get(root) ?? null;
                inv.explainer?.found(root, value);
                return value;
            }
            default: {
                // data_dig gets the whole key; its answer is put back under the sub keys, which the lookup then digs out again.
                const segments = [key.rootKey, ...key.segments];
                if (!fc.answers.has(key.text)) {
                    const v = call([segments.map(s => s)]);
                    if (v === NOT_FOUND) { inv.explainer?.notFound(key.text); return NOT_FOUND; }
                    this.validate(v, `Value for key '${key.text}', returned from data_dig function '${fn}'`, where);
                    fc.answers.set(key.text, v);
                }
                const value = fc.answers.get(key.text) ?? null;
                inv.explainer?.found(key.text, value);
                return undig(key.segments, value);
            }
        }
    }

    private callLegacy(fn: string): Found {
        try {
            return this.host.functions.call(fn, []);
        } catch (e) {
            if (e instanceof NoSuchKey) return NOT_FOUND;
            throw e;
        }
    }

    /** DataProvider#validate_data_value: the value must be a Puppet::LookupValue (RichData). */
    private validate(value: PuppetValue, subject: string, where: string | undefined): void {
        const problem = lookupValueProblem(value, undefined);
        if (problem === undefined) return;
        throw new LookupError(`${subject}${where === undefined ? '' : `, when using location '${where}',`} has wrong type, expects Puppet::LookupValue, got ${problem}`, {
            code: BindingsIssues.LOOKUP_DATA_VALUE_TYPE
        });
    }
}

/** LookupKey#undig: the value nested under the sub keys (an Integer segment makes an Array padded with undef). */
function undig(segments: readonly KeySegment[], value: PuppetValue): PuppetValue {
    let v = value;
    for (let i = segments.length - 1; i >= 0; i--) {
        const s = segments[i];
        if (typeof s === 'bigint') {
            // Ruby's `[][i] = v` with a negative index.
            if (s < 0n) throw new LookupError(`index ${s} too small for array; minimum: 0`, { code: BindingsIssues.LOOKUP_DIG_TYPE_MISMATCH, puppetClass: 'IndexError' });
            const a: PuppetValue[] = Array.from({ length: Number(s) + 1 }, () => null);
            a[Number(s)] = v;
            v = a;
        } else v = new Map<PuppetValue, PuppetValue>([[s, v]]);
    }
    return v;
}
