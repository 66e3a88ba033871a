import type { PuppetValue } from '../model/index.js';
import type { InjectedValue } from './values.js';

/**
 * The injector's extension points. Each is a service in the DI module (services.ts), so the
 * catalog builder, PuppetDB or a test can plug in its own implementation.
 */

/** Puppet source carried by the bindings model: an expression, or a lambda with its parameters. */
export interface PuppetCode {
    readonly source: string;
    /** Set for lambdas: the parameter names in order, without `$`. */
    readonly parameters?: readonly string[];
    readonly file?: string;
    readonly line?: number;
}

/** The scope an expression is evaluated in: the request's top scope. */
export interface EvaluationScope {
    readonly node: string;
    readonly environment: string;
    /** Top-scope variables: the facts plus `$environment`, `$fqdn`... */
    variables(): ReadonlyMap<string, PuppetValue>;
    /** Injection from inside an expression (ARM-8 `inject()`); throws where injection is not allowed. */
    inject(name: string, type?: string): InjectedValue;
}

/** Evaluates Puppet code: producers of evaluating bindings, transformers, combinators, category values. */
export interface ExpressionEvaluator {
    evaluate(code: PuppetCode, scope: EvaluationScope): InjectedValue;
    callLambda(lambda: PuppetCode, args: readonly InjectedValue[], scope: EvaluationScope): InjectedValue;
}

/** Answers ARM-8 queries (`Sql[?? name == one]`), e.g. from PuppetDB. */
export interface QueryService {
    query(resourceType: string | undefined, query: PuppetCode, scope: EvaluationScope): readonly InjectedValue[];
}

/** Creates runtime objects for `to Type[X]` / instance producers (Ruby: InstantiatingProducer). */
export interface InstanceFactory {
    /** Returns undefined when the class is unknown. */
    instantiate(className: string, args: readonly InjectedValue[], scope: EvaluationScope): InjectedValue | undefined;
}

/** Finds existing named instances (`Sql[one]`), e.g. resources of the catalog being built. */
export interface InstanceResolver {
    /** The instance's parameters as a hash, or undefined when no such instance exists. */
    resolve(reference: string, scope: EvaluationScope): InjectedValue | undefined;
}

/** Knows the parameter names of classes and resource types, for unmapped parameter bindings. */
export interface ResourceTypeInfo {
    parameterNames(type: string): readonly string[] | undefined;
    /**
     * Whether Puppet type `sub` (`Class[ntp2]`, `Mybettertype`) may stand for `sup` (ARM-8 "The
     * bound type must be compatible (i.e. be a subtype)"); undefined when a type is unknown.
     */
    isSubtype?(sub: string, sup: string): boolean | undefined;
}

/** A runtime producer object, as produced by a producer-producer (ARM-8 `to producer Type[P]`). */
export interface ProducerObject {
    readonly runtimeType: string;
    produce(scope: EvaluationScope): InjectedValue;
}

export function isProducerObject(v: unknown): v is ProducerObject {
    return typeof v === 'object' && v !== null && typeof (v as { produce?: unknown }).produce === 'function';
}

/**
 * Produces values for producer descriptor kinds the injector does not know itself (a provider's
 * own descriptors, e.g. Hiera interpolation templates). Returns undefined when it does not
 * handle the kind either.
 */
export interface ProducerExtension {
    produce(descriptor: { readonly $type: string }, scope: EvaluationScope): { readonly value: InjectedValue } | undefined;
}
