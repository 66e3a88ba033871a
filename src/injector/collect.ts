import type {
    AbstractBinding, Binding, Category, LayeredBindings, Multibinding, NamedArgument,
    ParameterMapBinding, ParametersBinding, ProducerDescriptor, SourceLocation, VariablesBinding
} from '../../generated/model/bindings.js';
import type { RichData } from '../model/index.js';
import type { Categorization } from './categorization.js';
import { diagnostic, formatLocation, type InjectorDiagnostic } from './diagnostics.js';
import type { Candidate, ProducerSpec, Unused } from './entries.js';
import { CLASSES_KEY, DEPENDENCIES_KEY, EXCLUDED_CLASSES, INCLUDED_CLASSES, parseTarget, PRODUCERS, PRODUCERS_TYPE, type KeyFactory, type Target } from './keys.js';
import { excludedBy } from './layers.js';
import { dependencyValue, describe, hieraFiles, hieraRank, isOptional, plainHash, push, rhsTypeOf, singletonOff, stringList } from './collect-helpers.js';
import { cross, matchConjunction, toDnf, type Alternative } from './predicates.js';
import type { TypeService } from './types/type-service.js';
import { toPuppetValue } from './values.js';

/** A `bind parameters` whose producer is not a literal hash: expanded once the maps are known. */
export interface PendingParameters {
    readonly binding: ParametersBinding;
    readonly target: Target;
    readonly base: CandidateBase;
    /** The RHS type (`Sql` for `Sql[one]`), when the producer names one. */
    readonly rhsType: string | undefined;
    readonly descriptor: ProducerDescriptor;
}

export interface Collection {
    /** Candidates per key, in layer order then document order. */
    readonly candidates: Map<string, Candidate[]>;
    /** Multibind fragments per id, in layer order then document order. */
    readonly fragments: Map<string, Candidate[]>;
    readonly unused: Map<string, Unused[]>;
    readonly renames: Candidate[];
    readonly aliases: Candidate[];
    readonly pendingParameters: PendingParameters[];
    readonly issues: InjectorDiagnostic[];
}

/** What every candidate from one binding in one alternative shares. */
export type CandidateBase = Omit<Candidate, 'key' | 'name' | 'declaredType' | 'spec' | 'abstract' | 'optional' | 'singleton' | 'cachesValue' | 'multibindId' | 'bindingKind'> & { readonly binding: AbstractBinding };

interface Context {
    readonly layerIndex: number;
    readonly layer: string;
    readonly named: string;
    readonly contributedBy: string | undefined;
    readonly conjunctions: Category[][];
    readonly location: SourceLocation | undefined;
    readonly rank: readonly number[];
    /** A Hiera level's data files in search order: the first file with a key wins inside the level. */
    readonly dataFiles: readonly string[] | undefined;
    matched?: Alternative[];
}


const NO_ARGS: readonly NamedArgument[] = [];

/** The layer every built-in binding lives in, below all configured layers (binder: puppet-default). */
export const BUILTIN_LAYER = 'puppet-default';

const BUILTIN_LOCATION: SourceLocation = { $type: 'SourceLocation', file: '<built-in>' };

/**
 * Walks the layered bindings once, in layer order and document order, and turns every applicable
 * binding into candidates (keyed) or fragments (multibind contributions). `when` blocks are
 * matched against the request here; bindings of blocks that do not apply are kept aside only to
 * explain them.
 */
export class Collector {
    private order = 0;
    private readonly out: Collection = {
        candidates: new Map(), fragments: new Map(), unused: new Map(), renames: [], aliases: [], pendingParameters: [], issues: []
    };
    private readonly warnedUnknown = new Set<string>();

    constructor(private readonly keys: KeyFactory, private readonly types: TypeService, private readonly categorization: Categorization) {}

