import type { LayeredBindings } from '../../generated/model/bindings.js';
import type { PuppetValue } from '../model/index.js';
import type { Categorization } from './categorization.js';
import { Collector, type Collection, type PendingParameters } from './collect.js';
import { diagnostic, type InjectorDiagnostic } from './diagnostics.js';
import type { Candidate, Entry, Unused } from './entries.js';
import { PRODUCERS, type KeyFactory } from './keys.js';
import { resolveEntry } from './resolve.js';
import type { ResourceTypeInfo } from './spi.js';
import type { TypeService } from './types/type-service.js';
import { BindingsChecker } from './checks.js';

/** The effective bindings of one request: every key's entry, the multibind fragments, the issues. */
export interface BinderResult {
    readonly layers: readonly string[];
    readonly categorization: Categorization;
    readonly entries: ReadonlyMap<string, Entry>;
    /** Entries of `Data/<name>` keys by name: the fast path of `lookup(name)`. */
    readonly dataEntries: ReadonlyMap<string, Entry>;
    readonly fragments: ReadonlyMap<string, readonly Candidate[]>;
    /** Bindings that did not apply to this request (not matching `when`, excluded), by key. */
    readonly unused: ReadonlyMap<string, readonly Unused[]>;
    readonly issues: readonly InjectorDiagnostic[];
}

/**
 * Builds the effective bindings (binder define_layers): collect candidates, resolve the parameter
 * maps first (ARM-8: "maps are processed first"), expand the parameter bindings that need them,
 * resolve every key, then the cross-key checks (aliases, renames, multibind ids, producers).
 */
export class Binder {
    constructor(private readonly keys: KeyFactory, private readonly types: TypeService, private readonly typeInfo: ResourceTypeInfo) {}

    /** `topScope`: the request's top-scope variables (facts...), which satisfy abstract variable bindings. */
    bind(layered: LayeredBindings, categorization: Categorization, topScope: ReadonlyMap<string, PuppetValue> = new Map()): BinderResult {
        const collector = new Collector(this.keys, this.types, categorization);
        const collection = collector.collect(layered);
        const issues: InjectorDiagnostic[] = [...categorization.issues, ...collection.issues];
        const entries = new Map<string, Entry>();
        const resolve = (key: string, list: Candidate[]): void => {
            const first = list[0];
            entries.set(key, resolveEntry(key, key.startsWith('/') ? (first.declaredType ?? 'Data') : this.keys.effectiveType(first.declaredType), first.name, list, issues));
        };
        for (const [key, list] of collection.candidates) if (key.startsWith('/map/')) resolve(key, list);
        this.expandParameters(collector, collection.pendingParameters, entries, issues);
        for (const [key, list] of collection.candidates) if (!entries.has(key)) resolve(key, list);
        this.satisfyAbstractVariables(entries, topScope, issues);
        this.checkAliases(collection, entries, issues);
        this.checkMultibinds(collection, entries, issues);
        this.checkWinners(entries, collection.fragments, issues);
        const dataEntries = new Map<string, Entry>();
        for (const [key, e] of entries) if (key.startsWith('Data/')) dataEntries.set(key.slice(5), e);
        const layers = (layered.layers ?? []).map(l => l.name);
        return { layers, categorization, entries, dataEntries, fragments: collection.fragments, unused: collection.unused, issues };
    }

    /**
     * ARM-8 abstract variables declare "the requirement that a top scope variable must be set": a
     * top-scope variable of the request (a fact) sets it as a binding would, typed abstract
     * variables checking its type. The entry then produces that value.
     */
    private satisfyAbstractVariables(entries: ReadonlyMap<string, Entry>, topScope: ReadonlyMap<string, PuppetValue>, issues: InjectorDiagnostic[]): void {
        for (const e of entries.values()) {
            const w = e.winner;
            if (!w?.abstract || !e.key.startsWith('/var/') || !topScope.has(w.name)) continue;
            const value = topScope.get(w.name) ?? null;
            const at = issues.findIndex(i => i.code === 'INJECT_ABSTRACT_NOT_OVERRIDDEN' && i.key === e.key);
            if (at >= 0) issues.splice(at, 1);
            for (const t of [w.declaredType ?? 'Any', ...e.constraints]) {
                if (!this.types.isInstance(value, t)) issues.push(diagnostic('error', 'INJECT_VARIABLE_TYPE', { key: e.key, layers: [w.layer], locations: [w.location] }, w.name, t, this.types.infer(value)));
            }
            e.winner = { ...w, bindingKind: 'TopScopeVariable', abstract: false, spec: { kind: 'computed', value }, producer: undefined };
        }
    }

    /** ARM-8 "Binding Parameters using Instance Reference": bind each mapped parameter of the target. */
    private expandParameters(collector: Collector, pending: readonly PendingParameters[], entries: ReadonlyMap<string, Entry>, issues: InjectorDiagnostic[]): void {
        const seen = new Map<string, PendingParameters>();
        for (const p of pending) {
            const site = { layers: [p.base.layer], locations: [p.binding.location] };
            if (p.rhsType !== undefined) {
                const tag = `${p.target.key}|${p.rhsType}|${p.base.layerIndex}|${p.base.alternative.score.join()}`;
                const other = seen.get(tag);
                if (other) {
                    issues.push(diagnostic('error', 'INJECT_PARAMETERS_TYPE_TWICE', { layers: [p.base.layer], locations: [other.binding.location, p.binding.location] }, p.rhsType, p.binding.target, describeProducer(other), describeProducer(p)));
                    continue;
                }
                seen.set(tag, p);
            }
            const map = this.mapFor(p, entries);
            if (!map || map.size === 0) {
                issues.push(diagnostic('error', 'INJECT_MAP_REQUIRED', site, p.binding.target, p.rhsType ?? describeProducer(p)));
                continue;
            }
            const source = { descriptor: p.descriptor, target: p.target.key };
            for (const [targetParam, sourceParam] of map) {
                collector.candidate(p.base, 'ParametersBinding', this.keys.paramKey(p.target.key, targetParam), `${p.target.key}/${targetParam}`, p.binding.type,
                    { kind: 'parameter', source, parameter: sourceParam }, false, undefined);
            }
        }
    }

