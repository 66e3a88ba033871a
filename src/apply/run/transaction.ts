import type { Diagnostic } from '../../common/index.js';
import type { ApplyCatalog, Relationship } from '../catalog/catalog.js';
import { PluginCallError } from '../../ruby/index.js';
import { errorMessage } from '../errors.js';
import { FatalError } from '../rsapi/context.js';
import { ApplyIssues } from '../issues.js';
import type { LogLevel, LogMessage, LogSink } from '../log.js';
import type { TypeRegistry } from '../registry.js';
import type { ApplicableResource, CatalogResource, PropertyChange, ResourceAction, RunEnvironment, StrictMode, TypeRun } from './harness.js';
import { noopSetting } from './harness.js';
import { isAdmissible, RelationshipGraph, resourceOf } from './graph.js';
import { formatForDisplay } from '../inspect.js';
import { capitalizeTypeName } from '../values.js';

export interface ApplyOptions {
    readonly root: string;
    readonly noop: boolean;
    readonly strict?: StrictMode;
    /** Receives every log message as it happens (the CLI prints them). */
    readonly onLog?: LogSink;
    readonly transport?: unknown;
    /** `puppet resource`-style CLI mode: string attribute values are converted before validation. */
    readonly cli?: boolean;
    /**
     * Polled before each resource: the name of a signal (SIGTERM, SIGINT) that asked the run to
     * stop. The resources not reached are then reported as skipped and the run as failed.
     */
    readonly interrupted?: () => string | undefined;
    /**
     * The type runs to use, by type name (created when missing): `puppet resource` reads the
     * resource back from the same run after applying it, as the gem's cached state.
     */
    readonly runs?: Map<string, TypeRun>;
    /** Whether to log `Applied catalog in N seconds` (an agent or `puppet apply` run); `puppet resource` does not. */
    readonly summary?: boolean;
}

export interface ResourceResult {
    readonly resource: CatalogResource;
    readonly containmentPath: readonly string[];
    readonly action: ResourceAction;
    readonly changes: readonly PropertyChange[];
    readonly failed: boolean;
    readonly skipped: boolean;
    readonly failure?: string;
    readonly providerUsed?: string;
    readonly time: Date;
    readonly evaluationTime: number;
}

export interface ApplyResult {
    readonly catalog: ApplyCatalog;
    readonly options: ApplyOptions;
    readonly startTime: Date;
    readonly status: 'unchanged' | 'changed' | 'failed';
    readonly resources: readonly ResourceResult[];
    readonly logs: readonly LogMessage[];
    /** Set when the run stopped before applying anything (cycle, invalid resource, failed pre-run check). */
    readonly aborted?: Diagnostic;
    readonly totalTime: number;
}

interface QueuedEvent {
    readonly status: 'success' | 'noop';
    /** The event's name (`str_changed`, `noop_restart`): Puppet queues events grouped by name. */
    readonly name: string;
}

/**
 * Applies a catalog the way Puppet's transaction does: resources bound to their types, the
 * relationship graph with containment, relationships and auto-relationships, cycle detection,
 * dependency order (manifest order for ties), refresh events, skipping dependents of failures
 * while carrying on with the rest, and noop.
 */
