import type { ArrayMultibindProducerDescriptor, HashMultibindProducerDescriptor, PuppetLambda } from '../../generated/model/bindings.js';
import type { PuppetValue } from '../model/index.js';
import { fail } from './diagnostics.js';
import { guarded } from './evaluation.js';
import { comparePrecedence, type Candidate } from './entries.js';
import { EXCLUDED_CLASSES, INCLUDED_CLASSES } from './keys.js';
import type { ProducerRuntime } from './runtime.js';
import { valueEquals, type InjectedValue } from './values.js';

interface Fragment {
    readonly candidate: Candidate;
    readonly value: InjectedValue;
}

/** The produced fragments of a multibind id, in collection order (layer order, then document order). */
function fragments(rt: ProducerRuntime, id: string | undefined): Fragment[] {
    if (id === undefined) return []; // a multibinding without an id gets no contributions
    const out: Fragment[] = [];
    for (const c of rt.result.fragments.get(id) ?? []) {
        const value = rt.produce(c);
        if (value === null && c.optional) continue;
        out.push({ candidate: c, value });
    }
    return out;
}

function site(c: Candidate): { key: string; layers: string[]; locations: (typeof c.location)[] } {
    return { key: c.key, layers: [c.layer], locations: [c.location] };
}

function checkLambda(owner: Candidate, lambda: PuppetLambda, kind: string, arity: number, names: string): void {
    const n = lambda.parameters?.length;
    if (n !== undefined && n !== arity) fail('INJECT_COMBINATOR_ARITY', { key: owner.key, layers: [owner.layer], locations: [lambda.location ?? owner.location] }, kind, arity, names, n);
}

/**
 * ARM-8 Array multibind: contributions are concatenated, a non-array one appended; names are
 * ignored unless the descriptor asks for priority on (un)named fragments (binder options, with
 * its inverted comparison fixed: the higher precedence one is kept). Then flatten and uniq.
 */
export function collectArray(rt: ProducerRuntime, owner: Candidate, d: ArrayMultibindProducerDescriptor | undefined): InjectedValue {
    const types = rt.services.types;
    const coll = types.collectionOf(owner.declaredType ?? 'Array');
    const element = coll?.kind === 'array' ? coll.element : 'Data';
    let frags = fragments(rt, owner.multibindId);
    for (const f of frags) {
        if (f.value !== null && !types.isInstance(f.value, element) && !types.isInstance(f.value, `Array[${element}]`)) {
            fail('INJECT_ARRAY_CONTRIBUTION_TYPE', site(f.candidate), owner.name, element, element, types.infer(f.value));
        }
    }
    const onNamed = d !== undefined && d.priorityOnNamed !== undefined ? d.priorityOnNamed : false;
    const onUnnamed = d?.priorityOnUnnamed ?? false;
    if (onNamed || onUnnamed) frags = byPriority(frags, f => (f.candidate.name === '' ? onUnnamed : onNamed), owner, 'INJECT_DUPLICATE_ARRAY_KEY');
    let result: InjectedValue[];
    if (d?.combinator) {
        checkLambda(owner, d.combinator, 'Array', 2, '$memo, $x');
        let memo: InjectedValue = [];
        for (const f of frags) {
            const combinator = d.combinator;
            const before = memo;
            memo = guarded(combinator, () => rt.services.evaluator.callLambda(code(combinator), [before, f.value], rt.scope), owner);
            if (!Array.isArray(memo)) fail('INJECT_COMBINATOR_RESULT', site(owner), owner.name, types.infer(memo));
        }
        result = memo as InjectedValue[];
    } else {
        result = frags.flatMap(f => (Array.isArray(f.value) ? f.value : [f.value]));
    }
    return post(result, d?.flatten, d?.uniq) as PuppetValue[];
}

/** Keeps, per name, the fragment of highest precedence; equal precedence is an error. */
function byPriority(frags: Fragment[], applies: (f: Fragment) => boolean, owner: Candidate, code: 'INJECT_DUPLICATE_ARRAY_KEY' | 'INJECT_DUPLICATE_HASH_KEY_PRIORITY'): Fragment[] {
    const unnamed = code === 'INJECT_DUPLICATE_ARRAY_KEY' ? 'INJECT_DUPLICATE_ARRAY_UNNAMED' : code;
    const best = new Map<string, Fragment>();
    const keep: Fragment[] = [];
    for (const f of frags) {
        if (!applies(f)) { keep.push(f); continue; }
        const other = best.get(f.candidate.name);
        if (!other) { best.set(f.candidate.name, f); keep.push(f); continue; }
        const cmp = comparePrecedence(f.candidate, other.candidate);
        if (cmp === 0) fail(f.candidate.name === '' ? unnamed : code, { key: owner.key, layers: [other.candidate.layer, f.candidate.layer], locations: [other.candidate.location, f.candidate.location] }, owner.name, f.candidate.name);
        if (cmp > 0) {
            keep[keep.indexOf(other)] = f;
            best.set(f.candidate.name, f);
        }
    }
    return keep;
}

function post(values: InjectedValue[], flatten: number | undefined, uniq: boolean | undefined): InjectedValue[] {
    let out = values;
    if (flatten !== undefined && flatten !== 0) out = flat(out, flatten < 0 ? Infinity : flatten);
    if (uniq) out = out.filter((v, i) => out.findIndex(x => valueEquals(x, v)) === i);
    return out;
}

