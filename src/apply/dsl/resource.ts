import { raisedAs } from '../../ruby/index.js';
import { DevError, NotApplied, PuppetError, ResourceError, errorMessage, isValueError } from '../errors.js';
import type {
    ApplicableResource, AutoRelationTarget, CatalogMember, CatalogResource, EvaluationOutcome, PropertyChange, ResourceLog, RunEnvironment
} from '../run/harness.js';
import { catalogMembers, METAPARAMS } from '../run/harness.js';
import { valuesEqual } from '../value-equality.js';
import { PSensitive, resourceReference } from '../values.js';
import { displayDsl, type AttributeContext, type AttributeSpec } from './attribute.js';
import type { ClassicProvider, ClassicType, ProviderSpec } from './type.js';
import { ABSENT, PRESENT, inspectValue, toS, type DslValue } from './values.js';

/**
 * One instance of a classic type: the value pipeline of `resource[:attr] = value` (validate then
 * munge, per element for properties, Puppet's error wrapping), defaults, type-level validation,
 * and the resource harness (ensure first, per-property insync and sync, flush, events).
 */
export class ClassicResource implements ApplicableResource {
    readonly ref: string;
    readonly noop: boolean;
    /** Parameter values, and property `should` arrays. */
    private readonly params = new Map<string, DslValue>();
    private readonly shoulds = new Map<string, DslValue[]>();
    private providerInstance: ClassicProvider | undefined;
    readonly providerSpec: ProviderSpec | undefined;
    private readonly sensitiveNames = new Set<string>();
    /** Metaparameter values (loglevel, tag, ...): not attributes of the type. */
    readonly metaparams = new Map<string, DslValue>();
    private readonly noopParameter: boolean | undefined;

    constructor(readonly type: ClassicType, readonly title: string, readonly env: RunEnvironment | undefined,
                options: { provider?: string; noop?: boolean; sensitive?: ReadonlySet<string> } = {}) {
        this.ref = resourceReference(type.name, title);
        this.noop = options.noop ?? false;
        this.noopParameter = options.noop;
        for (const s of options.sensitive ?? []) this.sensitiveNames.add(s);
        const wanted = options.provider;
        this.providerSpec = wanted !== undefined ? type.providers.find(p => p.name === wanted) : type.defaultProvider(env?.log);
        if (wanted !== undefined && !this.providerSpec) {
            throw new ResourceError(`Parameter provider failed on ${this.ref}: Invalid value ${JSON.stringify(wanted)}. Valid values are ${type.providers.map(p => p.name).join(', ')}.`);
        }
    }

    /** Builds an instance the way Puppet's Type#initialize does: title patterns, values in allattrs order, defaults, validate. */
    static create(type: ClassicType, attrs: Record<string, DslValue> & { title?: string }, env?: RunEnvironment, sensitive?: ReadonlySet<string>,
                  provider?: ClassicProvider): ClassicResource {
        const keys = type.keyAttributes();
        const given = { ...attrs };
        if ('name' in given && keys.length === 1 && keys[0] !== 'name') {
            given[keys[0]] = given.name;
            delete given.name;
        }
        const title = String(given.title ?? (keys.length >= 1 ? given[keys[0]] : '') ?? '');
        delete given.title;
        const providerName = given.provider === undefined ? (provider ? provider.name : undefined) : toS(given.provider);
        const noop = given.noop === true || given.noop === 'true' ? true : given.noop === false || given.noop === 'false' ? false : undefined;
        const r = new ClassicResource(type, title, env, { ...(providerName !== undefined ? { provider: providerName } : {}), noop, ...(sensitive ? { sensitive } : {}) });
        // An instance listed by its provider keeps that provider object (its state: Puppet's property_hash).
        if (provider) r.providerInstance = provider;
        // Title-derived values merge under the explicit ones.
        const fromTitle: Record<string, DslValue> = {};
        const patterns = keys.length > 0 ? type.titlePatterns() : [];
        if (patterns.length > 0) {
            const hit = patterns.map(([re, fields]) => ({ m: re.exec(title), fields })).find(x => x.m !== null);
            if (!hit || !hit.m) throw new PuppetError(`No set of title patterns matched the title "${title}".`);
            hit.fields.forEach(([name, proc], i) => {
                const v = hit.m?.[i + 1];
                if (v !== undefined) fromTitle[name] = proc ? proc(v) : v;
            });
        }
        const values = { ...fromTitle, ...given };
        for (const k of Object.keys(values)) {
            if (!type.attr(k) && !METAPARAMS.has(k) && k !== 'provider') throw new PuppetError(`no parameter named '${k}'`);
        }
        for (const [k, v] of Object.entries(values)) {
            if (METAPARAMS.has(k) && !type.attr(k)) r.metaparams.set(k, v);
        }
        for (const spec of type.allAttributes()) {
            if (spec.name in values && values[spec.name] !== undefined) r.set(spec.name, values[spec.name]);
        }
        for (const spec of type.allAttributes()) {
            if (r.has(spec.name) || !spec.defaultValue) continue;
            const d = 'value' in spec.defaultValue ? spec.defaultValue.value : spec.defaultValue.block(r);
            if (d !== null && d !== undefined) r.set(spec.name, d);
        }
        for (const v of type.validators) {
            try {
                v(r);
            } catch (e) {
                throw new ResourceError(`Validation of ${r.ref} failed: ${errorMessage(e)}`);
            }
        }
        return r;
    }

