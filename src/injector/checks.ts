import type { ProducerDescriptor } from '../../generated/model/bindings.js';
import { diagnostic, type InjectorDiagnostic } from './diagnostics.js';
import type { Candidate } from './entries.js';
import type { TypeService } from './types/type-service.js';
import { displayValue, toPuppetValue } from './values.js';

/**
 * The creation-time checks of the bindings that are used (binder BindingsChecker, which Ruby
 * only ran on request; ARM-8 wants errors as soon as possible): producers that fit their
 * binding, constants of the declared type, complete descriptors.
 */
export class BindingsChecker {
    constructor(private readonly types: TypeService, private readonly issues: InjectorDiagnostic[]) {}

    check(c: Candidate, constraints: readonly string[]): void {
        const site = { key: c.key, layers: [c.layer], locations: [c.location] };
        if (c.spec.kind === 'none' && !c.abstract) this.issues.push(diagnostic('error', 'INJECT_MISSING_PRODUCER', site, c.key));
        if (c.spec.kind === 'value') {
            const v = toPuppetValue(c.spec.value);
            for (const t of constraints) {
                if (!this.types.isInstance(v, t)) this.issues.push(diagnostic('error', 'INJECT_VARIABLE_TYPE', site, c.name, t, this.types.infer(v)));
            }
        }
        if (c.spec.kind !== 'descriptor') return;
        const d = c.spec.descriptor;
        if (c.bindingKind === 'Multibinding') {
            this.multibind(c, d);
            return;
        }
        if (d.$type === 'ConstantProducerDescriptor' && c.declaredType !== undefined && d.value !== undefined) {
            const v = toPuppetValue(d.value);
            if (!this.types.isInstance(v, c.declaredType)) {
                this.issues.push(diagnostic('error', 'INJECT_CONSTANT_TYPE', site, displayValue(v), c.declaredType, this.types.infer(v)));
            }
        }
        if (d.$type === 'LookupProducerDescriptor' && d.type !== undefined && c.declaredType !== undefined && !this.types.isAssignable(c.declaredType, d.type)) {
            this.issues.push(diagnostic('error', 'INJECT_LOOKUP_PRODUCER_TYPE', site, c.declaredType, d.type));
        }
        this.complete(c, d);
    }

    /** Binder checker MULTIBIND_NOT_COLLECTION_PRODUCER and MULTIBIND_INCOMPATIBLE_TYPE. */
    private multibind(c: Candidate, d: ProducerDescriptor): void {
        const site = { key: c.key, layers: [c.layer], locations: [d.location ?? c.location] };
        if (d.$type !== 'ArrayMultibindProducerDescriptor' && d.$type !== 'HashMultibindProducerDescriptor') {
            this.issues.push(diagnostic('error', 'INJECT_MULTIBIND_NOT_COLLECTION_PRODUCER', site, d.$type));
            return;
        }
        const kind = this.types.collectionOf(c.declaredType ?? 'Hash')?.kind;
        const wanted = d.$type === 'ArrayMultibindProducerDescriptor' ? 'array' : 'hash';
        if (kind !== undefined && kind !== wanted) {
            this.issues.push(diagnostic('error', 'INJECT_MULTIBIND_INCOMPATIBLE_TYPE', site, wanted === 'array' ? 'Array' : 'Hash', c.declaredType ?? ''));
        }
    }

    /** Binder checker MISSING_CLASS_NAME, MISSING_KEY, down nested descriptors. */
    private complete(c: Candidate, d: ProducerDescriptor): void {
        const site = { key: c.key, layers: [c.layer], locations: [d.location ?? c.location] };
        switch (d.$type) {
            case 'InstanceProducerDescriptor':
                if (!d.className) this.issues.push(diagnostic('error', 'INJECT_MISSING_CLASS_NAME', site, c.key));
                return;
            case 'HashLookupProducerDescriptor':
                if (d.key === undefined) this.issues.push(diagnostic('error', 'INJECT_MISSING_KEY', site, c.key));
                return;
            case 'NonCachingProducerDescriptor': case 'OptionalProducerDescriptor': case 'ProducerProducerDescriptor':
                this.complete(c, d.producer);
                return;
            case 'FirstFoundProducerDescriptor':
                for (const p of d.producers ?? []) this.complete(c, p);
                return;
            default:
                return;
        }
    }
}
