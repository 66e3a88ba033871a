import type { NamedArgument, ProducerDescriptor, PuppetExpression, PuppetLambda } from '../../generated/model/bindings.js';
import type { PuppetValue } from '../model/index.js';
import { fail } from './diagnostics.js';
import { guarded } from './evaluation.js';
import type { Candidate, Producer, SharedSource } from './entries.js';
import { code, collectArray, collectClasses, collectHash } from './multibind.js';
import { PRODUCERS } from './keys.js';
import { NOTHING, type ProducerRuntime } from './runtime.js';
import { isProducerObject, type PuppetCode } from './spi.js';
import { deepCopy, toPuppetValue, type InjectedValue } from './values.js';

type Make = () => InjectedValue;

/**
 * Creates the producer of a candidate, lazily at its first lookup (binder: producers are built
 * on first lookup and cached in the entry). Singletons produce once; a non-caching descriptor
 * or `singleton => false` produces on every lookup (constants then hand out deep copies).
 * A transformer lambda runs once per produced value (the binder's double application on
 * singletons is a listed bug, not copied).
 */
export function createProducer(c: Candidate, rt: ProducerRuntime): Producer {
    const make = base(c, rt);
    const transformer = transformerOf(c);
    const run: Make = transformer
        ? () => { const v = make(); return guarded(transformer, () => rt.services.evaluator.callLambda(code(transformer), [v], rt.scope), c); }
        : make;
    if (transformer?.parameters && transformer.parameters.length !== 1) fail('INJECT_TRANSFORMER_ARITY', { key: c.key, layers: [c.layer], locations: [transformer.location ?? c.location] });
    if (!c.cachesValue) return { produce: run };
    let cached: { value: InjectedValue } | undefined;
    return { produce: () => (cached ??= { value: run() }).value };
}

function base(c: Candidate, rt: ProducerRuntime): Make {
    const spec = c.spec;
    switch (spec.kind) {
        case 'descriptor': return descriptor(spec.descriptor, c, rt);
        case 'value': {
            const v = toPuppetValue(spec.value);
            return c.singleton ? () => v : () => deepCopy(v);
        }
        case 'computed': return () => spec.value;
        case 'parameter': return parameter(spec.source, spec.parameter, c, rt);
        case 'alias': return () => {
            const v = rt.valueOfKey(spec.originalKey, undefined, true);
            return v === NOTHING ? null : v;
        };
        case 'rebind': return () => {
            const entry = rt.result.entries.get(c.key);
            const delegate = entry?.rebindDelegate;
            if (!delegate) return fail('INJECT_REBIND_MISSING', { key: c.key, layers: [c.layer], locations: [c.location] }, c.key);
            return rt.produce(delegate);
        };
        case 'multibind': {
            const coll = rt.services.types.collectionOf(c.declaredType ?? 'Hash');
            return coll?.kind === 'array' ? () => collectArray(rt, c, undefined) : () => collectHash(rt, c, undefined);
        }
        case 'classes': return () => collectClasses(rt);
        case 'none': return () => fail('INJECT_MISSING_PRODUCER', { key: c.key, layers: [c.layer], locations: [c.location] }, c.key);
    }
}