    static fromCatalog(type: ClassicType, resource: CatalogResource, env: RunEnvironment): ClassicResource {
        const attrs: Record<string, DslValue> = { title: resource.title };
        for (const [k, v] of resource.parameters) attrs[k] = v instanceof PSensitive ? v.value : v;
        let r: ClassicResource;
        try {
            r = ClassicResource.create(type, attrs, env, resource.sensitiveParameters);
        } catch (e) {
            // Puppet's Type#[]= and validate add the resource's place to these errors (adderrorcontext);
            // a resource made from a bare hash, as the Resource API's are, has no place to add.
            if (e instanceof ResourceError && resource.file !== undefined && resource.line !== undefined && /^(?:Parameter \S+ failed on|Validation of) /.test(e.message)) {
                throw new ResourceError(`${e.message} (file: ${resource.file}, line: ${resource.line})`);
            }
            throw e;
        }
        r.file = resource.file;
        r.line = resource.line;
        return r;
    }

    get provider(): ClassicProvider {
        if (!this.providerSpec) throw new DevError(`No providers for type ${this.type.name}`);
        if (!this.env) throw new DevError(`${this.ref} is not part of a run`);
        this.providerInstance ??= this.providerSpec.create(this, this.env);
        return this.providerInstance;
    }

    /** `resource.provider = instance` (a provider's prefetch): the resource is managed through that provider from now on. */
    adopt(provider: ClassicProvider): void {
        this.providerInstance = provider;
    }

    /** The run's resources of Ruby types (classic and Resource API) with their type names: `catalog.resources` of type code. */
    catalog(): CatalogMember[] {
        return catalogMembers(this.env);
    }

    catalogMember(): CatalogMember {
        return { typeName: this.type.name, resource: this };
    }

    /** A log line of the resource (Puppet's `resource.warning(...)` and the other levels). */
    log(level: 'debug' | 'info' | 'notice' | 'warning' | 'err', message: string): void {
        this.env?.log({ level, message, time: new Date(), source: this.path ?? this.ref });
    }

    /** Puppet's Type#name: the namevar's value, the title when the type has several key attributes. */
    get name(): DslValue {
        const keys = this.type.keyAttributes();
        return keys.length === 1 ? this.get(keys[0]) ?? this.title : this.title;
    }

    /** The containment path the transaction gives the resource ("/Stage[main]/Main/Notify[x]"). */
    path: string | undefined;
    /** Where the resource was declared, for messages that cite it. */
    file: string | undefined;
    line: number | undefined;

    has(name: string): boolean {
        return this.params.has(name) || this.shoulds.has(name);
    }

    /** `resource[:name]`: a parameter's value, or a property's should (first value or the array for :all). */
    get(name: string): DslValue {
        const spec = this.resolve(name);
        if (!spec) return undefined;
        if (spec.isProperty) return shouldOf(spec, this.shoulds.get(spec.name));
        return this.params.get(spec.name);
    }

    /** Puppet's uniqueness_key: the key attribute values, ordered by attribute name. */
    uniquenessKey(): DslValue[] {
        return [...this.type.keyAttributes()].sort().map(k => this.get(k));
    }

    /** `resource.<name>?` for `boolean: true` attributes. */
    is(name: string): boolean {
        const v = this.get(name);
        return v === true || v === Symbol.for('true');
    }

    /** True when some property other than ensure has a should (Puppet's `managed?`). */
    isManaged(): boolean {
        return [...this.shoulds.keys()].some(k => k !== 'ensure');
    }

    isSensitive(name: string): boolean {
        return this.sensitiveNames.has(name) || this.resolve(name)?.sensitive === true;
    }

    fail(message: string): never {
        throw new PuppetError(message);
    }