    collect(layered: LayeredBindings): Collection {
        const layers = layered.layers ?? [];
        if (layers.length === 0) this.out.issues.push(diagnostic('warning', 'INJECT_NO_LAYERS', { locations: [layered.location] }));
        layers.forEach((layer, layerIndex) => {
            for (const nb of layer.bindings ?? []) {
                const ctx: Context = {
                    layerIndex, layer: layer.name, named: nb.name ?? '<unknown>', contributedBy: nb.contributedBy?.uri,
                    conjunctions: [[]], location: nb.location, rank: hieraRank(nb), dataFiles: hieraFiles(nb)
                };
                const pattern = excludedBy(layer, nb);
                if (pattern !== undefined) {
                    this.out.issues.push(diagnostic('warning', 'INJECT_EXCLUDED_CONTRIBUTION', { layers: [layer.name], locations: [nb.location] }, nb.name ?? '<unknown>', describe(nb.contributedBy), layer.name));
                    this.walk(nb.bindings ?? [], ctx, `excluded: ${pattern} is excluded from layer ${layer.name}`);
                    continue;
                }
                this.walk(nb.bindings ?? [], ctx, undefined);
            }
        });
        this.builtins(layers.length);
        return this.out;
    }

    private walk(bindings: readonly AbstractBinding[], ctx: Context, excluded: string | undefined): void {
        for (const b of bindings) {
            switch (b.$type) {
                case 'Bindings':
                    this.walk(b.bindings ?? [], ctx, excluded);
                    break;
                case 'NamedBindings':
                    this.walk(b.bindings ?? [], { ...ctx, matched: undefined, named: b.name ?? ctx.named, contributedBy: b.contributedBy?.uri ?? ctx.contributedBy, rank: hieraRank(b).length > 0 ? hieraRank(b) : ctx.rank, dataFiles: hieraFiles(b) ?? ctx.dataFiles }, excluded);
                    break;
                case 'CategorizedBindings': {
                    const own = b.predicates.map(toDnf).reduce(cross, [[]]);
                    this.walk(b.bindings ?? [], { ...ctx, matched: undefined, conjunctions: cross(ctx.conjunctions, own), location: b.location }, excluded);
                    break;
                }
                default:
                    this.binding(b, ctx, excluded);
            }
        }
    }

    /** The alternatives of the context the request satisfies, deduplicated by score. */
    private alternatives(ctx: Context): Alternative[] {
        if (ctx.matched) return ctx.matched;
        const found: Alternative[] = [];
        for (const conj of ctx.conjunctions) {
            const m = matchConjunction(conj, this.categorization);
            if (m.kind === 'unknown') {
                const tag = `${m.category.categorization}@${formatLocation(ctx.location)}`;
                if (!this.warnedUnknown.has(tag)) {
                    this.warnedUnknown.add(tag);
                    this.out.issues.push(diagnostic('warning', 'INJECT_UNKNOWN_CATEGORY', { layers: [ctx.layer], locations: [m.category.location ?? ctx.location] }, m.category.categorization, m.category.categorization, m.category.value));
                }
            } else if (m.kind === 'match' && !found.some(a => a.score.join() === m.alternative.score.join())) {
                found.push(m.alternative);
            }
        }
        ctx.matched = found;
        return found;
    }

    private binding(b: Exclude<AbstractBinding, { $type: 'Bindings' | 'NamedBindings' | 'CategorizedBindings' }>, ctx: Context, excluded: string | undefined): void {
        const alternatives = excluded === undefined ? this.alternatives(ctx) : [];
        if (alternatives.length === 0) {
            this.unusedBinding(b, ctx, excluded);
            return;
        }
        const order = this.order++;
        for (const alternative of alternatives) {
            const base: CandidateBase = {
                binding: b, layerIndex: ctx.layerIndex, layer: ctx.layer, namedBindings: ctx.named, contributedBy: ctx.contributedBy,
                alternative, order, rank: ctx.dataFiles && b.location ? [...ctx.rank, ctx.dataFiles.indexOf(b.location.file)] : ctx.rank, override: 'override' in b && b.override === true, final: 'final' in b && b.final === true,
                producerArgs: 'producerArgs' in b ? b.producerArgs ?? NO_ARGS : NO_ARGS, location: b.location
            };
            this.expand(b, base);
        }
    }

