import { ALL_PACKAGES } from '../../generated/model/index.js';
import type { MClass, MPackage } from './metamodel.js';
import { PackageIndex } from './package-index.js';

/** All model packages known to this build, by name and by nsURI. */
export class ModelRegistry {
    private readonly byUri = new Map<string, PackageIndex>();
    private readonly byName = new Map<string, PackageIndex>();

    constructor(packages: readonly MPackage[]) {
        for (const p of packages) {
            const index = new PackageIndex(p);
            this.byUri.set(p.nsURI, index);
            this.byName.set(p.name.toLowerCase(), index);
        }
    }

    get packages(): PackageIndex[] {
        return [...this.byUri.values()];
    }

    byNsURI(uri: string): PackageIndex | undefined {
        return this.byUri.get(uri);
    }

    /** Case-insensitive; accepts `effective-bindings` for `EffectiveBindings`. */
    byPackageName(name: string): PackageIndex | undefined {
        return this.byName.get(name.replace(/-/g, '').toLowerCase());
    }

    /** Resolves a wire `$type` (`nsURI#//Class`) to its package and class. */
    resolveType(qualified: string): { index: PackageIndex; cls: MClass } | undefined {
        const hash = qualified.indexOf('#//');
        if (hash < 0) return undefined;
        const index = this.byUri.get(qualified.slice(0, hash));
        const cls = index?.cls(qualified.slice(hash + 3));
        return index && cls ? { index, cls } : undefined;
    }
}

let defaultRegistry: ModelRegistry | undefined;
export function modelRegistry(): ModelRegistry {
    defaultRegistry ??= new ModelRegistry(ALL_PACKAGES);
    return defaultRegistry;
}
