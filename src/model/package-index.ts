import { isPrimitive, type MClass, type MClassifier, type MFeature, type MPackage, type Primitive } from './metamodel.js';

/**
 * Derived, cached views of one package: classifier lookup, flattened features, the concrete
 * subclasses of each class. Everything that walks models or emits schemas goes through here so
 * inheritance is resolved one way only.
 */
export class PackageIndex {
    readonly pkg: MPackage;
    private readonly byName = new Map<string, MClassifier>();
    private readonly allFeaturesCache = new Map<string, readonly MFeature[]>();
    private readonly concreteCache = new Map<string, readonly MClass[]>();
    private readonly superCache = new Map<string, ReadonlySet<string>>();

    constructor(pkg: MPackage) {
        this.pkg = pkg;
        for (const c of pkg.classifiers) {
            this.byName.set(c.name, c);
        }
    }

    get classes(): MClass[] {
        return this.pkg.classifiers.filter((c): c is MClass => c.kind === 'class');
    }

    classifier(name: string): MClassifier | undefined {
        return this.byName.get(name);
    }

    cls(name: string): MClass | undefined {
        const c = this.byName.get(name);
        return c?.kind === 'class' ? c : undefined;
    }

    /** Every supertype name, transitively, the class itself included. */
    superTypesOf(name: string): ReadonlySet<string> {
        let result = this.superCache.get(name);
        if (!result) {
            const acc = new Set<string>();
            const visit = (n: string): void => {
                if (acc.has(n)) return;
                acc.add(n);
                this.cls(n)?.superTypes.forEach(visit);
            };
            visit(name);
            result = acc;
            this.superCache.set(name, result);
        }
        return result;
    }

    /** Inherited features first (supertypes in declaration order, depth first), each name once. */
    allFeatures(name: string): readonly MFeature[] {
        let result = this.allFeaturesCache.get(name);
        if (!result) {
            const seen = new Set<string>();
            const acc: MFeature[] = [];
            const visiting = new Set<string>();
            const visit = (n: string): void => {
                const c = this.cls(n);
                if (!c || visiting.has(n)) return;
                visiting.add(n);
                c.superTypes.forEach(visit);
                for (const f of c.features) {
                    if (!seen.has(f.name)) {
                        seen.add(f.name);
                        acc.push(f);
                    }
                }
            };
            visit(name);
            result = acc;
            this.allFeaturesCache.set(name, result);
        }
        return result;
    }

    feature(className: string, featureName: string): MFeature | undefined {
        return this.allFeatures(className).find(f => f.name === featureName);
    }

    idFeature(className: string): MFeature | undefined {
        return this.allFeatures(className).find(f => f.id === true);
    }

    /** Concrete (instantiable) classes that conform to `name`, in declaration order. */
    concreteSubclasses(name: string): readonly MClass[] {
        let result = this.concreteCache.get(name);
        if (!result) {
            result = this.classes.filter(c => !c.abstract && !c.interface && this.superTypesOf(c.name).has(name));
            this.concreteCache.set(name, result);
        }
        return result;
    }

    /** The primitive a feature's values are made of, or undefined for classes and enums. */
    primitiveOf(typeName: string): Primitive | undefined {
        if (isPrimitive(typeName)) return typeName;
        const c = this.byName.get(typeName);
        return c?.kind === 'datatype' ? c.base : undefined;
    }

    qualified(className: string): string {
        return `${this.pkg.nsURI}#//${className}`;
    }
}

/** `EffectiveBindings` -> `effective-bindings`: the file names of a package's schema and sources. */
export function fileStem(packageName: string): string {
    return packageName.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}