    private expand(b: Exclude<AbstractBinding, { $type: 'Bindings' | 'NamedBindings' | 'CategorizedBindings' }>, base: CandidateBase): void {
        switch (b.$type) {
            case 'Binding':
            case 'Multibinding':
                this.plain(b, base);
                return;
            case 'ParametersBinding':
                this.parameters(b, base);
                return;
            case 'VariablesBinding':
                this.variables(b, base);
                return;
            case 'ParameterMapBinding':
                this.parameterMap(b, base);
                return;
            case 'AliasBinding':
            case 'RenamedBinding':
            case 'Rebinding': {
                if (b.producer) this.out.issues.push(diagnostic('error', 'INJECT_REBIND_PRODUCER', { layers: [base.layer], locations: [b.location] }, b.$type));
                const key = this.keys.key(b.type, b.name);
                const spec: ProducerSpec = b.$type === 'Rebinding' ? { kind: 'rebind' } : { kind: 'alias', originalKey: this.keys.key(b.originalType, b.originalName) };
                // ARM-8 Rebinding: "the rebound key must naturally exist ... This means that an override has no effect".
                const c = this.candidate({ ...base, override: false }, b.$type, key, b.name ?? '', b.type, spec, b.abstract === true, undefined);
                if (b.$type === 'RenamedBinding') this.out.renames.push(c);
                if (b.$type !== 'Rebinding') this.out.aliases.push(c);
                return;
            }
            case 'IncludeClassesBinding':
            case 'ExcludeClassesBinding': {
                const id = b.$type === 'IncludeClassesBinding' ? INCLUDED_CLASSES : EXCLUDED_CLASSES;
                for (const cls of b.classNames) {
                    this.fragment(id, this.make(base, b.$type, `#${id}`, cls, 'String', { kind: 'value', value: cls.replace(/^::/, '').toLowerCase() }, false, undefined));
                }
                return;
            }
            case 'DependencyBinding':
                this.fragment(DEPENDENCIES_KEY, this.make(base, b.$type, `#${DEPENDENCIES_KEY}`, '', 'Hash', { kind: 'value', value: dependencyValue(b) }, false, undefined));
                return;
        }
    }

    private plain(b: Binding | Multibinding, base: CandidateBase): void {
        const isMulti = b.$type === 'Multibinding';
        const spec: ProducerSpec = b.producer ? { kind: 'descriptor', descriptor: b.producer } : isMulti ? { kind: 'multibind' } : { kind: 'none' };
        const type = b.type ?? (isMulti ? 'Hash[String, Data]' : undefined);
        if (isMulti && this.types.collectionOf(type ?? 'Hash') === undefined) {
            this.out.issues.push(diagnostic('error', 'INJECT_MULTIBIND_TYPE', { layers: [base.layer], locations: [b.location] }, type ?? ''));
        }
        if (b.multibindId !== undefined) {
            // A fragment; a multibinding contributed to another one still collects its own id.
            this.fragment(b.multibindId, this.make(base, b.$type, `#${b.multibindId}`, b.name ?? '', type, spec, b.abstract === true, isMulti ? (b as Multibinding).id : undefined));
            return;
        }
        const name = b.name ?? '';
        // ARM-8 Abstract Bindings: "an abstract binding does not bind any value".
        if (b.abstract && b.producer) this.out.issues.push(diagnostic('error', 'INJECT_ABSTRACT_WITH_PRODUCER', { layers: [base.layer], locations: [b.location] }, this.keys.key(type, name)));
        if (name.startsWith('/')) this.out.issues.push(diagnostic('warning', 'INJECT_RESERVED_NAME', { layers: [base.layer], locations: [b.location] }, name));
        this.candidate(base, b.$type, this.keys.key(type, name), name, type, spec, b.abstract === true, isMulti ? (b as Multibinding).id : undefined);
    }

