import type { PuppetValue } from '../values/index.js';
import type { CatalogResource } from './resource.js';
import type { Where } from './errors.js';
import { ParamTable } from './params.js';
import type { Source } from './code-source.js';

export type ScopeKind = 'top' | 'node' | 'class' | 'define' | 'local';

/** A resource default attribute (`File { mode => '0644' }`). */
export interface DefaultAttribute {
    readonly value: PuppetValue;
    readonly plus: boolean;
    readonly where: Where;
    /** The code that declared the default: a parameter it gives is set by it (who may override it depends on that). */
    readonly source?: Source;
}

/**
 * A variable scope. `parent` is the dynamic parent (the scope that declared or first included
 * this one; resource defaults follow it), `inherited` the parent class's scope; variables are
 * looked up locally, then in the inherited scope, then in the enclosing scope (the nearest
 * top or node scope above a class or define, the defining scope for a lambda).
 */
export class Scope {
    /** Its variables: a lambda call's scope holds one or two, and lives as long as the resources it declared. */
    private readonly vars = new ParamTable<PuppetValue>();
    /**
     * Resource defaults by lower-case type, made on the first default set: most scopes (every
     * lambda call's) never get one, and a resource keeps its scope alive until the catalog is done.
     */
    private ownDefaults: Map<string, Map<string, DefaultAttribute>> | undefined;
    /** Ephemeral match-variable levels ($0..$n), innermost last (made on first use, as above). */
    private matches: Array<readonly (string | null)[] | null> | undefined;
    inherited: Scope | null = null;
    moduleName = '';
    callerModuleName = '';
    /** The override rules' code source of this scope, once asked (see OverrideRules.sourceOf). */
    codeSource: Source | undefined = undefined;

    constructor(readonly kind: ScopeKind, readonly parent: Scope | null, readonly resource: CatalogResource | null, readonly className = '') {}

    /** The scope whose variables this one sees after its own (and its inherited class's). */
    get enclosing(): Scope | null {
        if (this.kind === 'local') return this.parent;
        let p = this.parent;
        while (p && p.kind !== 'top' && p.kind !== 'node') p = p.parent;
        return p;
    }

    hasLocal(name: string): boolean {
        return this.vars.has(name);
    }

    setLocal(name: string, value: PuppetValue): void {
        this.vars.set(name, value);
    }

    getLocal(name: string): PuppetValue | undefined {
        return this.vars.get(name);
    }

    localNames(): IterableIterator<string> {
        return this.vars.keys();
    }

    /**
     * Every variable this scope sees, as Puppet's `to_hash` builds it for an ERB template: the
     * enclosing scopes' first, then the inherited class's, then its own; an undef variable is
     * left out (and hides an outer one of the same name).
     */
    visibleVariables(target = new Map<string, PuppetValue>()): Map<string, PuppetValue> {
        this.enclosing?.visibleVariables(target);
        this.inherited?.visibleVariables(target);
        for (const [k, v] of this.vars) {
            if (v === null) target.delete(k);
            else target.set(k, v);
        }
        return target;
    }

    /** Looks `name` up as Puppet does; undefined when no scope on the way has it. */
    lookup(name: string): PuppetValue | undefined {
        for (let s: Scope | null = this; s; s = s.enclosing) {
            const v = s.vars.get(name);
            if (v !== undefined || s.vars.has(name)) return v;
            for (let i = s.inherited; i; i = i.inherited) {
                const iv = i.vars.get(name);
                if (iv !== undefined || i.vars.has(name)) return iv;
            }
        }
        return undefined;
    }

    /** The match variable `$n` from the innermost match level of this scope or, failing that, its enclosing scopes. */
    matchVar(n: number): PuppetValue | undefined {
        for (let s: Scope | null = this; s; s = s.enclosing) {
            const matches = s.matches;
            for (let i = (matches?.length ?? 0) - 1; i >= 0; i--) {
                const m = matches![i];
                if (m) return m[n] ?? null;
            }
            // A define body runs after the statement declaring it is done: the matches of the scopes around that are gone.
            if (s.kind === 'define') break;
        }
        return undefined;
    }

    pushMatchLevel(): number {
        const matches = this.matches ??= [];
        matches.push(null);
        return matches.length - 1;
    }

    popMatchLevel(level: number): void {
        if (this.matches) this.matches.length = level;
    }

    setMatch(groups: readonly (string | null)[]): void {
        const matches = this.matches ??= [];
        if (matches.length === 0) matches.push(groups);
        else matches[matches.length - 1] = groups;
    }

    /** The resource defaults this scope sets for a type (lower-case name), if any. */
    ownDefaultsFor(type: string): ReadonlyMap<string, DefaultAttribute> | undefined {
        if (this.kind === 'local' && this.parent) return this.parent.ownDefaultsFor(type);
        return this.ownDefaults?.get(type);
    }

    /** Sets a resource default of this scope (`Type { name => value }`). */
    setDefault(type: string, name: string, d: DefaultAttribute): void {
        // A lambda's scope is ephemeral in Puppet: its defaults belong to the enclosing scope.
        if (this.kind === 'local' && this.parent) {
            this.parent.setDefault(type, name, d);
            return;
        }
        const all = this.ownDefaults ??= new Map();
        let forType = all.get(type);
        if (!forType) all.set(type, forType = new Map());
        forType.set(name, d);
    }

    /** The scopes whose defaults reach this one, nearest first (dynamic scoping via `parent`). */
    static defaultsParent(s: Scope): Scope | null {
        return s.kind === 'local' ? s.parent : s.inherited ?? s.parent;
    }

    /** Resource defaults for a type (lower-case name), nearest scope winning; dynamic scoping via `parent`. */
    defaultsFor(type: string): ReadonlyMap<string, DefaultAttribute> {
        // Most declarations see no default at all: find the scopes that have some before building a map.
        let found: Array<ReadonlyMap<string, DefaultAttribute>> | undefined;
        for (let s: Scope | null = this; s; s = Scope.defaultsParent(s)) {
            const d = s.ownDefaults?.get(type);
            if (d) (found ??= []).push(d);
        }
        if (!found) return NO_DEFAULTS;
        if (found.length === 1) return found[0];
        const out = new Map<string, DefaultAttribute>();
        for (let i = found.length - 1; i >= 0; i--) for (const [k, v] of found[i]) out.set(k, v);
        return out;
    }
}

const NO_DEFAULTS: ReadonlyMap<string, DefaultAttribute> = new Map();