function descriptor(d: ProducerDescriptor, c: Candidate, rt: ProducerRuntime): Make {
    const { evaluator, instances, resolver, query, keys } = rt.services;
    const site = { key: c.key, layers: [c.layer], locations: [d.location ?? c.location] };
    switch (d.$type) {
        case 'ConstantProducerDescriptor': {
            const v = toPuppetValue(d.value ?? null);
            return c.singleton ? () => v : () => deepCopy(v);
        }
        case 'EvaluatingProducerDescriptor':
            return () => guarded(d.expression, () => (isLambda(d.expression)
                // A lambda is called with the top scope as a hash (`|$scope| { $scope['processorcount'] }`).
                ? evaluator.callLambda(codeOf(d.expression), [new Map(rt.scope.variables())], rt.scope)
                : evaluator.evaluate(codeOf(d.expression), rt.scope)), c);
        case 'InstanceProducerDescriptor': {
            const className = d.className ?? '';
            return () => {
                const args = d.arguments && d.arguments.length > 0 ? d.arguments.map(toPuppetValue) : producerArgsOf(c);
                const made = instances.instantiate(className, args, rt.scope);
                return made === undefined ? fail('INJECT_CLASS_NOT_FOUND', site, className, c.name) : made;
            };
        }
        case 'InstanceReferenceProducerDescriptor':
            // ARM-8: the injector "will try to find this instance"; `to optional` ignores it when it is not there.
            return () => resolver.resolve(d.reference, rt.scope) ?? (c.optional ? null : fail('INJECT_INSTANCE_NOT_FOUND', site, d.reference, c.key));
        case 'ProducerProducerDescriptor': {
            const inner = d.producer.$type === 'LookupProducerDescriptor' && d.producer.type === undefined
                ? registeredProducer(d.producer.name ?? '', rt) ?? descriptor(d.producer, c, rt)
                : descriptor(d.producer, c, rt);
            // A singleton keeps the produced producer, so a series continues across lookups.
            let made: InjectedValue | undefined;
            return () => {
                const p = c.singleton ? (made ??= inner()) : inner();
                if (!isProducerObject(p)) return fail('INJECT_NOT_A_PRODUCER', site, c.key, rt.services.types.infer(p));
                return p.produce(rt.scope);
            };
        }
        case 'NonCachingProducerDescriptor':
            if (d.producer.$type === 'NonCachingProducerDescriptor') fail('INJECT_NESTED_NON_CACHING', site);
            return descriptor(d.producer, c, rt);
        case 'OptionalProducerDescriptor':
            return descriptor(d.producer, c, rt);
        case 'LookupProducerDescriptor':
        case 'HashLookupProducerDescriptor': {
            const key = keys.key(d.type, d.name);
            return () => {
                const v = rt.valueOfKey(key, d.type);
                if (v === NOTHING) return null;
                if (d.$type === 'LookupProducerDescriptor') return v;
                return v instanceof Map ? v.get(d.key ?? '') ?? null : null;
            };
        }
        case 'FirstFoundProducerDescriptor': {
            const list = d.producers ?? [];
            if (list.length === 0) fail('INJECT_FIRST_FOUND_EMPTY', site);
            const lookups = list.map(p => descriptor(p, c, rt));
            return () => {
                for (const l of lookups) {
                    const v = l();
                    if (v !== null) return v;
                }
                return null;
            };
        }
        case 'QueryProducerDescriptor':
            return () => {
                if (!query) return fail('INJECT_NO_QUERY_SERVICE', site, c.key);
                const results = query.query(d.resourceType, codeOf(d.query), rt.scope);
                const select = d.selectResult;
                if (select) return guarded(select, () => evaluator.callLambda(code(select), [[...results] as PuppetValue[]], rt.scope), c);
                if (results.length === 1) return results[0];
                if (results.length === 0 && c.optional) return null;
                return fail('INJECT_QUERY_RESULT_COUNT', site, c.key, results.length);
            };
        case 'ArrayMultibindProducerDescriptor':
            return () => collectArray(rt, c, d);
        case 'HashMultibindProducerDescriptor':
            return () => collectHash(rt, c, d);
        default:
            return extension(d, c, rt);
    }
}

/** A descriptor kind from a provider (newer than this switch): the ProducerExtension service makes it. */
function extension(d: { readonly $type: string }, c: Candidate, rt: ProducerRuntime): Make {
    return () => {
        const made = rt.services.extensions.produce(d, rt.scope);
        return made ? made.value : fail('INJECT_UNSUPPORTED_PRODUCER', { key: c.key, layers: [c.layer], locations: [c.location] }, d.$type, c.key);
    };
}

/** The value object a non-hash `bind parameters` draws from is produced once for all its parameters. */
const sources = new WeakMap<SharedSource, { value: InjectedValue }>();

