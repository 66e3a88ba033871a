import type { PuppetValue } from '../values.js';
import type { ProviderContext } from './context.js';

/** A resource's attributes as providers see and return them. */
export type ResourceHash = Record<string, PuppetValue>;

/** One namevar's value, or for composite types an object of namevar values. */
export type Identity = PuppetValue | Record<string, PuppetValue>;

/**
 * A change request: no `should` means delete, `is: null` means get did not find it, no `is`
 * key means the runtime had no cached state (the seed's change-set shape).
 */
export interface ChangeRequest {
    is?: ResourceHash | null;
    should?: ResourceHash;
}

export type Changes = Map<Identity, ChangeRequest>;

export { ForeignValue } from '../inspect.js';

/** `insync?` answers: undefined/null = default comparison, a boolean, or [false, message]. */
export type InsyncResult = boolean | null | undefined | readonly [boolean | null, string?];

export interface ResourceApiProvider {
    get(context: ProviderContext, names?: Identity[]): ResourceHash[];
    set(context: ProviderContext, changes: Changes, options?: { noop: boolean }): void;
    canonicalize?(context: ProviderContext, resources: ResourceHash[]): ResourceHash[];
    insync?(context: ProviderContext, name: Identity, propertyName: string, isHash: ResourceHash, shouldHash: ResourceHash): unknown;
    /** custom_generate: resources to add to the catalog, as `{type, title, parameters}`. */
    generate?(context: ProviderContext, title: string, isHash: ResourceHash, shouldHash: ResourceHash): GeneratedResource[];
}

export interface GeneratedResource {
    readonly type: string;
    readonly title: string;
    readonly parameters?: Record<string, PuppetValue>;
}

/** Creates a provider instance; called once per type per run, as late as possible. */
export type ProviderFactory = () => ResourceApiProvider;

/**
 * The gem's SimpleProvider: `set` dispatches each change to create/update/delete inside the
 * context's logging blocks, so errors fail one resource and are logged with timing.
 */
export abstract class SimpleProvider implements ResourceApiProvider {
    abstract get(context: ProviderContext, names?: Identity[]): ResourceHash[];

    set(context: ProviderContext, changes: Changes): void {
        for (const [name, change] of changes) {
            const is = 'is' in change ? change.is ?? null : this.lookup(context, name);
            if (!context.type.isEnsurable()) throw new Error('SimpleProvider cannot be used with a Type that is not ensurable');
            const should = change.should;
            const isEnsure = is === null ? 'absent' : String(is.ensure);
            const shouldEnsure = should === undefined ? 'absent' : String(should.ensure);
            const nameArg = this.nameArgument(context, name, should);
            if (isEnsure === 'absent' && shouldEnsure === 'present' && should) {
                context.creating(name, () => this.create(context, nameArg, should));
            } else if (isEnsure === 'present' && shouldEnsure === 'absent') {
                context.deleting(name, () => this.delete(context, nameArg));
            } else if (isEnsure === 'present' && should) {
                context.updating(name, () => this.update(context, nameArg, should));
            }
        }
    }

    create(_context: ProviderContext, _name: Identity, _should: ResourceHash): void {
        throw new Error(`${this.constructor.name} has not implemented \`create\``);
    }

    update(_context: ProviderContext, _name: Identity, _should: ResourceHash): void {
        throw new Error(`${this.constructor.name} has not implemented \`update\``);
    }

    delete(_context: ProviderContext, _name: Identity): void {
        throw new Error(`${this.constructor.name} has not implemented \`delete\``);
    }

    /**
     * Finds `is` itself when the runtime gave none. The gem crashes (check_schema(nil)) when get
     * does not return the resource; here that simply means "absent".
     */
    private lookup(context: ProviderContext, name: Identity): ResourceHash | null {
        const list = context.type.hasFeature('simple_get_filter') ? this.get(context, [name]) : this.get(context);
        const nvs = context.type.namevars();
        return list.find(r => sameIdentity(identityOf(r, nvs), name)) ?? null;
    }

    /** One namevar: its value; several: an object built from `should`'s namevar values, as the gem does. */
    private nameArgument(context: ProviderContext, name: Identity, should: ResourceHash | undefined): Identity {
        const nvs = context.type.namevars();
        if (nvs.length <= 1 || !should) return name;
        return Object.fromEntries(nvs.map(n => [n, should[n] ?? null]));
    }
}

export function identityOf(r: ResourceHash, namevarNames: readonly string[]): Identity {
    if (namevarNames.length === 1) return r[namevarNames[0]] ?? null;
    return Object.fromEntries(namevarNames.map(n => [n, r[n] ?? null]));
}

/** Composite identities compare by namevar values, whatever the key order (the gem's MonkeyHash). */
export function sameIdentity(a: Identity, b: Identity): boolean {
    if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
        const ka = Object.keys(a);
        return ka.length === Object.keys(b).length && ka.every(k => String((a as Record<string, unknown>)[k]) === String((b as Record<string, unknown>)[k]));
    }
    return a === b || String(a) === String(b);
}