    /** `resource[:attr] = value` (type-dsl.md §3). */
    set(name: string, value: DslValue): void {
        const spec = this.resolve(name);
        if (!spec) throw new PuppetError(`no parameter named '${name}'`);
        if (value === null || value === undefined) throw new PuppetError(`Got nil value for ${spec.name}`);
        if (this.providerSpec && spec.requiredFeatures.length > 0) {
            const missing = spec.requiredFeatures.filter(f => !this.type.providerHasFeature(this.providerSpec as ProviderSpec, f));
            if (missing.length > 0) {
                this.env?.log({ level: 'debug', message: `Provider ${this.providerSpec.name} does not support features ${missing.join(', ')}; not managing attribute ${spec.name}`, time: new Date() });
                return;
            }
        }
        try {
            if (spec.isProperty) {
                const list = Array.isArray(value) && spec.arrayMatching === 'all' ? value : Array.isArray(value) ? value : [value];
                for (const v of list) this.validateValue(spec, v);
                this.shoulds.set(spec.name, list.map(v => this.mungeValue(spec, v)));
            } else {
                this.validateValue(spec, value);
                this.params.set(spec.name, this.mungeValue(spec, value));
            }
        } catch (e) {
            if (e instanceof ResourceError) throw e;
            throw new ResourceError(`Parameter ${spec.name} failed on ${this.ref}: ${errorMessage(e)}`);
        }
    }

    private resolve(name: string): AttributeSpec | undefined {
        const keys = this.type.keyAttributes();
        const n = name === 'name' && keys.length === 1 ? keys[0] : name;
        return this.type.attr(n);
    }

    private validateValue(spec: AttributeSpec, value: DslValue): void {
        try {
            if (spec.hooks.validate) spec.hooks.validate.call(this.context(spec), value);
            else spec.values.validate(value);
        } catch (e) {
            // Puppet's Parameter#validate passes these on as the attribute's own failure.
            if (isValueError(e) || raisedAs(e, ['ArgumentError', 'TypeError', 'Puppet::Error'])) throw e;
            throw new PuppetError(`Validate method failed for class ${spec.name}: ${errorMessage(e)}`);
        }
        if (spec.isProperty && this.providerSpec) {
            const declared = spec.values.match(value);
            const needed = declared?.options.requiredFeatures ?? [];
            const missing = needed.filter(f => !this.type.providerHasFeature(this.providerSpec as ProviderSpec, f));
            if (missing.length > 0) {
                throw new PuppetError(`Provider ${this.providerSpec.name} must have features '${missing.join(', ')}' to set '${spec.name}' to '${toS(value)}'`);
            }
        }
    }

    private mungeValue(spec: AttributeSpec, value: DslValue): DslValue {
        try {
            return spec.hooks.munge ? spec.hooks.munge.call(this.context(spec), value) : spec.values.munge(value);
        } catch (e) {
            if (isValueError(e) || raisedAs(e, ['Puppet::Error'])) throw e;
            throw new PuppetError(`Munging failed for value ${inspectValue(value)} in class ${spec.name}: ${errorMessage(e)}`);
        }
    }

    context(spec: AttributeSpec): AttributeContext {
        const shouldArray = this.shoulds.get(spec.name) ?? [];
        return {
            spec,
            resource: this,
            should: spec.isProperty ? shouldOf(spec, shouldArray.length > 0 ? shouldArray : undefined) : this.params.get(spec.name),
            shouldArray,
            fail: (message: string): never => { throw new PuppetError(message); }
        };
    }

    /** Puppet's `safe_insync?`: no should means in sync; otherwise the property's insync?. */
    insync(spec: AttributeSpec, is: DslValue): boolean {
        const should = this.shoulds.get(spec.name);
        if (!should || should.length === 0) return true;
        const ctx = this.context(spec);
        if (spec.hooks.insync) return spec.hooks.insync.call(ctx, is);
        if (spec.isEnsure) return toS(is) === toS(should[0]);
        if (spec.arrayMatching === 'all') {
            if (!Array.isArray(is) || is.length !== should.length) return false;
            return valuesEqual(is, should) || is.every((x, i) => toS(x) === toS(should[i]));
        }
        return should.some(s => propertyMatches(is, s));
    }

    autoRelations(): AutoRelationTarget[] {
        return this.type.autoRelations.map(rel => {
            const v = rel.fn(this);
            const list = flattenDsl(v).filter(x => x !== null && x !== undefined);
            return { kind: rel.kind, type: rel.type, titles: list.map(x => toS(x)) };
        });
    }

    preRunCheck(): void {
        this.type.preRunCheckFn?.(this);
    }