export function applyCatalog(catalog: ApplyCatalog, registry: TypeRegistry, options: ApplyOptions): ApplyResult {
    const started = performance.now();
    const startTime = new Date();
    const logs: LogMessage[] = [];
    const sink: LogSink = m => {
        logs.push(m);
        options.onLog?.(m);
    };
    const log = (level: LogLevel, message: string, source?: string): void => sink({ level, message, time: new Date(), ...(source ? { source } : {}) });
    const instances = new Map<string, ApplicableResource>();
    const env: RunEnvironment = {
        root: options.root, noop: options.noop, strict: options.strict ?? 'warning', log: sink, catalog: () => [...instances.values()],
        ...(options.transport !== undefined ? { transport: options.transport } : {}), ...(options.cli ? { cli: true } : {})
    };
    const finish = (resources: ResourceResult[], aborted?: Diagnostic): ApplyResult => {
        const failed = aborted !== undefined || resources.some(r => r.failed);
        const changed = resources.some(r => r.changes.some(c => c.status === 'success'));
        const totalTime = (performance.now() - started) / 1000;
        if (!aborted && options.summary !== false) log('notice', `Applied catalog in ${totalTime.toFixed(2)} seconds`);
        return { catalog, options, startTime, status: failed ? 'failed' : changed ? 'changed' : 'unchanged', resources, logs, ...(aborted ? { aborted } : {}), totalTime };
    };
    // `puppet apply` turns the catalog into resources before its transaction starts, so a resource
    // that cannot be made is logged bare; what fails inside the transaction is "Failed to apply catalog".
    const abort = (message: string, code: string, resource?: CatalogResource, inTransaction = true): ApplyResult => {
        log('err', inTransaction ? `Failed to apply catalog: ${message}` : message);
        const index = resource ? catalog.resources.indexOf(resource) : -1;
        return finish([], {
            severity: 'error', code, message,
            ...(resource?.file && resource.line ? { at: { file: resource.file, line: resource.line, column: 1 } } : { file: catalog.file, path: index >= 0 ? `/resources/${index}` : '' })
        });
    };

    if (catalog.version !== undefined) log('info', `Applying configuration version '${catalog.version}'`);

    // Bind every resource of a known type; the others (classes, stages, defined types) are containers.
    const runs = options.runs ?? new Map<string, TypeRun>();
    const resources = [...catalog.resources];
    const containment = [...catalog.containment];
    const byRef = new Map(resources.map(r => [r.ref, r]));
    const bind = (r: CatalogResource): ApplyResult | undefined => {
        const type = registry.type(r.type);
        if (!type) return undefined;
        let run = runs.get(r.type);
        if (!run) {
            run = type.startRun(env);
            runs.set(r.type, run);
        }
        try {
            instances.set(r.ref, run.instantiate(r));
        } catch (e) {
            return abort(errorMessage(e), ApplyIssues.RESOURCE_FAILED, r, false);
        }
        return undefined;
    };
    for (const r of catalog.resources) {
        const failed = bind(r);
        if (failed) return failed;
    }
    // Generated resources (custom_generate) join the catalog beside their generator, in its container.
    for (const [ref, inst] of [...instances]) {
        let generated: CatalogResource[];
        try {
            generated = inst.generate?.() ?? [];
        } catch (e) {
            return abort(errorMessage(e), ApplyIssues.RESOURCE_FAILED, byRef.get(ref));
        }
        const container = catalog.containment.find(([, child]) => child === ref)?.[0];
        for (const g of generated) {
            if (byRef.has(g.ref)) continue;
            resources.push(g);
            byRef.set(g.ref, g);
            if (container) containment.push([container, g.ref]);
            const failed = bind(g);
            if (failed) return failed;
        }
    }
    const containers = new Set(resources.filter(r => !instances.has(r.ref)).map(r => r.ref));
    const parent = new Map<string, string>();
    for (const [c, child] of containment) if (byRef.has(c) && byRef.has(child)) parent.set(child, c);
    const pathOf = (ref: string): string[] => {
        const chain: string[] = [];
        for (let p = parent.get(ref); p !== undefined; p = parent.get(p)) chain.unshift(p);
        return chain;
    };
    const sourceOf = (ref: string): string => {
        if (containers.has(ref)) return displayRef(ref);
        const parts = [...pathOf(ref).map(pathElement), instances.get(ref)?.displayRef ?? ref];
        return `/${parts.join('/')}`;
    };
    for (const [ref, inst] of instances) {
        if ('path' in inst) (inst as { path: string | undefined }).path = sourceOf(ref);
    }

    const graph = new RelationshipGraph(containers);
    resources.forEach((r, i) => graph.addResource(r.ref, i));
    for (const [c, child] of containment) if (byRef.has(c) && byRef.has(child)) graph.contain(c, child);
    const missingEnd = (rel: Relationship): ApplyResult | undefined => {
        for (const end of [rel.source, rel.target]) {
            if (!byRef.has(end)) {
                const declaring = byRef.get(rel.declaredBy);
                const message = rel.declaredBy === rel.target
                    ? `Could not find dependency ${end} for ${rel.declaredBy}`
                    : `Could not find resource '${end}' for relationship from '${rel.declaredBy}'`;
                return abort(message, ApplyIssues.MISSING_TARGET, declaring);
            }
        }
        return undefined;
    };
    // Puppet turns each resource's relationship metaparameters into edges in catalog order,
    // require, subscribe, before then notify, and says so (`.../require: require to Notify[c]`).
    const position = new Map(resources.map((r, i) => [r.ref, i]));
    const declared = catalog.relationships.filter(rel => rel.param !== undefined).map((rel, i) => ({ rel, i })).sort((a, b) =>
        (position.get(a.rel.declaredBy) ?? 0) - (position.get(b.rel.declaredBy) ?? 0)
        || METAPARAM_ORDER.indexOf(a.rel.param ?? 'notify') - METAPARAM_ORDER.indexOf(b.rel.param ?? 'notify') || a.i - b.i);
    for (const { rel } of declared) {
        const failed = missingEnd(rel);
        if (failed) return failed;
        const source = containers.has(rel.declaredBy) ? `/${[...pathOf(rel.declaredBy), rel.declaredBy].map(pathElement).join('/')}` : sourceOf(rel.declaredBy);
        log('debug', `${rel.param} to ${rel.declaredBy === rel.source ? rel.target : rel.source}`, `${source}/${rel.param}`);
    }
    for (const rel of catalog.relationships) {
        const failed = missingEnd(rel);
        if (failed) return failed;
        graph.relate(rel.source, rel.target, rel.kind === 'notify');
    }
    for (const [ref, inst] of instances) {
        let autos;
        try {
            autos = inst.autoRelations();
        } catch (e) {
            // A type's autorequire block that fails stops the run before anything is applied.
            return abort(errorMessage(e), ApplyIssues.RESOURCE_FAILED, byRef.get(ref));
        }
        // Puppet adds a resource's autorequire, autosubscribe, autobefore then autonotify edges; one
        // that repeats an edge is dropped, one against an edge is skipped with a word.
        for (const auto of [...autos].sort((a, b) => AUTO_ORDER.indexOf(a.kind) - AUTO_ORDER.indexOf(b.kind))) {
            const incoming = auto.kind === 'autorequire' || auto.kind === 'autosubscribe';
            for (const title of auto.titles) {
                const other = [...byRef.values()].find(r => r.type === auto.type && (r.title === title || r.parameters.get(keyOf(r)) === title));
                if (!other || other.ref === ref) continue;
                const [from, to] = incoming ? [other.ref, ref] : [ref, other.ref];
                const along = graph.hasEdge(graph.end(from), graph.start(to));
                const against = graph.hasEdge(graph.end(to), graph.start(from));
                // Puppet checks the two directions the other way round for autobefore/autonotify.
                if (incoming ? along : against) continue;
                if (incoming ? against : along) {
                    log('debug', `Skipping automatic relationship with ${other.ref}`, sourceOf(ref));
                    continue;
                }
                log('debug', `Adding ${auto.kind} relationship with ${other.ref}`, sourceOf(ref));
                graph.relate(from, to, auto.kind === 'autosubscribe' || auto.kind === 'autonotify');
            }
        }
    }
    const cycles = graph.cycles();
    if (cycles.length > 0) {
        const n = cycles.length;
        log('err', `Found ${n} dependency cycle${n === 1 ? '' : 's'}:\n${cycles.map(c => `(${c.join(' => ')})`).join('\n')}\nTry the '--graph' option and opening the resulting '.dot' file in OmniGraffle or GraphViz`);
        return abort('One or more resource dependency cycles detected in graph', ApplyIssues.DEPENDENCY_CYCLE, byRef.get(cycles[0][0]));
    }
    let preRunFailed = false;
    for (const [ref, inst] of instances) {
        try {
            inst.preRunCheck?.();
        } catch (e) {
            preRunFailed = true;
            log('err', errorMessage(e), sourceOf(ref));
        }
    }
    if (preRunFailed) return abort('Some pre-run checks failed', ApplyIssues.PRE_RUN_CHECK);

    // Walk the graph in order.
    const results: ResourceResult[] = [];
    const failedState = new Map<string, { failed: boolean; dependencyFailed: boolean }>();
    const failedVia = new Map<string, Set<string>>();
    const queues = new Map<string, QueuedEvent[]>();
    const acceptsEvents = (v: string): boolean => isAdmissible(v) || containers.has(v) || instances.get(v)?.refreshable === true;
    const emit = (v: string, events: readonly QueuedEvent[]): void => {
        if (events.length === 0) return;
        const names = new Set(events.map(e => e.name)).size;
        for (const e of graph.outgoing(v)) {
            if (!e.refresh || !acceptsEvents(e.to)) continue;
            // Puppet queues the events of each name separately, logging each time.
            for (let i = 0; i < names; i++) {
                if (instances.has(e.to)) log('info', `Scheduling refresh of ${e.to}`, sourceOf(resourceOf(v)));
                else if (containers.has(e.to)) log('debug', `The container ${displayRef(e.to)} will propagate my refresh event`, sourceOf(resourceOf(v)));
            }
            const q = queues.get(e.to) ?? [];
            q.push(...events);
            queues.set(e.to, q);
        }
    };
    /** Puppet's transaction on a resource it skips: say so, and drop the events queued for it. */
    const skipped = (source: string, target: string, queued: readonly QueuedEvent[]): void => {
        log('debug', 'Resource is being skipped, unscheduling all events', source);
        if (queued.length > 0) log('info', `Unscheduling all events on ${target}`, source);
    };
    const order = graph.order();
    for (let step = 0; step < order.length; step++) {
        const v = order[step] as string;
        const signal = options.interrupted?.();
        if (signal !== undefined) {
            log('notice', `Caught ${signal.replace(/^SIG/, '')}; exiting`);
            for (const rest of order.slice(step)) {
                const r = byRef.get(resourceOf(rest));
                if (!r || !instances.has(r.ref) || rest !== r.ref) continue;
                results.push({ resource: r, containmentPath: [...pathOf(r.ref), r.ref], action: 'unchanged', changes: [], failed: false, skipped: true, time: new Date(), evaluationTime: 0 });
            }
            return finish(results, { severity: 'error', code: ApplyIssues.INTERRUPTED, message: `the run was interrupted by ${signal}; the resources not reached are reported as skipped`, file: catalog.file, path: '' });
        }
        // Failures reach a vertex through whatever whits stand between it and the failed resource.
        const deps = new Set<string>();
        for (const e of graph.incoming(v)) {
            const from = e.from;
            const st = failedState.get(from);
            if (st && (st.failed || st.dependencyFailed) && !isAdmissible(from) && !containers.has(from)) deps.add(from);
            for (const d of failedVia.get(from) ?? []) deps.add(d);
        }
        const ref = resourceOf(v);
        const inst = instances.get(ref);
        const queued = queues.get(v) ?? [];
        if (!inst) {
            if (deps.size > 0) failedVia.set(v, deps);
            if (isAdmissible(v)) { emit(v, queued); continue; }
            if (deps.size > 0) {
                // A container with a failed resource inside is skipped (Puppet warns only for resources) and its events dropped.
                skipped(displayRef(ref), displayRef(ref), queued);
                continue;
            }
            if (queued.length > 0) {
                // A container is noop under --noop (Puppet's noop? of the whit): it only says what it would have done.
                if (options.noop || queued.every(q => q.status === 'noop')) {
                    log('notice', `Would have triggered 'refresh' from ${queued.length} event${queued.length === 1 ? '' : 's'}`, displayRef(ref));
                    emit(v, [{ status: 'noop', name: 'noop_restart' }]);
                } else {
                    // The container restarts: what it passes on is its `restarted` event.
                    emit(v, queued.filter(q => q.status === 'success').map(() => ({ status: 'success', name: 'restarted' })));
                }
            }
            continue;
        }
        const resource = byRef.get(ref) as CatalogResource;
        const source = sourceOf(ref);
        const time = new Date();
        const t0 = performance.now();
        const reported = new Set<PropertyChange>();
        const logChange = (c: PropertyChange): void => {
            if (reported.has(c)) return;
            reported.add(c);
            if (c.status === 'noop') {
                log('notice', `current_value ${c.isText ?? display(c, c.previous)}, should be ${c.shouldText ?? display(c, c.desired)} (noop)`, `${source}/${c.property}`);
            } else if (c.status === 'success') {
                log('notice', c.message, `${source}/${c.property}`);
            }
        };
        const rlog = {
            log: (level: LogLevel, message: string, property?: string): void => log(level, message, property ? `${source}/${property}` : source),
            change: logChange
        };
        // Puppet prefetches a provider when the first resource it manages comes up, even one then skipped.
        const prefetchFailure = runs.get(resource.type)?.prefetch?.(inst);
        if (deps.size > 0) {
            // Puppet names only the dependencies that failed themselves, not those skipped in turn.
            for (const d of deps) if (failedState.get(d)?.failed === true) log('notice', `Dependency ${d} has failures: true`, source);
            log('warning', 'Skipping because of failed dependencies', source);
            skipped(source, inst.displayRef ?? ref, queued);
            failedState.set(v, { failed: prefetchFailure !== undefined, dependencyFailed: true });
            results.push({ resource, containmentPath: [...pathOf(ref), ref], action: 'unchanged', changes: [], failed: prefetchFailure !== undefined, skipped: true, time, evaluationTime: 0 });
            continue;
        }
        if (prefetchFailure !== undefined) {
            // The resource fails without being evaluated: its provider could not read the system.
            log('warning', 'Skipping because provider prefetch failed', source);
            skipped(source, inst.displayRef ?? ref, queued);
            failedState.set(v, { failed: true, dependencyFailed: false });
            results.push({ resource, containmentPath: [...pathOf(ref), ref], action: 'failed', changes: [], failed: true, skipped: true, failure: prefetchFailure, time, evaluationTime: 0 });
            continue;
        }
        if (inst.deviceOnly === true && options.transport === undefined) {
            log('debug', 'Skipping device resources because running on a posix host', source);
            skipped(source, inst.displayRef ?? ref, queued);
            results.push({ resource, containmentPath: [...pathOf(ref), ref], action: 'unchanged', changes: [], failed: false, skipped: true, time, evaluationTime: 0 });
            continue;
        }
        let outcome;
        try {
            outcome = inst.evaluate(rlog);
        } catch (e) {
            // An exception that is no StandardError (the Resource API's logging blocks pass it on) is
            // not the resource's failure: Puppet's transaction does not rescue it and the run ends.
            if (endsRun(e)) return abort(`Could not run: ${errorMessage(e)}`, ApplyIssues.RESOURCE_FAILED, resource, false);
            outcome = { changes: [], action: 'failed' as const, failure: errorMessage(e) };
            log('err', `Could not evaluate: ${errorMessage(e)}`, source);
        }
        for (const c of outcome.changes) logChange(c);
        const failed = outcome.action === 'failed' || outcome.changes.some(c => c.status === 'failure');
        failedState.set(v, { failed, dependencyFailed: false });
        const events: QueuedEvent[] = outcome.changes.filter(c => c.status !== 'failure').map(c => ({ status: c.status === 'noop' ? 'noop' : 'success', name: c.event }));
        emit(v, events);
        let action = outcome.action;
        if (!failed && queued.length > 0 && inst.refreshable) {
            const noop = (noopSetting(resource) ?? options.noop) || queued.every(q => q.status === 'noop');
            const n = `${queued.length} event${queued.length === 1 ? '' : 's'}`;
            if (noop) {
                log('notice', `Would have triggered 'refresh' from ${n}`, source);
                emit(v, [{ status: 'noop', name: 'noop_restart' }]);
            } else {
                const refreshed = inst.refresh?.(rlog);
                if (refreshed?.action === 'failed') {
                    failedState.set(v, { failed: true, dependencyFailed: false });
                } else {
                    log('notice', `Triggered 'refresh' from ${n}`, source);
                    if (action === 'unchanged') action = 'refreshed';
                }
            }
        }
        results.push({
            resource, containmentPath: [...pathOf(ref), ref], action, changes: outcome.changes,
            failed: failedState.get(v)?.failed === true, skipped: false,
            ...(outcome.failure ? { failure: outcome.failure } : {}),
            ...(outcome.providerUsed ? { providerUsed: outcome.providerUsed } : {}),
            time, evaluationTime: (performance.now() - t0) / 1000
        });
    }
    return finish(results);
}

