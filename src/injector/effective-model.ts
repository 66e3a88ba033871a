import type { ProducerDescriptor, SourceLocation as BindingsLocation } from '../../generated/model/bindings.js';
import type {
    Candidate as CandidateModel, Contribution, EffectiveBinding, EffectiveBindings, InjectorIssue, ProducerKind, ProducerSummary, SourceLocation
} from '../../generated/model/effective-bindings.js';
import { modelRegistry, toExactRichData, toRichData, type Model, type ModelObject, type PuppetValue, type RichData } from '../model/index.js';
import type { BinderResult } from './binder.js';
import type { InjectorDiagnostic } from './diagnostics.js';
import { BUILTIN_LAYER } from './collect.js';
import type { Candidate, Entry, ProducerSpec } from './entries.js';
import { winnerExplanation } from './explain.js';
import type { InjectionRequest } from './request.js';
import { isRuntimeValue } from './values.js';

/** The EffectiveBindings model of a request: every key's outcome, sorted by key, and the creation issues. */
export function buildEffectiveModel(result: BinderResult, request: InjectionRequest & { environment: string }, lookupFailures: readonly InjectorDiagnostic[] = []): Model {
    const keys = [...new Set([...result.entries.keys(), ...result.unused.keys()])].filter(k => !k.startsWith('#')).sort();
    const entries: EffectiveBinding[] = [];
    for (const key of keys) {
        const e = result.entries.get(key);
        if (e && isIdleBuiltin(e, result)) continue;
        entries.push(entry(key, e, result));
    }
    const root: EffectiveBindings = {
        $type: 'EffectiveBindings',
        request: {
            $type: 'InjectionRequest', node: request.node, environment: request.environment,
            categories: result.categorization.categories.map(c => ({
                $type: 'CategoryValue', categorization: c.categorization, precedence: c.precedence, ...(c.value !== undefined ? { value: c.value } : {})
            })),
            ...(request.bindingsFile !== undefined ? { bindingsFile: request.bindingsFile } : {})
        },
        layers: [...result.layers],
        entries,
        issues: [...result.issues, ...lookupFailures].map((i): InjectorIssue => ({
            $type: 'InjectorIssue', severity: i.severity, code: i.code, message: i.message,
            ...(i.key !== undefined ? { key: i.key } : {}), layers: [...i.layers], locations: i.locations.map(loc)
        }))
    };
    const index = modelRegistry().byPackageName('effective-bindings');
    if (!index) throw new Error('the effective-bindings package is not registered');
    return { index, root: root as unknown as ModelObject };
}

/** A built-in /classes or /dependencies key nobody contributed to: not worth a line in the review file. */
function isIdleBuiltin(e: Entry, result: BinderResult): boolean {
    const w = e.winner;
    if (!w || w.layer !== BUILTIN_LAYER || e.candidates.length > 1) return false;
    if (w.multibindId !== undefined) return (result.fragments.get(w.multibindId) ?? []).length === 0;
    return ['included_classes', 'excluded_classes'].every(id => (result.fragments.get(id) ?? []).length === 0);
}

function entry(key: string, e: Entry | undefined, result: BinderResult): EffectiveBinding {
    const w = e?.winner;
    const first = e?.candidates[0];
    const type = e?.type ?? (key.startsWith('/') ? 'Data' : key.slice(0, key.lastIndexOf('/', key.length)));
    const shadowed: CandidateModel[] = (e?.shadowed ?? []).map(s => ({ ...candidate(s.candidate), reason: s.reason, explanation: s.explanation }));
    for (const u of result.unused.get(key) ?? []) {
        shadowed.push({
            $type: 'Candidate', bindingKind: u.bindingKind, layer: u.layer, namedBindings: u.namedBindings, category: u.category,
            precedence: [], producer: { $type: 'ProducerSummary', kind: 'none' }, reason: u.reason, explanation: u.explanation,
            ...(u.location ? { location: loc(u.location) } : {})
        });
    }
    const value = e?.cached?.value;
    const out: EffectiveBinding = {
        $type: 'EffectiveBinding', key, type,
        name: e?.name ?? first?.name ?? key.slice(key.indexOf('/') + 1),
        ...(w ? { winner: { ...candidate(w), ...(e?.erasedBy ? { reason: 'renamed' as const } : {}), explanation: winnerExplanation(e as Entry, w) } } : {}),
        shadowed,
        overrideResolved: e?.overrideResolved ?? false,
        ...(w?.multibindId !== undefined ? { multibindId: w.multibindId, contributions: contributions(w.multibindId, result) } : {}),
        ...(value !== undefined && !isRuntimeValue(value) && !containsRuntime(value) ? { value: toExactRichData(value as PuppetValue), produced: true } : {})
    };
    return out;
}

function containsRuntime(v: unknown): boolean {
    if (Array.isArray(v)) return v.some(containsRuntime);
    if (v instanceof Map) return [...v.values()].some(containsRuntime);
    return isRuntimeValue(v);
}

function contributions(id: string, result: BinderResult): Contribution[] {
    const unused = (result.unused.get(`#${id}`) ?? []).map((u): Contribution => ({
        $type: 'Contribution', layer: u.layer, namedBindings: u.namedBindings, category: u.category, precedence: [],
        producer: { $type: 'ProducerSummary', kind: 'none' }, included: false, explanation: u.explanation,
        ...(u.name !== '' ? { name: u.name } : {}), ...(u.location ? { location: loc(u.location) } : {})
    }));
    return [...used(id, result), ...unused];
}