function parameter(source: SharedSource, name: string, c: Candidate, rt: ProducerRuntime): Make {
    const make = descriptor(source.descriptor, c, rt);
    return () => {
        let s = sources.get(source);
        if (!s || !c.singleton) {
            s = { value: make() };
            // Nothing found (an optional instance not yet in the catalog) is asked again next time.
            if (s.value !== null) sources.set(source, s);
        }
        const obj = s.value;
        if (obj === null) return null;
        if (obj instanceof Map) return obj.get(name) ?? null;
        return fail('INJECT_PARAMETERS_NOT_KEYED', { key: c.key, layers: [c.layer], locations: [c.location] }, source.target, rt.services.types.infer(obj));
    };
}

/**
 * `to producer 'name'` (ARM-8: `bind String, "request-id" to producer "mymodule::uuid"`): the
 * producer registered under that name with a producer type (`bind Type[Producer[String]],
 * "mymodule::uuid" to Type[MyUUIDProducer]`); undefined when there is none (then a Data name).
 */
function registeredProducer(name: string, rt: ProducerRuntime): Make | undefined {
    const key = [...rt.result.entries.keys()].find(k => k.startsWith('Type[') && k.endsWith(`]/${name}`));
    if (key !== undefined) {
        return () => {
            const v = rt.valueOfKey(key, undefined);
            return v === NOTHING ? null : v;
        };
    }
    // A contribution named `name` to the built-in `producers` multibind (the seed's `... in 'producers'`).
    const fragment = registeredFragment(name, rt.result);
    return fragment ? () => rt.produce(fragment) : undefined;
}

/** The contribution registering producer `name` in the built-in `producers` multibind. */
export function registeredFragment(name: string, result: Pick<ProducerRuntime['result'], 'fragments'>): Candidate | undefined {
    return result.fragments.get(PRODUCERS)?.find(f => f.name === name);
}

/** ARM-8 `producer_args => {...}`: handed to the producer's constructor as one hash (options the injector itself reads left out). */
function producerArgsOf(c: Candidate): PuppetValue[] {
    const own = c.producerArgs.filter(a => a.name !== 'transformer' && a.name !== 'singleton' && a.expression === undefined);
    // ARM-8 `inject(name, { ... })`: the call's hash is passed to the producer too, over the binding's own.
    if (own.length === 0 && c.callArgs === undefined) return [];
    return [new Map<PuppetValue, PuppetValue>([...own.map((a): [PuppetValue, PuppetValue] => [a.name, toPuppetValue(a.value ?? null)]), ...(c.callArgs ?? [])])];
}

/** Whether the candidate makes its value with a producer class, which takes arguments (`to producer Type[P]`, `to Type[X]`). */
export function takesArguments(c: Candidate): boolean {
    let d = c.spec.kind === 'descriptor' ? c.spec.descriptor : undefined;
    while (d && (d.$type === 'OptionalProducerDescriptor' || d.$type === 'NonCachingProducerDescriptor')) d = d.producer;
    return d?.$type === 'InstanceProducerDescriptor' || (d?.$type === 'ProducerProducerDescriptor' && d.producer.$type === 'InstanceProducerDescriptor');
}

function transformerOf(c: Candidate): PuppetLambda | undefined {
    const fromArgs = c.producerArgs.find((a: NamedArgument) => a.name === 'transformer')?.expression;
    const fromDescriptor = c.spec.kind === 'descriptor' ? c.spec.descriptor.transformer : undefined;
    const t = fromDescriptor ?? fromArgs;
    if (!t) return undefined;
    return isLambda(t) ? t : { $type: 'PuppetLambda', source: t.source, ...(t.location ? { location: t.location } : {}) };
}

function isLambda(e: PuppetExpression | PuppetLambda): e is PuppetLambda {
    return e.$type === 'PuppetLambda';
}

function codeOf(e: PuppetExpression | PuppetLambda): PuppetCode {
    return isLambda(e) ? code(e) : { source: e.source, ...(e.location ? { file: e.location.file, ...(e.location.line !== undefined ? { line: e.location.line } : {}) } : {}) };
}