    private parameters(b: ParametersBinding, base: CandidateBase): void {
        const target = parseTarget(b.target);
        if (b.abstract) {
            this.out.issues.push(diagnostic('error', 'INJECT_ABSTRACT_PARAMETERS', { layers: [base.layer], locations: [b.location] }, b.target));
            return;
        }
        const p = b.producer;
        const hash = p?.$type === 'ConstantProducerDescriptor' ? plainHash(p.value) : undefined;
        if (hash) {
            // A literal hash: each parameter is its own binding, overridable one by one.
            for (const [param, value] of Object.entries(hash)) {
                this.candidate(base, b.$type, this.keys.paramKey(target.key, param), `${target.key}/${param}`, b.type, { kind: 'value', value }, false, undefined);
            }
            return;
        }
        if (!p) {
            this.out.issues.push(diagnostic('error', 'INJECT_MISSING_PRODUCER', { layers: [base.layer], locations: [b.location] }, `parameters of ${b.target}`));
            return;
        }
        if (p.$type === 'ConstantProducerDescriptor') {
            // A literal that is not a hash has no parameters to give.
            this.out.issues.push(diagnostic('error', 'INJECT_PARAMETERS_NOT_KEYED', { layers: [base.layer], locations: [p.location ?? b.location] }, b.target, this.types.infer(toPuppetValue(p.value ?? null))));
            return;
        }
        this.out.pendingParameters.push({ binding: b, target, base, rhsType: rhsTypeOf(p), descriptor: p });
    }

    private variables(b: VariablesBinding, base: CandidateBase): void {
        if (b.abstract) {
            const fromProducer = b.producer?.$type === 'ConstantProducerDescriptor' ? stringList(b.producer.value) : [];
            const names = [...(b.variableNames ?? []), ...fromProducer];
            if (names.length === 0) this.out.issues.push(diagnostic('error', 'INJECT_VARIABLES_NO_NAMES', { layers: [base.layer], locations: [b.location] }));
            for (const n of names) this.candidate(base, b.$type, this.keys.varKey(n), n, b.type ?? 'Any', { kind: 'none' }, true, undefined);
            return;
        }
        const hash = b.producer?.$type === 'ConstantProducerDescriptor' ? plainHash(b.producer.value) : undefined;
        if (!hash) {
            this.out.issues.push(diagnostic('error', 'INJECT_VARIABLES_NOT_HASH', { layers: [base.layer], locations: [b.location] }));
            return;
        }
        const type = this.variableType(b.type, hash);
        for (const [n, value] of Object.entries(hash)) {
            if (type !== undefined) {
                const v = toPuppetValue(value);
                if (!this.types.isInstance(v, type)) {
                    this.out.issues.push(diagnostic('error', 'INJECT_VARIABLE_TYPE', { key: this.keys.varKey(n), layers: [base.layer], locations: [b.location] }, n, type, this.types.infer(v)));
                }
            }
            this.candidate(base, b.$type, this.keys.varKey(n), n, type, { kind: 'value', value }, false, undefined);
        }
    }

    /**
     * ARM-8 types each variable (`bind variables Integer to {a => 10}`). A Hash type that the
     * whole literal satisfies, while its values do not satisfy it, types the hash instead: then
     * each variable has the hash's value type.
     */
    private variableType(type: string | undefined, hash: Record<string, RichData>): string | undefined {
        if (type === undefined) return undefined;
        const coll = this.types.collectionOf(type);
        if (coll?.kind !== 'hash') return type;
        const values = Object.values(hash).map(toPuppetValue);
        if (values.every(v => this.types.isInstance(v, type))) return type;
        return this.types.isInstance(toPuppetValue(hash), type) ? coll.value : type;
    }

    private parameterMap(b: ParameterMapBinding, base: CandidateBase): void {
        const map = new Map<string, string>((b.mappings ?? []).map(m => [m.targetParameter, m.sourceParameter]));
        const key = this.keys.mapKey(parseTarget(b.fromType).type, parseTarget(b.toType).type);
        this.candidate(base, b.$type, key, key, 'Hash[String, String]', { kind: 'computed', value: map }, b.abstract === true, undefined);
    }