function used(id: string, result: BinderResult): Contribution[] {
    return (result.fragments.get(id) ?? []).map(f => ({
        $type: 'Contribution', layer: f.layer, namedBindings: f.namedBindings, category: f.alternative.label, precedence: [...f.alternative.score],
        producer: producer(f.spec, f), included: true,
        ...(f.name !== '' ? { name: f.name } : {}),
        ...(f.location ? { location: loc(f.location) } : {})
    }));
}

function candidate(c: Candidate): CandidateModel {
    return {
        $type: 'Candidate', bindingKind: c.bindingKind, layer: c.layer, namedBindings: c.namedBindings, category: c.alternative.label,
        precedence: [...c.alternative.score], abstract: c.abstract, override: c.override, final: c.final, producer: producer(c.spec, c),
        ...(c.declaredType !== undefined ? { declaredType: c.declaredType } : {}),
        ...(c.contributedBy !== undefined ? { contributedBy: c.contributedBy } : {}),
        ...(c.location ? { location: loc(c.location) } : {})
    };
}

function loc(l: BindingsLocation): SourceLocation {
    return { $type: 'SourceLocation', file: l.file, ...(l.line !== undefined ? { line: l.line } : {}), ...(l.column !== undefined ? { column: l.column } : {}) };
}

function producer(spec: ProducerSpec, c: Candidate): ProducerSummary {
    const flags = { singleton: c.singleton, optional: c.optional, transformed: c.producerArgs.some(a => a.name === 'transformer') || (spec.kind === 'descriptor' && spec.descriptor.transformer !== undefined) };
    switch (spec.kind) {
        case 'descriptor': return { $type: 'ProducerSummary', ...describe(spec.descriptor), ...flags };
        case 'value': return { $type: 'ProducerSummary', kind: 'constant', value: spec.value, ...flags };
        case 'computed': return { $type: 'ProducerSummary', kind: 'constant', ...(isRuntimeValue(spec.value) ? {} : { value: toRichData(spec.value as PuppetValue) }), ...flags };
        case 'parameter': return { $type: 'ProducerSummary', ...describe(spec.source.descriptor), description: `parameter '${spec.parameter}' of ${describe(spec.source.descriptor).description ?? 'the bound object'}`, ...flags };
        case 'alias': return { $type: 'ProducerSummary', kind: 'alias', description: spec.originalKey, ...flags };
        case 'rebind': return { $type: 'ProducerSummary', kind: 'alias', description: `rebind of ${c.key}`, ...flags };
        case 'multibind': {
            const kind: ProducerKind = c.declaredType?.startsWith('Array') ? 'arrayMultibind' : 'hashMultibind';
            return { $type: 'ProducerSummary', kind, description: `contributions to '${c.multibindId ?? ''}'`, ...flags };
        }
        case 'classes': return { $type: 'ProducerSummary', kind: 'alias', description: 'included_classes - excluded_classes', ...flags };
        case 'none': return { $type: 'ProducerSummary', kind: 'none', ...flags };
    }
}

function describe(d: ProducerDescriptor): { kind: ProducerKind; value?: RichData; description?: string; location?: SourceLocation } {
    const at = d.location ? { location: loc(d.location) } : {};
    switch (d.$type) {
        case 'ConstantProducerDescriptor': return { kind: 'constant', ...(d.value !== undefined ? { value: d.value } : {}), ...at };
        case 'EvaluatingProducerDescriptor': return { kind: 'evaluating', description: d.expression.source, ...(d.expression.location ? { location: loc(d.expression.location) } : at) };
        case 'InstanceProducerDescriptor': return { kind: 'instance', description: d.className ?? '', ...at };
        case 'InstanceReferenceProducerDescriptor': return { kind: 'instanceReference', description: d.reference, ...at };
        case 'ProducerProducerDescriptor': return { kind: 'producerProducer', description: describe(d.producer).description ?? '', ...at };
        case 'NonCachingProducerDescriptor': case 'OptionalProducerDescriptor': return describe(d.producer);
        case 'LookupProducerDescriptor': return { kind: 'lookup', description: `${d.type ?? 'Data'}/${d.name ?? ''}`, ...at };
        case 'HashLookupProducerDescriptor': return { kind: 'hashLookup', description: `${d.type ?? 'Data'}/${d.name ?? ''}['${d.key ?? ''}']`, ...at };
        case 'FirstFoundProducerDescriptor': return { kind: 'firstFound', description: (d.producers ?? []).map(p => `${p.type ?? 'Data'}/${p.name ?? ''}`).join(', '), ...at };
        case 'QueryProducerDescriptor': return { kind: 'query', description: `${d.resourceType ?? ''}[?? ${d.query.source}]`, ...at };
        case 'ArrayMultibindProducerDescriptor': return { kind: 'arrayMultibind', ...at };
        case 'HashMultibindProducerDescriptor': return { kind: 'hashMultibind', ...at };
        default: return { kind: 'evaluating', description: (d as { $type: string }).$type };
    }
}