    /**
     * Puppet's Type#retrieve over the named properties (all of them when none are named): ensure
     * first, and every other property absent when the resource is, without asking the provider.
     */
    retrieveState(names?: readonly string[]): Array<[string, DslValue]> {
        const props = this.type.properties.filter(p => names === undefined || names.includes(p.name) || p.isEnsure);
        const out: Array<[string, DslValue]> = [];
        const ensure = props.find(p => p.isEnsure);
        const ensureState = ensure ? this.retrieveProperty(ensure) : undefined;
        if (ensure) out.push([ensure.name, ensureState]);
        for (const p of props) {
            if (p.isEnsure) continue;
            out.push([p.name, ensureState === ABSENT ? ABSENT : this.retrieveProperty(p)]);
        }
        return out;
    }

    private retrieveProperty(spec: AttributeSpec): DslValue {
        const ctx = this.context(spec);
        if (spec.hooks.retrieve) return spec.hooks.retrieve.call(ctx);
        const provider = this.provider;
        if (provider.get) return provider.get(spec.name);
        return ABSENT;
    }

    private syncProperty(spec: AttributeSpec): string | void {
        const ctx = this.context(spec);
        if (spec.hooks.sync) return spec.hooks.sync.call(ctx);
        const declared = spec.values.match(ctx.shouldArray[0]);
        if (declared?.block) {
            // The block runs as the property (Puppet's newvalue blocks): its resource and should are the context's.
            declared.block.call(ctx, ctx.should);
            return declared.options.event;
        }
        const provider = this.provider;
        if (!provider.set) throw new PuppetError(`The ${provider.name} provider can not handle attribute ${spec.name}`);
        provider.set(spec.name, ctx.should);
        return declared?.options.event;
    }

    /** Puppet's change_to_s: the message logged when a property changes. */
    changeToS(spec: AttributeSpec, is: DslValue, should: DslValue): string {
        const ctx = this.context(spec);
        if (this.isSensitive(spec.name)) return 'changed [redacted] to [redacted]';
        if (spec.hooks.changeToS) return spec.hooks.changeToS.call(ctx, is, should);
        const isS = this.isToS(spec, is);
        const shouldS = this.shouldToS(spec, should);
        if (spec.isEnsure) {
            if (is === ABSENT || toS(is) === 'absent') return 'created';
            if (should === ABSENT || toS(should) === 'absent') return 'removed';
            return `ensure changed ${isS} to ${shouldS}`;
        }
        if (is === ABSENT || is === undefined || is === null) return `defined '${spec.name}' as ${shouldS}`;
        if (should === ABSENT) return `undefined '${spec.name}' from ${isS}`;
        return `${spec.name} changed ${isS} to ${shouldS}`;
    }

    isToS(spec: AttributeSpec, is: DslValue): string {
        if (this.isSensitive(spec.name)) return '[redacted]';
        return spec.hooks.isToS ? spec.hooks.isToS.call(this.context(spec), is) : displayDsl(is);
    }

    shouldToS(spec: AttributeSpec, should: DslValue): string {
        if (this.isSensitive(spec.name)) return '[redacted]';
        return spec.hooks.shouldToS ? spec.hooks.shouldToS.call(this.context(spec), should) : displayDsl(should);
    }

    /** The resource harness (type-dsl.md §3.3): ensure first, then each property, then flush. */
    evaluate(log: ResourceLog): EvaluationOutcome {
        // The resource's own noop, true or false, wins over the run's (Puppet's noop?).
        const noop = this.noopParameter ?? this.env?.noop ?? false;
        const ensure = this.type.properties.find(p => p.isEnsure);
        const changes: PropertyChange[] = [];
        const providerUsed = this.providerSpec?.name;
        const record = (spec: AttributeSpec, is: DslValue, should: DslValue): PropertyChange => {
            const sensitive = this.isSensitive(spec.name);
            return {
                property: spec.name,
                previous: sensitive ? '[redacted]' : plain(is),
                desired: sensitive ? '[redacted]' : plain(should),
                message: this.changeToS(spec, is, should),
                event: spec.isEnsure
                    ? (is === ABSENT || toS(is) === 'absent' ? `${this.type.name}_created` : toS(should) === 'absent' ? `${this.type.name}_removed` : `${this.type.name}_changed`)
                    : `${spec.name}_changed`,
                status: noop ? 'noop' : 'success',
                sensitive,
                isText: this.isToS(spec, is),
                shouldText: this.shouldToS(spec, should)
            };
        };
        let currentEnsure: DslValue;
        if (ensure) {
            currentEnsure = this.retrieveProperty(ensure);
            const should = this.context(ensure).should;
            if (should !== undefined && !this.insync(ensure, currentEnsure)) {
                const change = record(ensure, currentEnsure, should);
                const done = this.applyChange(ensure, change, noop, log);
                log.change?.(done);
                this.flushAfter([done], noop);
                return { changes: [done], action: this.actionFor(done, noop), ...(providerUsed ? { providerUsed } : {}) };
            }
            // Puppet's resource_present?: an absent resource (ensure not given, or already absent as asked) has nothing else to sync.
            if (currentEnsure === ABSENT || toS(currentEnsure) === 'absent') {
                log.log('debug', "Nothing to manage: no ensure and the resource doesn't exist");
                return { changes: [], action: 'unchanged' };
            }
        }
        for (const spec of this.type.properties) {
            if (spec.isEnsure || !this.shoulds.has(spec.name)) continue;
            const is = this.retrieveProperty(spec);
            if (this.insync(spec, is)) continue;
            const change = record(spec, is, this.context(spec).should);
            const done = this.applyChange(spec, change, noop, log);
            log.change?.(done);
            // A property that fails to sync does not stop the others, as in Puppet's harness.
            changes.push(done);
        }
        this.flushAfter(changes, noop);
        const failed = changes.find(c => c.status === 'failure');
        return {
            changes,
            action: failed ? 'failed' : changes.length === 0 ? 'unchanged' : noop || changes.every(c => c.status === 'noop') ? 'noop' : 'updated',
            ...(providerUsed ? { providerUsed } : {})
        };
    }