/** The order Puppet's Type#builddepends takes the relationship metaparameters in. */
const METAPARAM_ORDER = ['require', 'subscribe', 'before', 'notify'] as const;

/** The order Puppet's relationship graph adds a resource's automatic relationships in. */
const AUTO_ORDER = ['autorequire', 'autosubscribe', 'autobefore', 'autonotify'] as const;

/** Puppet shows class references with the class name capitalised: Class[main] logs as Class[Main]. */
function displayRef(ref: string): string {
    const m = /^Class\[(.*)\]$/.exec(ref);
    return m ? `Class[${pathElement(ref)}]` : ref;
}

/** How a container shows in a resource's path: classes by name ("Main", "Web"), others by reference. */
function pathElement(ref: string): string {
    const m = /^Class\[(.*)\]$/.exec(ref);
    if (!m) return ref;
    return capitalizeTypeName(m[1]);
}

function display(c: PropertyChange, v: unknown): string {
    if (c.sensitive) return '[redacted]';
    return formatForDisplay(v as Parameters<typeof formatForDisplay>[0]);
}

/** The parameter a resource's autorelation titles may also match (its name/path). */
function keyOf(r: CatalogResource): string {
    return r.type === 'file' ? 'path' : 'name';
}

/** A Ruby exception that is no StandardError (a provider's NotImplementedError, a bare Exception), or a TypeScript provider's FatalError. */
function endsRun(e: unknown): boolean {
    return (e instanceof PluginCallError && e.escapes) || e instanceof FatalError;
}
