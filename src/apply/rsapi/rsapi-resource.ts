import { DevError, errorMessage, PuppetError, ResourceError } from '../errors.js';
import { ForeignValue, formatParameterValue, rubyInspect } from '../inspect.js';
import { rubyRegexToJs } from '../ruby-regex.js';
import type { DslResourceView } from '../../ruby/index.js';
import type { ApplicableResource, AutoRelationTarget, CatalogMember, CatalogResource, EvaluationOutcome, PropertyChange, ResourceLog } from '../run/harness.js';
import type { LogLevel } from '../log.js';
import { catalogMembers, METAPARAMS, noopOf, noopSetting } from '../run/harness.js';
import { deepCopy, valuesEqual } from '../value-equality.js';
import { PSensitive, type PuppetValue } from '../values.js';
import { CUSTOM_INSYNC_TRIGGER, hasFeature, isEnsurable, namevars, type AttributeDefinition, type TypeDefinition } from './definition.js';
import { checkSchema, displayPlain } from './schema-check.js';
import { capitalizeTypeName, resourceReference } from '../values.js';
import { identityOf, type Identity, type ResourceHash } from './provider.js';
import type { ResourceApiRun } from './rsapi-type.js';

/**
 * One resource of a Resource API type in one run (features.md §8): construction (title patterns,
 * canonicalize, validation, defaults, mandatory attributes), retrieve with the schema and strict
 * checks, property comparison, and flush → set.
 */
export class ResourceApiResource implements ApplicableResource {
    readonly ref: string;
    readonly refreshable = false;
    readonly noop: boolean;
    readonly displayRef?: string;
    readonly deviceOnly: boolean;
    private readonly should: ResourceHash = {};
    private readonly set = new Set<string>();
    private readonly identity: Identity;
    private pendingMandatory: string | undefined;
    private readonly sensitive = new Set<string>();
    /** The title of the Puppet resource the gem makes (the `name` attribute's value when the type has one). */
    readonly ralTitle: string;
    private member: CatalogMember | undefined;
    private canonicalTarget: ResourceHash | undefined;
    /** Whether the current state is the gem's made-up one (get did not return the resource). */
    private madeUp = false;

    constructor(private readonly run: ResourceApiRun, private readonly resource: CatalogResource) {
        this.ref = resource.ref;
        this.noop = noopOf(resource);
        const def = run.definition;
        this.deviceOnly = hasFeature(def, 'remote_resource');
        const typeRef = capitalizeTypeName(def.name);
        const label = `${typeRef}[${resource.title}]`;
        let values = this.initialValues();
        // Without a provider (the compiler side) values are validated as written.
        const canonicalizer = hasFeature(def, 'canonicalize') ? run.providerIfAvailable() : undefined;
        if (canonicalizer?.canonicalize) {
            values = rewrapSensitive(values, canonicalizer.canonicalize(run.context, [deepCopy(values)])[0] ?? values);
        }
        // Puppet sets the given values in its `allattrs` order, then the defaults: the order of
        // the target state (set's hashes, `puppet resource` output).
        const ordered = allattrsOrder(run.type.attributes);
        for (const attr of ordered) {
            const given = values[attr.name];
            if (given === undefined || given === null) continue;
            if (attr.behaviour === 'read_only') {
                // Raised in the parameter's validation, so Puppet names the parameter and the resource.
                throw new ResourceError(`Parameter ${attr.name} failed on ${label}: Attempting to set \`${attr.name}\` read_only attribute value to \`${displayPlain(given)}\``);
            }
            this.assign(attr, given, label);
        }
        for (const attr of ordered) {
            if (this.set.has(attr.name) || attr.behaviour === 'read_only' || attr.default === undefined) continue;
            this.assign(attr, deepCopy(attr.default) as PuppetValue, label);
        }
        this.identity = identityOf(this.should, namevars(def).map(a => a.name));
        // The gem makes its Puppet resource from the attribute hash, whose title is the `name`
        // attribute when the type has one, else a `name` given in the manifest, else the title.
        const hasName = run.type.attributes.some(a => a.name === 'name');
        const ralTitle = hasName ? this.should.name : resource.parameters.get('name');
        this.ralTitle = ralTitle !== undefined && ralTitle !== null ? String(ralTitle) : resource.title;
        if (this.ralTitle !== resource.title) this.displayRef = `${typeRef}[${this.ralTitle}]`;
        run.identities.set(this.ref, this.identity);
        this.checkMandatory(label);
    }

