import type { DslResourceView } from '../../ruby/index.js';
import type { LogLevel, LogSink } from '../log.js';
import type { PuppetValue } from '../values.js';

/** A resource as the apply stage reads it from a catalog. Type names are lower case (`file`, `apt_key`). */
export interface CatalogResource {
    readonly type: string;
    readonly title: string;
    /** "File[/etc/motd]" with Puppet's capitalisation of the type. */
    readonly ref: string;
    /** Parameters without undef values; Sensitive parameters already re-wrapped. */
    readonly parameters: ReadonlyMap<string, PuppetValue>;
    readonly sensitiveParameters: ReadonlySet<string>;
    readonly tags: readonly string[];
    readonly file?: string;
    readonly line?: number;
    readonly exported?: boolean;
}

export type StrictMode = 'off' | 'warning' | 'error';

/** What every type run needs to know about the run it belongs to. */
export interface RunEnvironment {
    /** The directory standing for `/`: file paths, exec's creates and cwd are resolved under it. */
    readonly root: string;
    readonly noop: boolean;
    readonly strict: StrictMode;
    readonly log: LogSink;
    /** The transport for remote_resource types (a `puppet device`-like run), if any. */
    readonly transport?: unknown;
    /**
     * `puppet resource`-style CLI mode: attribute values come from a command line as strings and
     * are converted ('true' → true, '5' → 5) before validation; never in a catalog run.
     */
    readonly cli?: boolean;
    /** The run's resources, bound to their types (what type code reaches as `catalog.resources`). */
    readonly catalog?: () => readonly ApplicableResource[];
}

export type EventStatus = 'success' | 'failure' | 'noop';

/** One property that was (or, in noop, would have been) changed. */
export interface PropertyChange {
    readonly property: string;
    readonly previous: PuppetValue | undefined;
    readonly desired: PuppetValue | undefined;
    /** The change message Puppet logs when it makes the change, e.g. "mode changed '0644' to '0600'". */
    readonly message: string;
    /** The event name, e.g. "file_created", "mode_changed". */
    readonly event: string;
    readonly status: EventStatus;
    /** Values of sensitive properties are shown as [redacted] everywhere. */
    readonly sensitive: boolean;
    /** How the property shows its values in noop messages (is_to_s/should_to_s), when it has its own form. */
    readonly isText?: string;
    readonly shouldText?: string;
}

export type ResourceAction = 'unchanged' | 'created' | 'updated' | 'deleted' | 'refreshed' | 'noop' | 'failed';

export interface EvaluationOutcome {
    readonly changes: readonly PropertyChange[];
    readonly action: ResourceAction;
    /** The failure message when evaluation failed ("Could not evaluate: ..."). */
    readonly failure?: string;
    readonly providerUsed?: string;
}

/** Resource-scoped logging: `source` becomes the resource's path, e.g. /Stage[main]/Main/Exec[x]/returns. */
export interface ResourceLog {
    log(level: LogLevel, message: string, property?: string): void;
    /**
     * Reports a change as soon as it is made, so its notice comes where Puppet prints it: right
     * after the property's sync, before what a later flush or provider logs. Changes not reported
     * this way are logged when the evaluation returns.
     */
    change?(change: PropertyChange): void;
}

export interface AutoRelationTarget {
    readonly kind: 'autorequire' | 'autobefore' | 'autosubscribe' | 'autonotify';
    /** Lower-case type name. */
    readonly type: string;
    readonly titles: readonly string[];
}

/** One resource bound to its type's runtime, ready to evaluate. */
export interface ApplicableResource {
    readonly ref: string;
    autoRelations(): AutoRelationTarget[];
    /** Resources this one generates into the catalog before the run (custom_generate). */
    generate?(): CatalogResource[];
    /** Consistency checks against the catalog before anything is applied (may throw). */
    preRunCheck?(): void;
    evaluate(log: ResourceLog): EvaluationOutcome;
    /** True when the resource reacts to refresh events (exec, service). */
    readonly refreshable: boolean;
    refresh?(log: ResourceLog): EvaluationOutcome;
    /** The resource's own noop metaparameter. */
    readonly noop: boolean;
    /** The reference its logs show when Puppet's resource object got another title than the catalog's. */
    readonly displayRef?: string;
    /** Applies only through a device (a remote_resource type): a run on the host skips it. */
    readonly deviceOnly?: boolean;
    /** The resource as type code finds it in `catalog.resources` (Ruby types' resources, classic and Resource API). */
    catalogMember?(): CatalogMember;
}

/** A resource of the run with its type's name, as `catalog.resources` gives it to type code. */
export interface CatalogMember {
    readonly typeName: string;
    readonly resource: DslResourceView;
}

/** `catalog.resources` of a run: its resources that type code can see. */
export function catalogMembers(env: RunEnvironment | undefined): CatalogMember[] {
    return (env?.catalog?.() ?? []).flatMap(r => r.catalogMember ? [r.catalogMember()] : []);
}

/** A type's state for one run: provider instances, get caches, warning counters. */
export interface TypeRun {
    /** Validates and binds a catalog resource; throws PuppetError/ResourceError with Puppet's message. */
    instantiate(resource: CatalogResource): ApplicableResource;
    /**
     * Puppet's prefetch_if_necessary, called for each resource just before the transaction
     * evaluates it: the first resource of a provider that prefetches runs its prefetch for all
     * the run's resources of that provider. When that provider's prefetch failed: the failure
     * the resource's status gets (`Prefetch failed for TYPE provider 'NAME'`).
     */
    prefetch?(resource: ApplicableResource): string | undefined;
}

/** A resource type the apply stage can apply (Resource API and classic DSL types alike). */
export interface ApplicableType {
    readonly name: string;
    /** Per-run state, so nothing leaks between runs or environments. */
    startRun(env: RunEnvironment): TypeRun;
}

/** Puppet's metaparameters: never passed to types as attributes. */
export const METAPARAMS = new Set(['alias', 'audit', 'before', 'loglevel', 'noop', 'notify', 'require', 'schedule', 'stage', 'subscribe', 'tag', 'consume', 'export']);

/**
 * The noop metaparameter when the resource sets it (true or false), else undefined: Puppet's
 * `noop?` falls back to the run's --noop only then, so `noop => false` applies under --noop.
 */
export function noopSetting(resource: CatalogResource): boolean | undefined {
    const v = resource.parameters.get('noop');
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    return undefined;
}

export function noopOf(resource: CatalogResource): boolean {
    const v = resource.parameters.get('noop');
    return v === true || v === 'true';
}
