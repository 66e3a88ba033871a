import type { ContributionSource, DependencyBinding, NamedArgument, ProducerDescriptor } from '../../generated/model/bindings.js';
import type { RichData } from '../model/index.js';
import { parseTarget } from './keys.js';

/** Small pure helpers of the Collector. */

const HIERA_LAYERS: Readonly<Record<string, number>> = { global: 0, environment: 1, module: 2 };

/** A Hiera level's data files when it has several: inside the level the first file with a key wins. */
export function hieraFiles(nb: object): readonly string[] | undefined {
    const h = nb as { $type: string; dataFiles?: readonly string[] };
    return h.$type === 'HieraLevelBindings' && h.dataFiles && h.dataFiles.length > 1 ? h.dataFiles : undefined;
}

/**
 * Hiera levels contributed by the `hiera:` provider are first-found inside one ARM-8 layer:
 * default_hierarchy levels last, then Hiera's global > environment > module, then level order.
 * The model has these fields only on HieraLevelBindings, read structurally.
 */
export function hieraRank(nb: object): readonly number[] {
    const h = nb as { $type: string; hieraLayer?: string; levelIndex?: number; defaultHierarchy?: boolean };
    if (h.$type !== 'HieraLevelBindings') return [];
    return [h.defaultHierarchy === true ? 1 : 0, HIERA_LAYERS[h.hieraLayer ?? ''] ?? 3, h.levelIndex ?? 0];
}

export function push<T>(map: Map<string, T[]>, key: string, value: T): void {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
}

/** The contribution's URI for messages. */
export function describe(source: ContributionSource | undefined): string {
    return source?.uri ?? 'no contribution URI';
}

/** ARM-8 `to optional`, also under a non-caching wrapper. */
export function isOptional(d: ProducerDescriptor): boolean {
    return d.$type === 'OptionalProducerDescriptor' || (d.$type === 'NonCachingProducerDescriptor' && d.producer.$type === 'OptionalProducerDescriptor');
}

/** ARM-8 `singleton => false` given as a producer argument. */
export function singletonOff(args: readonly NamedArgument[]): boolean {
    return args.some(a => a.name === 'singleton' && a.value === false);
}

/** The entries of a rich-data hash written as a JSON object, or undefined for anything else. */
export function plainHash(v: RichData | undefined): Record<string, RichData> | undefined {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || '__ptype' in v) return undefined;
    return v;
}

/** The names of `bind abstract variables to ['a', 'b']` (or one name). */
export function stringList(v: RichData | undefined): string[] {
    if (typeof v === 'string') return [v];
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** The RHS type of a parameters producer: `Sql` for `Sql[one]` or a query over Sql. */
export function rhsTypeOf(d: ProducerDescriptor): string | undefined {
    switch (d.$type) {
        case 'InstanceReferenceProducerDescriptor': return parseTarget(d.reference).type;
        case 'QueryProducerDescriptor': return d.resourceType;
        case 'InstanceProducerDescriptor': return d.className;
        case 'OptionalProducerDescriptor': case 'NonCachingProducerDescriptor': return rhsTypeOf(d.producer);
        default: return undefined;
    }
}

/** A bound dependency as the hash `/dependencies` collects. */
export function dependencyValue(b: DependencyBinding): RichData {
    return { sources: b.sources, targets: b.targets, arrow: b.arrow === 'notify' ? '~>' : '->' };
}