    /**
     * The resource among `catalog.resources` of type code: the gem's Puppet resource, with its
     * title, its namevar as its name (the title when there are several), and its values as
     * `resource[:attr]` reads them. It has no classic provider to hand over.
     */
    catalogMember(): CatalogMember {
        if (this.member) return this.member;
        const keys = namevars(this.run.definition).map(a => a.name);
        const should = this.should;
        const view: DslResourceView = {
            title: this.ralTitle,
            name: keys.length === 1 ? should[keys[0]] ?? this.ralTitle : this.ralTitle,
            get: name => should[name],
            provider: undefined,
            adopt: () => { throw new DevError(`${this.ref} is a Resource API resource: it has no classic provider to replace`); },
            catalog: () => catalogMembers(this.run.env)
        };
        this.member = { typeName: this.run.definition.name, resource: view };
        return this.member;
    }

    /** Title → namevars (first matching title pattern), then explicit parameters win. */
    private initialValues(): ResourceHash {
        const def = this.run.definition;
        const values: ResourceHash = namevarsFromTitle(def, this.resource.title);
        const nvs = namevars(def);
        for (const [k, v] of this.resource.parameters) {
            if (METAPARAMS.has(k)) continue;
            if (!this.run.type.attributes.some(a => a.name === k)) {
                if (k === 'name' && nvs.length === 1) { values[nvs[0].name] = v; continue; }
                throw new PuppetError(`no parameter named '${k}'`);
            }
            values[k] = this.resource.sensitiveParameters.has(k) && !(v instanceof PSensitive) ? new PSensitive(v) : v;
            if (this.resource.sensitiveParameters.has(k) || v instanceof PSensitive) this.sensitive.add(k);
        }
        return values;
    }

    private assign(attr: AttributeDefinition, value: PuppetValue, label: string): void {
        const type = this.run.type.typeOf(attr);
        // Only `puppet resource`-style CLI input is converted from strings; a catalog's 'true' stays a String.
        const prefix = `${this.run.definition.name}.${attr.name}`;
        const v = this.run.env.cli === true ? this.run.ts.mungeCliValue(prefix, type, value) : value;
        if (!this.run.ts.isInstance(type, v)) {
            const checked = this.run.env.cli === true ? this.run.ts.cliCheckedType(type, v) : type;
            throw new ResourceError(`Parameter ${attr.name} failed on ${label}: ${this.run.ts.describeMismatch(prefix, checked, v)}`);
        }
        this.should[attr.name] = v;
        this.set.add(attr.name);
    }

    /** Missing parameters fail now; missing properties only when the resource is to be present (features.md §8.1). */
    private checkMandatory(label: string): void {
        const ensureAbsent = this.should.ensure === 'absent';
        const missingParams: string[] = [];
        const missingProps: string[] = [];
        for (const attr of this.run.type.attributes) {
            if (attr.behaviour === 'namevar' || attr.behaviour === 'read_only' || this.set.has(attr.name)) continue;
            // The gem's rule: only a type written Optional[...] may be left out.
            if (this.run.ts.isOptional(this.run.type.typeOf(attr))) continue;
            if (attr.behaviour === 'parameter') missingParams.push(attr.name);
            else if (attr.name !== 'ensure' && !ensureAbsent) missingProps.push(attr.name);
        }
        if (missingParams.length > 0) {
            throw new ResourceError(`Validation of ${label} failed: The following mandatory parameters were not provided:\n    *  ${missingParams.join(', \n    *  ')}`);
        }
        if (missingProps.length > 0) {
            this.pendingMandatory = `The following mandatory attributes were not provided:\n    *  ${missingProps.join(', \n    *  ')}`;
        }
    }

    autoRelations(): AutoRelationTarget[] {
        return this.run.definition.autoRelations.map(rel => {
            const titles: string[] = [];
            for (const v of rel.values) {
                const ref = typeof v === 'string' ? /^\$(.*)$/s.exec(v) : null;
                const resolved = ref ? this.should[ref[1]] : v;
                for (const x of flatten(resolved)) {
                    if (x !== null && x !== undefined) titles.push(String(x));
                }
            }
            return { kind: rel.kind, type: rel.type, titles };
        });
    }

