import type { NodeError } from './compile-node.js';

/**
 * The review report (`modelc review --format json`): what changed for each node between two
 * revisions, with where every new value came from. Plain JSON, described in docs/review.md.
 */
export interface ReviewReport {
    readonly repository: string;
    readonly environment: string;
    readonly base: RevisionInfo;
    readonly head: RevisionInfo;
    /** The equivalence filters and ignore rules that were applied. */
    readonly filters: readonly string[];
    readonly ignores: readonly string[];
    readonly summary: ReviewSummary;
    /** Every reviewed node, by name. */
    readonly nodes: readonly NodeReport[];
}

export interface RevisionInfo {
    /** The revision as given (or "worktree"). */
    readonly label: string;
    readonly commit?: string;
}

export interface ReviewSummary {
    readonly nodes: number;
    readonly changed: number;
    readonly unchanged: number;
    /** Compiled at base, not at head. */
    readonly failed: number;
    /** Failed at base, compiles at head. */
    readonly fixed: number;
    /** Fails at both. */
    readonly broken: number;
    readonly resourcesAdded: number;
    readonly resourcesRemoved: number;
    readonly resourcesChanged: number;
    /** Parameters (and attributes) added, removed or changed over all changed resources. */
    readonly parametersChanged: number;
    /** Time spent compiling, summed over every compile (milliseconds). */
    readonly compileMillis: number;
}

export type NodeStatus = 'unchanged' | 'changed' | 'failed' | 'fixed' | 'broken';

export interface NodeReport {
    readonly node: string;
    readonly status: NodeStatus;
    /** Why the head revision does not compile (status failed or broken). */
    readonly error?: NodeError;
    /** Why the base revision did not compile (status fixed or broken). */
    readonly baseError?: NodeError;
    readonly added: readonly ResourceEntry[];
    readonly removed: readonly ResourceEntry[];
    readonly changed: readonly ResourceChange[];
}

/** A resource that exists on one side only, with its parameters (Sensitive values redacted). */
export interface ResourceEntry {
    readonly resource: string;
    readonly type: string;
    readonly title: string;
    /** Where it is declared (in the revision it exists in). */
    readonly declaredAt?: Location;
    readonly parameters: Readonly<Record<string, unknown>>;
    readonly redacted?: boolean;
}

export interface ResourceChange {
    readonly resource: string;
    readonly type: string;
    readonly title: string;
    /** Where it is declared in the head revision. */
    readonly declaredAt?: Location;
    readonly parameters: readonly ParameterChange[];
}

export interface ParameterChange {
    /** The parameter name, or a resource attribute (`exported`, `tags`). */
    readonly name: string;
    readonly kind: 'added' | 'removed' | 'changed';
    readonly old?: unknown;
    readonly new?: unknown;
    /** Unified diff hunks of a multi-line string value. */
    readonly diff?: readonly string[];
    readonly redacted?: boolean;
    /** Where the new value came from (the old value's origin for a removal). */
    readonly origin?: ValueOrigin;
}

export interface Location {
    readonly file: string;
    readonly line?: number;
    readonly column?: number;
}

/** The Catalog model's ValueProvenance, flattened. */
export interface ValueOrigin {
    /** declared, parameterDefault, resourceDefault, override, binding, relationship, compiler, enc. */
    readonly kind: string;
    /** Where the value expression (or the parameter's declaration, for a bound value) was written. */
    readonly at?: Location;
    readonly binding?: BindingOrigin;
}

/** The binding (Hiera level or ARM-8 binding) that supplied a looked-up value. */
export interface BindingOrigin {
    readonly key: string;
    readonly layer?: string;
    /** The Hiera level or the binding's category. */
    readonly category?: string;
    readonly namedBindings?: string;
    /** The data file (or bindings file) and line. */
    readonly at?: Location;
    readonly merge?: string;
    readonly contributors?: readonly Location[];
}