    /** The built-in multibindings behind `/classes`, `/dependencies` and named producers, shadowable by any layer. */
    private builtins(layerIndex: number): void {
        const alternative: Alternative = { categories: [], score: [0], label: 'common' };
        const base = (name: string): CandidateBase => ({
            binding: { $type: 'Multibinding', name, location: BUILTIN_LOCATION }, layerIndex, layer: BUILTIN_LAYER, namedBindings: 'puppet::default',
            contributedBy: undefined, alternative, order: this.order++, rank: [], override: false, final: false, producerArgs: [], location: BUILTIN_LOCATION
        });
        for (const id of [INCLUDED_CLASSES, EXCLUDED_CLASSES]) {
            this.candidate(base(id), 'Multibinding', this.keys.key('Array[String]', id), id, 'Array[String]', { kind: 'multibind' }, false, id);
        }
        this.candidate(base(DEPENDENCIES_KEY), 'Multibinding', DEPENDENCIES_KEY, DEPENDENCIES_KEY, 'Array[Hash]', { kind: 'multibind' }, false, DEPENDENCIES_KEY);
        this.candidate(base(PRODUCERS), 'Multibinding', this.keys.key(PRODUCERS_TYPE, PRODUCERS), PRODUCERS, PRODUCERS_TYPE, { kind: 'multibind' }, false, PRODUCERS);
        this.candidate(base(CLASSES_KEY), 'Binding', CLASSES_KEY, CLASSES_KEY, 'Array[String]', { kind: 'classes' }, false, undefined);
    }

    /** Spelled out field by field: one object shape for every candidate keeps creation fast. */
    make(base: CandidateBase, kind: string, key: string, name: string, type: string | undefined, spec: ProducerSpec, abstract: boolean, multibindId: string | undefined): Candidate {
        const descriptor = spec.kind === 'descriptor' ? spec.descriptor : spec.kind === 'parameter' ? spec.source.descriptor : undefined;
        const singleton = !(descriptor !== undefined && descriptor.$type === 'NonCachingProducerDescriptor') && (base.producerArgs.length === 0 || !singletonOff(base.producerArgs));
        return {
            bindingKind: kind, binding: base.binding, key, name, declaredType: type,
            layerIndex: base.layerIndex, layer: base.layer, namedBindings: base.namedBindings, contributedBy: base.contributedBy,
            alternative: base.alternative, order: base.order, rank: base.rank, abstract, override: base.override, final: base.final,
            optional: descriptor !== undefined && isOptional(descriptor),
            singleton, cachesValue: singleton && descriptor?.$type !== 'ProducerProducerDescriptor',
            spec, producerArgs: base.producerArgs, location: base.location, multibindId, producer: undefined
        };
    }

    candidate(base: CandidateBase, kind: string, key: string, name: string, type: string | undefined, spec: ProducerSpec, abstract: boolean, multibindId: string | undefined): Candidate {
        const c = this.make(base, kind, key, name, type, spec, abstract, multibindId);
        push(this.out.candidates, key, c);
        return c;
    }

    private fragment(id: string, c: Candidate): void {
        push(this.out.fragments, id, c);
    }

    private unusedBinding(b: AbstractBinding, ctx: Context, excluded: string | undefined): void {
        if (b.$type !== 'Binding' && b.$type !== 'Multibinding' && b.$type !== 'AliasBinding' && b.$type !== 'RenamedBinding' && b.$type !== 'Rebinding') return;
        const unused: Unused = {
            bindingKind: b.$type, layer: ctx.layer, namedBindings: ctx.named, location: b.location, name: b.name ?? '',
            category: ctx.conjunctions.map(c => c.map(x => `${x.categorization} ${x.value}`).join(' and ') || 'common').join(' or '),
            reason: excluded !== undefined ? 'excluded' : 'notApplicable',
            explanation: excluded ?? 'its when predicates do not match the request'
        };
        // A fragment that does not apply is kept under `#<id>`, to be listed as not included.
        if (b.multibindId !== undefined) push(this.out.unused, `#${b.multibindId}`, unused);
        else push(this.out.unused, this.keys.key(b.type ?? (b.$type === 'Multibinding' ? 'Hash[String, Data]' : undefined), b.name), unused);
    }
}