    /** custom_generate (features.md §9.6): the provider's resources join the catalog. */
    generate(): CatalogResource[] {
        if (!hasFeature(this.run.definition, 'custom_generate')) return [];
        const provider = this.run.provider;
        if (!provider.generate) throw new DevError('No generate method found within the types provider');
        const current = this.run.currentState(this.identity) ?? { title: this.resource.title };
        return provider.generate(this.run.context, this.resource.title, current, this.target()).map(g => {
            const type = g.type.toLowerCase();
            return {
                type, title: g.title, ref: resourceReference(type, g.title),
                parameters: new Map(Object.entries(g.parameters ?? {})), sensitiveParameters: new Set<string>(), tags: [...this.resource.tags],
                ...(this.resource.file !== undefined ? { file: this.resource.file } : {}), ...(this.resource.line !== undefined ? { line: this.resource.line } : {})
            };
        });
    }

    evaluate(log: ResourceLog): EvaluationOutcome {
        const def = this.run.definition;
        const current = this.retrieve(log);
        if (this.pendingMandatory !== undefined && this.set.has('ensure') && this.should.ensure !== 'absent') {
            throw new ResourceError(this.pendingMandatory);
        }
        const absent = current.ensure === 'absent';
        if (isEnsurable(def) && !this.set.has('ensure') && absent) {
            log.log('debug', "Nothing to manage: no ensure and the resource doesn't exist");
            return { changes: [], action: 'unchanged' };
        }
        const noop = noopSetting(this.resource) ?? this.run.env.noop;
        const changes = this.compare(current, noop, log);
        if (changes.length === 0) return { changes, action: 'unchanged' };
        // Puppet reports each property change before flush calls set (the provider's logs follow).
        for (const c of changes) log.change?.(c);
        if (changes.some(c => c.status === 'failure')) return { changes, action: 'failed', providerUsed: def.name };
        // Puppet flushes only a resource that is not in noop: even a supports_noop provider's set
        // is not called by a noop run (the gem would pass it noop: false).
        if (!noop) this.flush(current, log, false);
        const ensureChange = changes.find(c => c.property === 'ensure');
        const action = noop ? 'noop' : ensureChange ? (ensureChange.desired === 'absent' ? 'deleted' : 'created') : 'updated';
        return { changes, action, providerUsed: def.name };
    }

    private retrieve(log: ResourceLog): ResourceHash {
        const def = this.run.definition;
        const found = this.run.currentState(this.identity);
        let state: ResourceHash;
        let shown: Record<string, unknown>;
        if (found) {
            checkSchema(this.run, found);
            this.strictCheck(found);
            state = found;
            shown = found;
        } else {
            // The synthetic absent state is not written into the get cache (the gem's defect 4).
            state = typeof this.identity === 'object' && this.identity !== null && !Array.isArray(this.identity) && !(this.identity instanceof Map) && !(this.identity instanceof PSensitive)
                ? { ...(this.identity as Record<string, PuppetValue>) } : { title: this.identity as PuppetValue };
            shown = { ...state };
            this.madeUp = true;
            if (isEnsurable(def)) {
                state.ensure = 'absent';
                // The gem marks the made-up state with the symbol :absent, which its debug line shows.
                shown.ensure = new ForeignValue('Symbol', ':absent');
            }
        }
        // The gem logs the states with Puppet.debug, not through the resource: no source.
        this.plainLog('debug', `Current State: ${rubyInspect(shown)}`);
        return state;
    }

    private plainLog(level: LogLevel, message: string): void {
        this.run.env.log({ level, message, time: new Date() });
    }

    private strictCheck(found: ResourceHash): void {
        strictCheck(this.run, found, this.resource.title, this.identity);
    }

