import type { PuppetValue } from '../values/index.js';
import type { CatalogResource } from './resource.js';
import type { Where } from './errors.js';

export type ScopeKind = 'top' | 'node' | 'class' | 'define' | 'local';

/** A resource default attribute (`File { mode => '0644' }`). */
export interface DefaultAttribute {
    readonly value: PuppetValue;
    readonly plus: boolean;
    readonly where: Where;
}

/**
 * A variable scope. `parent` is the dynamic parent (the scope that declared or first included
 * this one; resource defaults follow it), `inherited` the parent class's scope; variables are
 * looked up locally, then in the inherited scope, then in the enclosing scope (the nearest
 * top or node scope above a class or define, the defining scope for a lambda).
 */
export class Scope {
    private readonly vars = new Map<string, PuppetValue>();
    readonly defaults = new Map<string, Map<string, DefaultAttribute>>();
    /** Ephemeral match-variable levels ($0..$n), innermost last. */
    private matches: Array<readonly (string | null)[] | null> = [];
    inherited: Scope | null = null;
    moduleName = '';
    callerModuleName = '';

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
            for (let i = s.matches.length - 1; i >= 0; i--) {
                const m = s.matches[i];
                if (m) return m[n] ?? null;
            }
        }
        return undefined;
    }

    pushMatchLevel(): number {
        this.matches.push(null);
        return this.matches.length - 1;
    }

    popMatchLevel(level: number): void {
        this.matches.length = level;
    }

    setMatch(groups: readonly (string | null)[]): void {
        if (this.matches.length === 0) this.matches.push(groups);
        else this.matches[this.matches.length - 1] = groups;
    }

    /** Resource defaults for a type (lower-case name), nearest scope winning; dynamic scoping via `parent`. */
    defaultsFor(type: string): Map<string, DefaultAttribute> {
        const chain: Scope[] = [];
        for (let s: Scope | null = this; s; s = s.kind === 'local' ? s.parent : s.inherited ?? s.parent) chain.push(s);
        const out = new Map<string, DefaultAttribute>();
        for (const s of chain.reverse()) {
            const d = s.defaults.get(type);
            if (d) for (const [k, v] of d) out.set(k, v);
        }
        return out;
    }
}