function flat(values: InjectedValue[], depth: number): InjectedValue[] {
    return values.flatMap(v => (Array.isArray(v) && depth > 0 ? flat(v, depth - 1) : [v]));
}

/**
 * ARM-8 Hash multibind: every fragment is named and names are unique, or it is an error. The
 * binder's `conflict_resolution` options (priority, ignore, merge, append) and a
 * `|$key, $current, $value|` combinator choose otherwise.
 */
export function collectHash(rt: ProducerRuntime, owner: Candidate, d: HashMultibindProducerDescriptor | undefined): InjectedValue {
    const types = rt.services.types;
    const coll = types.collectionOf(owner.declaredType ?? 'Hash');
    const [keyType, valueType] = coll?.kind === 'hash' ? [coll.key, coll.value] : ['String', 'Data'];
    const resolution = d?.conflictResolution ?? 'error';
    const offending = [d?.uniq ? ':uniq' : undefined, d?.flatten ? ':flatten' : undefined, resolution === 'append' ? ':conflict_resolution => :append' : undefined].filter(x => x !== undefined);
    if (offending.length > 0 && valueType !== 'Data' && !valueType.startsWith('Array')) {
        fail('INJECT_HASH_OPTIONS', site(owner), offending.join(', and '), owner.declaredType ?? 'Hash');
    }
    let frags = fragments(rt, owner.multibindId);
    for (const f of frags) {
        const name = f.candidate.name;
        if (name === '') fail('INJECT_HASH_CONTRIBUTION_UNNAMED', site(f.candidate), owner.name);
        if (!types.isInstance(name, keyType)) fail('INJECT_HASH_KEY_TYPE', site(f.candidate), owner.name, name, keyType);
        if (resolution !== 'append' && !d?.combinator && !types.isInstance(f.value, valueType)) {
            fail('INJECT_HASH_VALUE_TYPE', site(f.candidate), owner.name, name, valueType, types.infer(f.value));
        }
    }
    if (resolution === 'priority' && !d?.combinator) frags = byPriority(frags, () => true, owner, 'INJECT_DUPLICATE_HASH_KEY_PRIORITY');
    const result = new Map<PuppetValue, PuppetValue>();
    const from = new Map<string, Candidate>();
    for (const f of frags) {
        const name = f.candidate.name;
        const current = result.get(name);
        if (d?.combinator) {
            checkLambda(owner, d.combinator, 'Hash', 3, '$key, $current, $value');
            const combinator = d.combinator;
            result.set(name, guarded(combinator, () => rt.services.evaluator.callLambda(code(combinator), [name, current ?? null, f.value], rt.scope), owner) as PuppetValue);
            continue;
        }
        if (current === undefined) {
            result.set(name, (resolution === 'append' ? post([f.value], d?.flatten, d?.uniq) : f.value) as PuppetValue);
            from.set(name, f.candidate);
            continue;
        }
        const first = from.get(name) as Candidate;
        switch (resolution) {
            case 'error':
                fail('INJECT_DUPLICATE_HASH_KEY', { key: owner.key, layers: [first.layer, f.candidate.layer], locations: [first.location, f.candidate.location] }, owner.name, name);
                break;
            case 'priority':
            case 'ignore':
                break;
            case 'merge': {
                if (!(current instanceof Map) || !(f.value instanceof Map)) fail('INJECT_MERGE_NOT_HASH', site(f.candidate), owner.name, name, types.infer(current instanceof Map ? f.value : current));
                // The earlier (higher precedence) fragment wins per key, as the binder's later.merge(earlier).
                result.set(name, new Map([...(f.value as Map<PuppetValue, PuppetValue>), ...(current as Map<PuppetValue, PuppetValue>)]));
                break;
            }
            case 'append':
                result.set(name, post([...(current as PuppetValue[]), f.value], d?.flatten, d?.uniq) as PuppetValue[]);
                break;
        }
    }
    return result;
}

/**
 * `/classes` = included − excluded (ARM-8 Binding Classes): an include wins over an exclude only
 * when the exclude has lower precedence; excluding a class nobody includes is a no-op.
 */
export function collectClasses(rt: ProducerRuntime): InjectedValue {
    const included = rt.valueOfKey(rt.services.keys.key('Array[String]', INCLUDED_CLASSES), undefined);
    const excluded = rt.valueOfKey(rt.services.keys.key('Array[String]', EXCLUDED_CLASSES), undefined);
    const inc = Array.isArray(included) ? included.filter((x): x is string => typeof x === 'string') : [];
    const exc = new Set(Array.isArray(excluded) ? excluded.filter((x): x is string => typeof x === 'string') : []);
    const best = (id: string, cls: string): Candidate | undefined =>
        (rt.result.fragments.get(id) ?? []).filter(f => f.spec.kind === 'value' && f.spec.value === cls).sort((a, b) => -comparePrecedence(a, b))[0];
    const out: string[] = [];
    for (const cls of inc) {
        if (out.includes(cls)) continue;
        if (exc.has(cls)) {
            const i = best(INCLUDED_CLASSES, cls);
            const e = best(EXCLUDED_CLASSES, cls);
            if (!i || !e || comparePrecedence(i, e) <= 0) continue;
        }
        out.push(cls);
    }
    return out;
}

export function code(l: PuppetLambda): { source: string; parameters: readonly string[]; file?: string; line?: number } {
    return { source: l.source, parameters: l.parameters ?? [], ...(l.location ? { file: l.location.file, ...(l.location.line !== undefined ? { line: l.location.line } : {}) } : {}) };
}