    /** Per property: ensure first; when ensure changes nothing else is compared (Puppet's harness). */
    private compare(current: ResourceHash, noop: boolean, log: ResourceLog): PropertyChange[] {
        const def = this.run.definition;
        const customInsync = hasFeature(def, 'custom_insync');
        const typeName = def.name;
        const props = this.run.type.attributes.filter(a => a.behaviour === undefined || a.behaviour === 'init_only');
        const status = noop ? 'noop' : 'success';
        const ensureAttr = props.find(a => a.name === 'ensure');
        if (ensureAttr && this.set.has('ensure')) {
            const isEnsure = String(current.ensure ?? 'absent');
            const shouldEnsure = String(this.should.ensure);
            let custom: { inSync: boolean; message?: string } | undefined;
            try {
                custom = customInsync ? this.customInsync('ensure', current) : undefined;
            } catch (e) {
                // Ensure's values are symbols to Puppet: both sides print quoted.
                return [this.insyncFailure('ensure', e, `'${isEnsure}'`, `'${shouldEnsure}'`, false, log)];
            }
            const inSync = custom ? custom.inSync : isEnsure === shouldEnsure;
            if (!inSync) {
                // The gem's ensure is a plain Puppet::Property (not Property::Ensure): Property#change_to_s's texts.
                const message = custom?.message ?? (isEnsure === 'absent' ? `defined 'ensure' as '${shouldEnsure}'` : shouldEnsure === 'absent' ? `undefined 'ensure' from '${isEnsure}'` : `ensure changed '${isEnsure}' to '${shouldEnsure}'`);
                const event = isEnsure === 'absent' ? `${typeName}_created` : shouldEnsure === 'absent' ? `${typeName}_removed` : `${typeName}_changed`;
                return [{ property: 'ensure', previous: isEnsure, desired: shouldEnsure, message, event, status, sensitive: false, isText: `'${isEnsure}'`, shouldText: `'${shouldEnsure}'` }];
            }
            // In sync and absent (ensure => absent on an absent resource): nothing else is managed (Puppet's harness).
            if (isEnsure === 'absent') {
                log.log('debug', "Nothing to manage: no ensure and the resource doesn't exist");
                return [];
            }
        }
        const changes: PropertyChange[] = [];
        for (const prop of props) {
            if (prop.name === 'ensure') {
                // Puppet's harness walks every property after an in-sync ensure, ensure again included:
                // a custom insync? is asked about ensure a second time (its answer stands).
                if (customInsync && this.set.has('ensure')) {
                    try {
                        this.customInsync('ensure', current);
                    } catch (e) {
                        changes.push(this.insyncFailure('ensure', e, `'${String(current.ensure)}'`, `'${String(this.should.ensure)}'`, false, log));
                    }
                }
                continue;
            }
            if (!this.set.has(prop.name)) continue;
            const is = current[prop.name];
            const should = this.should[prop.name];
            // Secrets stay out of reports; the messages show what the gem's values print (Sensitive objects redact themselves).
            const sensitive = this.sensitive.has(prop.name) || should instanceof PSensitive || is instanceof PSensitive;
            const isText = displayValue(is, false);
            const shouldText = displayValue(should);
            let custom: { inSync: boolean; message?: string } | undefined;
            try {
                custom = customInsync ? this.customInsync(prop.name, current) : undefined;
            } catch (e) {
                changes.push(this.insyncFailure(prop.name, e, isText, shouldText, sensitive, log, is, should));
                continue;
            }
            const inSync = custom ? custom.inSync : valuesEqual(is ?? null, should) || (typeof is === 'string' && typeof should !== 'string' && is === displayPlain(should));
            if (inSync) continue;
            const message = custom?.message ?? (prop.name === CUSTOM_INSYNC_TRIGGER ? 'Custom insync logic determined that this resource is out of sync' : `${prop.name} changed ${isText} to ${shouldText}`);
            const change: PropertyChange = { property: prop.name, previous: sensitive ? '[redacted]' : is ?? undefined, desired: sensitive ? '[redacted]' : should, message, event: `${prop.name}_changed`, status, sensitive, isText, shouldText };
            changes.push(change);
            // Puppet's harness syncs (and reports) each property before it compares the next: what a
            // custom insync? logs for the next property comes after this change's notice.
            if (customInsync) log.change?.(change);
        }
        return changes;
    }

    /**
     * An insync? that raised (a provider error, or the gem's DevError for a missing insync? or a
     * non-boolean answer): Puppet's harness logs the exception, then records the property's change
     * as failed with "change from IS to SHOULD failed: ..." and goes on with the next property.
     */
    private insyncFailure(property: string, e: unknown, isText: string, shouldText: string, sensitive: boolean, log: ResourceLog, is?: PuppetValue, should?: PuppetValue): PropertyChange {
        const cause = e instanceof InsyncFailure ? e.cause : e;
        this.plainLog('err', errorMessage(cause));
        const message = `change from ${isText} to ${shouldText} failed: ${errorMessage(cause)}`;
        log.log('err', message, property);
        return { property, previous: sensitive ? '[redacted]' : is ?? undefined, desired: sensitive ? '[redacted]' : should, message, event: `${property}_changed`, status: 'failure', sensitive };
    }

