import { PuppetError } from '../errors.js';
import type { ApplicableResource, ApplicableType, CatalogResource, EvaluationOutcome, RunEnvironment, TypeRun } from '../run/harness.js';
import { noopOf } from '../run/harness.js';
import { resourceReference } from '../values.js';

/** What the `resources` type needs of a registry: the type it manages. */
export interface TypeLookup {
    type(name: string): ApplicableType | undefined;
}

/** A type run that can list every instance on the system (Resource API types). */
interface ListingRun extends TypeRun {
    instances(): { title: string }[];
}

function canList(run: TypeRun): run is ListingRun {
    return typeof (run as Partial<ListingRun>).instances === 'function';
}

/**
 * Puppet's `resources` metatype: `resources { 'TYPE': purge => true }` adds, before the run, an
 * `ensure => absent` resource for every instance of TYPE on the system that the catalog does not
 * manage (the transaction keeps a catalog resource over a generated one of the same reference).
 */
export class ResourcesType implements ApplicableType {
    readonly name = 'resources';

    constructor(private readonly registry: TypeLookup) {}

    startRun(env: RunEnvironment): TypeRun {
        return { instantiate: resource => new ResourcesResource(resource, this.registry, env) };
    }
}

class ResourcesResource implements ApplicableResource {
    readonly ref: string;
    readonly refreshable = false;
    readonly noop: boolean;
    private readonly purge: boolean;

    constructor(private readonly resource: CatalogResource, private readonly registry: TypeLookup, private readonly env: RunEnvironment) {
        this.ref = resource.ref;
        this.noop = noopOf(resource);
        const purge = resource.parameters.get('purge') ?? false;
        if (purge !== true && purge !== false && purge !== 'true' && purge !== 'false') {
            throw new PuppetError(`Parameter purge failed on ${resource.ref}: Invalid value ${JSON.stringify(purge)}. Valid values are true, false, yes, no.`);
        }
        this.purge = purge === true || purge === 'true';
        if (!registry.type(resource.title)) throw new PuppetError(`Could not find resource type '${resource.title}'`);
    }

    autoRelations(): [] {
        return [];
    }

    generate(): CatalogResource[] {
        if (!this.purge) return [];
        const type = this.resource.title.toLowerCase();
        const run = (this.registry.type(type) as ApplicableType).startRun(this.env);
        if (!canList(run)) throw new PuppetError(`Purging resources of type ${type} is not supported, since they cannot be queried from the system`);
        return run.instances().map(i => ({
            type, title: i.title, ref: resourceReference(type, i.title),
            parameters: new Map([['ensure', 'absent']]), sensitiveParameters: new Set<string>(), tags: [...this.resource.tags],
            ...(this.resource.file !== undefined ? { file: this.resource.file } : {}), ...(this.resource.line !== undefined ? { line: this.resource.line } : {})
        }));
    }

    evaluate(): EvaluationOutcome {
        return { changes: [], action: 'unchanged' };
    }
}