    /** The binding's own `map =>`, else the effective `bind map LHS to RHS`, else the common parameter names. */
    private mapFor(p: PendingParameters, entries: ReadonlyMap<string, Entry>): ReadonlyMap<string, string> | undefined {
        if (p.binding.map && p.binding.map.length > 0) return new Map(p.binding.map.map(m => [m.targetParameter, m.sourceParameter]));
        if (p.rhsType === undefined) return undefined;
        const winner = entries.get(this.keys.mapKey(p.target.type, p.rhsType))?.winner;
        if (winner?.spec.kind === 'computed' && winner.spec.value instanceof Map) {
            return new Map([...winner.spec.value].filter((kv): kv is [string, string] => typeof kv[0] === 'string' && typeof kv[1] === 'string'));
        }
        const lhs = this.typeInfo.parameterNames(p.target.type);
        const rhs = new Set(this.typeInfo.parameterNames(p.rhsType) ?? []);
        return new Map((lhs ?? []).filter(n => rhs.has(n)).map(n => [n, n]));
    }

    private checkAliases(collection: Collection, entries: Map<string, Entry>, issues: InjectorDiagnostic[]): void {
        for (const c of collection.aliases) {
            if (c.spec.kind !== 'alias') continue;
            const original = entries.get(c.spec.originalKey);
            if (!original?.winner) {
                issues.push(diagnostic('error', 'INJECT_REBIND_MISSING', { key: c.key, layers: [c.layer], locations: [c.location] }, c.spec.originalKey));
            }
        }
        for (const c of collection.renames) {
            if (c.spec.kind !== 'alias') continue;
            const original = entries.get(c.spec.originalKey);
            if (original?.winner) original.erasedBy = c;
        }
    }

    private checkMultibinds(collection: Collection, entries: ReadonlyMap<string, Entry>, issues: InjectorDiagnostic[]): void {
        const owners = new Map<string, Candidate>();
        const own = (c: Candidate): void => {
            if (c.multibindId === undefined) return;
            const other = owners.get(c.multibindId);
            if (other && other.key !== c.key) {
                issues.push(diagnostic('error', 'INJECT_DUPLICATE_MULTIBIND_ID', { layers: [other.layer, c.layer], locations: [other.location, c.location] }, c.multibindId, other.key, c.key));
            } else {
                owners.set(c.multibindId, c);
            }
        };
        for (const e of entries.values()) if (e.winner && !e.erasedBy) own(e.winner);
        for (const list of collection.fragments.values()) for (const f of list) own(f);
        for (const [id, list] of collection.fragments) {
            if (!owners.has(id)) {
                issues.push(diagnostic('warning', 'INJECT_ORPHAN_CONTRIBUTION', { layers: [...new Set(list.map(f => f.layer))], locations: list.map(f => f.location) }, id));
            }
        }
    }

    private checkWinners(entries: ReadonlyMap<string, Entry>, fragments: ReadonlyMap<string, readonly Candidate[]>, issues: InjectorDiagnostic[]): void {
        const checker = new BindingsChecker(this.types, issues);
        for (const e of entries.values()) {
            if (!e.winner) continue;
            checker.check(e.winner, e.constraints);
            this.checkRegisteredProducer(e.winner, entries, fragments, issues);
        }
        for (const list of fragments.values()) for (const f of list) checker.check(f, []);
    }

    /**
     * ARM-8 "typesafe binding (type problem detected when creating injector)": `bind String, 'x' to
     * producer 'p'` where `p` is registered as a `Type[Producer[T]]` needs T to be a String.
     */
    private checkRegisteredProducer(c: Candidate, entries: ReadonlyMap<string, Entry>, fragments: ReadonlyMap<string, readonly Candidate[]>, issues: InjectorDiagnostic[]): void {
        const d = c.spec.kind === 'descriptor' ? c.spec.descriptor : undefined;
        const inner = d?.$type === 'ProducerProducerDescriptor' ? d.producer : undefined;
        if (inner?.$type !== 'LookupProducerDescriptor' || inner.type !== undefined || inner.name === undefined || c.declaredType === undefined) return;
        const name = inner.name;
        const registered = [...entries.entries()].find(([k]) => k.startsWith('Type[') && k.endsWith(`]/${name}`))?.[1].winner ?? fragments.get(PRODUCERS)?.find(f => f.name === name);
        const produces = /^Type\[Producer\[(.+)\]\]$/s.exec(registered?.declaredType ?? '')?.[1];
        if (produces !== undefined && !this.types.isAssignable(c.declaredType, produces)) {
            issues.push(diagnostic('error', 'INJECT_REGISTERED_PRODUCER_TYPE', { key: c.key, layers: [c.layer], locations: [inner.location ?? c.location, registered?.location] }, name, produces, c.declaredType));
        }
    }
}

function describeProducer(p: PendingParameters): string {
    const d = p.descriptor;
    switch (d.$type) {
        case 'InstanceReferenceProducerDescriptor': return d.reference;
        case 'QueryProducerDescriptor': return `${d.resourceType ?? ''}[?? ${d.query.source}]`;
        default: return d.$type;
    }
}