    private customInsync(property: string, current: ResourceHash): { inSync: boolean; message?: string } | undefined {
        const provider = this.run.provider;
        if (!provider.insync) {
            throw new DevError('No insync? method defined in the provider; an insync? method must be defined if the custom_insync feature is defined for the type');
        }
        let result: unknown;
        try {
            result = provider.insync(this.run.context, this.identity, property, this.providerState(current), this.target());
        } catch (e) {
            throw new InsyncFailure(e);
        }
        const [value, message] = Array.isArray(result) ? [result[0] as unknown, result[1] as unknown] : [result, undefined];
        if (value === null || value === undefined) return undefined;
        if (typeof value !== 'boolean') {
            const cls = value instanceof ForeignValue ? value.className : rubyClass(value);
            throw new DevError(`Custom insync for ${property} returned a ${cls} with a value of ${rubyInspect(value, false)} instead of true/false; insync? MUST return nil or the boolean true or false`);
        }
        return { inSync: value, ...(typeof message === 'string' && message !== '' && !value ? { message } : {}) };
    }

    /** The current state as the provider is given it: a made-up absent state has the gem's symbol, `ensure: :absent`. */
    private providerState(current: ResourceHash): ResourceHash {
        if (!this.madeUp || current.ensure !== 'absent') return current;
        return { ...current, ensure: new ForeignValue('Symbol', ':absent') as unknown as PuppetValue };
    }

    /**
     * Every defined attribute (defaults included), canonicalized when the type asks for it: once
     * per resource, as the gem's memoized rsapi_canonicalized_target_state (insync? of each
     * property, generate and set all see that one answer).
     */
    private target(): ResourceHash {
        this.canonicalTarget ??= this.computeTarget();
        return this.canonicalTarget;
    }

    private computeTarget(): ResourceHash {
        const out: ResourceHash = {};
        for (const name of Object.keys(this.should)) {
            if (name !== CUSTOM_INSYNC_TRIGGER) out[name] = this.should[name];
        }
        if (hasFeature(this.run.definition, 'canonicalize') && this.run.provider.canonicalize) {
            return rewrapSensitive(out, this.run.provider.canonicalize(this.run.context, [deepCopy(out)])[0]);
        }
        return out;
    }

    private flush(current: ResourceHash, log: ResourceLog, noop: boolean): void {
        const def = this.run.definition;
        const target = this.target();
        if (valuesEqual(current, target)) return;
        this.plainLog('debug', `Target State: ${rubyInspect(target)}`);
        if (this.run.env.strict !== 'off' && current.ensure === 'present' && target.ensure === 'present') {
            // Only the attributes the target state holds are checked: an init_only attribute the manifest leaves out is not changed.
            for (const [name, value] of Object.entries(target)) {
                const attr = def.attributes.find(a => a.name === name);
                if (attr?.behaviour !== 'init_only' || valuesEqual(value ?? null, current[name] ?? null)) continue;
                this.run.strictReport(`Attempting to change \`${name}\` init_only attribute value from \`${displayPlain(current[name])}\` to \`${displayPlain(value)}\``, 'resource');
            }
        }
        const changes = new Map([[this.identity, { is: this.providerState(current), should: target }]]);
        if (hasFeature(def, 'supports_noop')) this.run.provider.set(this.run.context, changes, { noop });
        else this.run.provider.set(this.run.context, changes);
        if (this.run.context.isFailed()) {
            this.run.context.resetFailed();
            throw new PuppetError('Execution encountered an error');
        }
        if (!noop) this.run.remember(target);
    }
}

/** An exception the provider's insync? raised (not a bad answer of it, which is a DevError of the resource). */
class InsyncFailure extends Error {
    constructor(override readonly cause: unknown) {
        super(errorMessage(cause));
    }
}

/**
 * Property#is_to_s / should_to_s of a Resource API property: Parameter.format_value_for_display of
 * the value, where a current value get did not return is nil (empty text, not 'absent') and a
 * desired Boolean is the :true/:false symbol the gem declares (PUP-2368), shown quoted.
 */
