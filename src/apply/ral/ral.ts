import { PuppetError } from '../errors.js';
import type { LogSink } from '../log.js';
import type { TypeRegistry } from '../registry.js';
import { applyCatalog } from '../run/transaction.js';
import type { CatalogResource, RunEnvironment, StrictMode, TypeRun } from '../run/harness.js';
import { hasFeature, namevars } from '../rsapi/definition.js';
import type { ResourceHash } from '../rsapi/provider.js';
import { namevarsFromTitle, ResourceApiResource, strictCheck } from '../rsapi/rsapi-resource.js';
import { checkSchema } from '../rsapi/schema-check.js';
import { ResourceApiRun, ResourceApiType } from '../rsapi/rsapi-type.js';
import { ClassicType, type ClassicRun } from '../dsl/type.js';
import { resourceReference, type PuppetValue } from '../values.js';
import { classicFind, classicSearch, classicState } from './classic-ral.js';
import type { RalResource } from './output.js';

export interface RalOptions {
    readonly root: string;
    readonly noop: boolean;
    readonly strict: StrictMode;
    /** Every log message of the run (the provider's, the transaction's notices and errors). */
    readonly log: LogSink;
    /** The connected transport of a device target (`puppet device --target`). */
    readonly transport?: unknown;
}

/**
 * `puppet resource`'s RAL indirection (Puppet::Resource::Ral): `search` lists every instance of
 * a type, `find` one (an instance, else the absent resource), `save` applies one resource built
 * from command-line attributes through a one-resource catalog and reads it back from the run.
 */
export class Ral {
    private readonly runs = new Map<string, TypeRun>();
    private readonly env: RunEnvironment;

    constructor(private readonly registry: TypeRegistry, private readonly options: RalOptions) {
        this.env = { root: options.root, noop: options.noop, strict: options.strict, log: options.log, cli: true, ...(options.transport !== undefined ? { transport: options.transport } : {}) };
    }

    search(typeName: string): RalResource[] {
        const type = this.type(typeName);
        if (type instanceof ResourceApiType) {
            const run = this.run(type) as ResourceApiRun;
            return run.instances().map(i => rsapiResource(type, i.title, withParameterDefaults(type, i.values)))
                .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
        }
        if (typeName === 'file') throw new PuppetError('Listing all file instances is not supported.  Please specify a file or directory, e.g. puppet resource file /etc');
        return classicSearch(type as ClassicType, this.env);
    }

    find(typeName: string, title: string): RalResource {
        const type = this.type(typeName);
        if (type instanceof ResourceApiType) {
            const run = this.run(type) as ResourceApiRun;
            const found = run.instances().find(i => i.title === title);
            if (found) return rsapiResource(type, title, withParameterDefaults(type, found.values));
            // Not listed: Puppet makes the resource from `name => TITLE` (canonicalized, which
            // gives its title) and reads its state, asking get again.
            const name = canonicalName(run, title);
            const identity = namevars(type.definition).length > 1 ? namevarsFromTitle(type.definition, name) : name;
            const state = run.currentState(identity);
            if (state) {
                checkSchema(run, state);
                strictCheck(run, state, name, identity);
            }
            return rsapiResource(type, name, withParameterDefaults(type, state ?? absentState(type, name)));
        }
        return classicFind(type as ClassicType, title, this.env);
    }

    save(typeName: string, title: string, parameters: ReadonlyMap<string, string>): { resource: RalResource; failed: boolean } {
        const type = this.type(typeName);
        const resource: CatalogResource = {
            type: type.name, title, ref: resourceReference(type.name, title), parameters: new Map<string, PuppetValue>(parameters),
            sensitiveParameters: new Set(), tags: [type.name]
        };
        const run = this.run(type);
        // Puppet builds the resource (`to_ral`) before it applies anything: a bad attribute is the command's error.
        const made = run.instantiate(resource);
        const result = applyCatalog({ name: 'resource', environment: this.registry.environment, resources: [resource], containment: [], relationships: [], file: title }, this.registry, {
            root: this.options.root, noop: this.options.noop, strict: this.options.strict, cli: true, summary: false, runs: this.runs,
            onLog: this.options.log, ...(this.options.transport !== undefined ? { transport: this.options.transport } : {})
        });
        if (result.aborted) throw new PuppetError(result.aborted.message);
        const failed = result.status === 'failed';
        if (type instanceof ResourceApiType) {
            const rsapiRun = run as ResourceApiRun;
            const identity = rsapiRun.identities.get(resource.ref);
            const shown = (identity !== undefined ? rsapiRun.cachedState(identity) : undefined) ?? absentState(type, title);
            // The resource Puppet made is titled by its (canonicalized) name.
            return { resource: rsapiResource(type, made instanceof ResourceApiResource ? made.ralTitle : title, shown), failed };
        }
        return { resource: classicState(type as ClassicType, resource, this.env, run as ClassicRun), failed };
    }

    private type(name: string): ResourceApiType | ClassicType {
        const type = this.registry.type(name);
        if (type instanceof ResourceApiType || type instanceof ClassicType) return type;
        throw new PuppetError(`Could not find type ${name}`);
    }

    private run(type: ResourceApiType | ClassicType): TypeRun {
        let run = this.runs.get(type.name);
        if (!run) {
            run = type.startRun(this.env);
            this.runs.set(type.name, run);
        }
        return run;
    }
}

/** A title as the gem's `new(name: TITLE)` leaves it: canonicalized when the type canonicalizes. */
function canonicalName(run: ResourceApiRun, title: string): string {
    const def = run.definition;
    const provider = hasFeature(def, 'canonicalize') ? run.providerIfAvailable() : undefined;
    if (!provider?.canonicalize) return title;
    const name = provider.canonicalize(run.context, [{ name: title }])[0]?.name;
    return typeof name === 'string' ? name : title;
}

/**
 * The gem's synthetic state of a resource get did not return: its identity (the namevars a
 * composite title gives; a single namevar's is the title), and ensure absent when ensurable.
 */
function absentState(type: ResourceApiType, title: string): ResourceHash {
    const identity = namevars(type.definition).length > 1 ? namevarsFromTitle(type.definition, title) : {};
    return { ...identity, ...(type.definition.attributes.some(a => a.name === 'ensure') ? { ensure: 'absent' } : {}) };
}

/**
 * Type#to_resource over an instance: the state get returned, then the parameters the resource
 * holds besides it (their defaults, as `new(title:)` sets them).
 */
function withParameterDefaults(type: ResourceApiType, values: ResourceHash): ResourceHash {
    const out = { ...values };
    for (const a of type.definition.attributes) {
        if (a.behaviour === 'parameter' && a.default !== undefined && out[a.name] === undefined) out[a.name] = a.default;
    }
    return out;
}

function rsapiResource(type: ResourceApiType, title: string, values: ResourceHash): RalResource {
    return { kind: 'rsapi', type: type.name, title, values, definition: type.definition };
}
