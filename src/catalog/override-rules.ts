import { strictEquals, type PuppetValue } from '../values/index.js';
import { PuppetFailure, type Where } from './errors.js';
import { CatalogIssues } from './issues.js';
import type { ParamValue } from './resource.js';
import { Scope } from './scope.js';
import { Source } from './code-source.js';

/**
 * Who may override a resource's parameters, as Puppet::Parser::Resource#merge and
 * #override_parameter decide. Puppet keys this by the "source" of the code: the resource type
 * (class, define or node definition) whose body is running, shared by all instances of a define;
 * top-level code is class main's.
 */
export class OverrideRules {
    private readonly sources = new Map<string, Source>();

    /** The source of the code running in `scope` (a lambda's is that of the scope it was written in). */
    sourceOf(scope: Scope): Source {
        let s: Scope = scope;
        while (s.kind === 'local' && s.parent) s = s.parent;
        // Asked for every declaration: the answer is kept on the scope (its kind, class and resource never change).
        if (s.codeSource) return s.codeSource;
        const key = s.kind === 'class' ? `class:${s.className}` : s.kind === 'define' ? `define:${s.className}`
            : s.kind === 'node' ? `node:${s.resource?.title ?? ''}` : 'class:';
        let src = this.sources.get(key);
        if (!src) {
            // A class's parent is the class it inherits (its scope's inherited scope).
            src = new Source(key, s.kind === 'class' && s.inherited ? this.sourceOf(s.inherited) : null);
            this.sources.set(key, src);
        }
        s.codeSource = src;
        return src;
    }

    /**
     * Puppet's merge check: the override must come from the code that declared the resource, or
     * from a subclass of it (or from a collector's code, see Source#override).
     */
    checkMerge(declaring: Scope | null, overriding: Scope, where: Where): void {
        if (!declaring) return;
        const own = this.sourceOf(declaring);
        const src = this.sourceOf(overriding);
        if (src !== own && !src.childOf(own)) {
            throw new OverrideFailure(CatalogIssues.EVAL_OVERRIDE_NOT_SUBCLASS.message() + plainWhere(where), where);
        }
    }

    /**
     * Whether an override of a parameter that is already set is taken: from a subclass of the code
     * that set it, or from the same code when the value it replaces is a resource default. An
     * override whose value is a default of the resource's scope is ignored (`ignore`).
     */
    decide(ref: string, name: string, value: PuppetValue, current: ParamValue, resourceScope: Scope | null, overriding: Scope, where: Where): 'set' | 'ignore' {
        const isDefault = (v: PuppetValue): boolean => resourceScope !== null && isResourceDefault(resourceScope, ref, name, v);
        if (isDefault(value)) return 'ignore';
        const src = this.sourceOf(overriding);
        const setBy = current.source;
        if (setBy === undefined || src.childOf(setBy) || (src === setBy && isDefault(current.value))) return 'set';
        const message = CatalogIssues.EVAL_PARAMETER_ALREADY_SET.message({ name, ref, source: setBy.inspect, previous: current.where });
        throw new OverrideFailure(message + plainWhere(where), where);
    }
}

/**
 * A refused override (Puppet::ParseError with its location). Raised while a define's body runs,
 * Puppet reports it wrapped as a failure of the instance's resource statement.
 */
export class OverrideFailure extends PuppetFailure {
    constructor(message: string, where: Where) {
        super(message, where, 'Puppet::Error', 'Puppet::ParseError');
    }
}

/** Puppet's Scope#is_default?: the value is the resource default for the parameter in the scope or a scope above it. */
function isResourceDefault(scope: Scope, ref: string, name: string, value: PuppetValue): boolean {
    const type = ref.slice(0, ref.indexOf('[')).toLowerCase();
    for (let s: Scope | null = scope; s; s = Scope.defaultsParent(s)) {
        const d = s.ownDefaultsFor(type)?.get(name);
        if (d && strictEquals(d.value, value)) return true;
    }
    return false;
}

/** A location as Puppet::ParseError appends it: file and line, no column. */
function plainWhere(w: Where): string {
    return ` (file: ${w.file}, line: ${w.line})`;
}