function displayValue(v: PuppetValue | undefined, desired = true): string {
    if (desired && typeof v === 'boolean') return `'${v}'`;
    return formatParameterValue(v);
}

/** A canonicalize that unwraps a secret must not leak it (the gem's open PR #390): wrap it again. */
function rewrapSensitive(original: ResourceHash, canonical: ResourceHash): ResourceHash {
    const out = { ...canonical };
    for (const [k, v] of Object.entries(original)) {
        if (v instanceof PSensitive && out[k] !== undefined && !(out[k] instanceof PSensitive)) out[k] = new PSensitive(out[k]);
    }
    return out;
}

/** The namevar values a title gives (the first matching title pattern, else the title is the one namevar). */
export function namevarsFromTitle(def: TypeDefinition, title: string): ResourceHash {
    const values: ResourceHash = {};
    const patterns = def.titlePatterns ?? [];
    if (patterns.length > 0) {
        const match = patterns.map(p => rubyRegexToJs(p.pattern).exec(title)).find(m => m !== null);
        if (!match) throw new PuppetError(`No set of title patterns matched the title "${title}".`);
        for (const [k, v] of Object.entries(match.groups ?? {})) if (v !== undefined) values[k] = v;
    } else {
        const first = namevars(def)[0];
        if (first) values[first.name] = title;
    }
    return values;
}

/** Puppet's `allattrs`: key attributes, then properties (ensure first), then the other parameters. */
function allattrsOrder(attrs: readonly AttributeDefinition[]): AttributeDefinition[] {
    const isProperty = (a: AttributeDefinition): boolean => a.behaviour === undefined || a.behaviour === 'init_only';
    return [
        ...attrs.filter(a => a.behaviour === 'namevar'),
        ...attrs.filter(a => a.name === 'ensure' && isProperty(a)),
        ...attrs.filter(a => a.name !== 'ensure' && isProperty(a)),
        ...attrs.filter(a => a.behaviour === 'parameter' || a.behaviour === 'read_only')
    ];
}

function flatten(v: unknown): unknown[] {
    return Array.isArray(v) ? v.flatMap(flatten) : [v];
}

function rubyClass(v: unknown): string {
    if (typeof v === 'string') return 'String';
    if (typeof v === 'number' || typeof v === 'bigint') return 'Integer';
    if (Array.isArray(v)) return 'Array';
    return 'Hash';
}

/**
 * The gem's strict_check of a state get returned for the resource titled `title`: canonicalize
 * must not change it, and with several namevars its title must give back its namevars; each
 * problem by the strict setting (a DevError, a warning, or nothing).
 */
export function strictCheck(run: ResourceApiRun, found: ResourceHash, title: string, identity: Identity): void {
    const def = run.definition;
    if (run.env.strict === 'off') return;
    const label = `${def.name}[${title}]`;
    if (hasFeature(def, 'canonicalize') && run.provider.canonicalize) {
        const canon = run.provider.canonicalize(run.context, [deepCopy(found)])[0];
        if (!valuesEqual(canon, found)) {
            run.strictReport(`${label}#get has not provided canonicalized values.\nReturned values:       ${rubyInspect(found)}\nCanonicalized values:  ${rubyInspect(canon)}`);
        }
    }
    const nvs = namevars(def);
    if (nvs.length > 1 && (def.titlePatterns ?? []).length > 0) {
        if (found.title === undefined) {
            run.strictReport(`${label}#get has not provided a title attribute.`);
            return;
        }
        const returned = String(found.title);
        const match = (def.titlePatterns ?? []).map(p => rubyRegexToJs(p.pattern).exec(returned)).find(m => m !== null);
        const parsed: Record<string, PuppetValue> = { ...(match?.groups ?? {}) };
        const expected = identity as Record<string, PuppetValue>;
        const same = (a: PuppetValue | undefined, b: PuppetValue | undefined): boolean => (a ?? null) === null ? (b ?? null) === null : (b ?? null) !== null && String(a) === String(b);
        const differing = nvs.map(n => n.name).filter(n => !same(parsed[n], expected[n]));
        if (differing.length > 0) {
            run.strictReport(`${label}#get has provided a title attribute which does not match all namevars.\nNamevars which do not match: ${`[${differing.map(d => `:${d}`).join(', ')}]`}\nReturned parsed title hash:  ${rubyInspect(parsed)}\nExpected hash:               ${rubyInspect(expected)}`);
        }
    }
}