    /**
     * Puppet's harness flushes the provider once the resource changed (some change succeeded,
     * whether or not another failed, ensure's included) and the run is not noop.
     */
    private flushAfter(changes: readonly PropertyChange[], noop: boolean): void {
        if (noop || !this.providerSpec || !changes.some(c => c.status === 'success')) return;
        this.provider.flush?.();
    }

    /** Syncs one property unless noop; a failure becomes a failed change, as Puppet's harness records it. */
    private applyChange(spec: AttributeSpec, change: PropertyChange, noop: boolean, log: ResourceLog): PropertyChange {
        if (noop) return change;
        try {
            const event = this.syncProperty(spec);
            return typeof event === 'string' && event !== '' && !spec.isEnsure ? { ...change, event } : change;
        } catch (e) {
            if (e instanceof NotApplied) return { ...change, status: 'noop' };
            const from = this.isToS(spec, change.previous);
            const to = this.shouldToS(spec, this.context(spec).should);
            const message = `change from ${from} to ${to} failed: ${errorMessage(e)}`;
            // Puppet logs the exception itself first (log_exception, no source), then the failed change.
            this.env?.log({ level: 'err', message: errorMessage(e), time: new Date() });
            log.log('err', message, spec.name);
            return { ...change, status: 'failure', message };
        }
    }

    private actionFor(change: PropertyChange, noop: boolean): EvaluationOutcome['action'] {
        if (change.status === 'failure') return 'failed';
        if (noop || change.status === 'noop') return 'noop';
        return change.desired === 'absent' ? 'deleted' : 'created';
    }

    refresh(log: ResourceLog): EvaluationOutcome {
        if (!this.type.refreshFn) return { changes: [], action: 'unchanged' };
        try {
            this.type.refreshFn(this);
            return { changes: [], action: 'refreshed' };
        } catch (e) {
            log.log('err', `Failed to call refresh: ${errorMessage(e)}`);
            // Puppet's event manager then logs the exception itself on the resource.
            log.log('err', errorMessage(e));
            return { changes: [], action: 'failed', failure: `Failed to call refresh: ${errorMessage(e)}` };
        }
    }

    get refreshable(): boolean {
        return this.type.refreshFn !== undefined;
    }
}

/** Puppet's `property_matches?`: equal, or the current value equals the desired value's string form. */
export function propertyMatches(current: DslValue, desired: DslValue): boolean {
    if (current === desired || valuesEqual(current, desired)) return true;
    return typeof current === 'string' && current === toS(desired);
}

function flattenDsl(v: unknown): unknown[] {
    return Array.isArray(v) ? v.flatMap(flattenDsl) : [v];
}

function shouldOf(spec: AttributeSpec, list: DslValue[] | undefined): DslValue {
    if (!list) return undefined;
    return spec.arrayMatching === 'all' ? list : list[0];
}

/** Report values are Puppet data: symbols become their names. */
function plain(v: DslValue): import('../values.js').PuppetValue | undefined {
    if (typeof v === 'symbol') return toS(v);
    if (Array.isArray(v)) return v.map(x => plain(x) ?? null);
    if (v === undefined) return undefined;
    return v as import('../values.js').PuppetValue;
}

export { PRESENT };
