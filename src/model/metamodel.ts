/**
 * The Ecore-like metamodel that every generator and the model runtime read. It is plain data
 * (no behaviour), so a package descriptor can be generated as a TypeScript constant and
 * loaded without parsing anything at run time.
 */

/** Built-in datatypes, named as in Ecore without the `E`. `Data` is any Puppet rich-data value. */
export type Primitive = 'String' | 'Int' | 'Long' | 'Boolean' | 'Double' | 'Data';

export const PRIMITIVES: readonly Primitive[] = ['String', 'Int', 'Long', 'Boolean', 'Double', 'Data'];

export interface MPackage {
    readonly name: string;
    readonly nsURI: string;
    readonly nsPrefix: string;
    readonly doc?: string;
    readonly classifiers: readonly MClassifier[];
}

export type MClassifier = MClass | MEnum | MDataType;

export interface MClass {
    readonly kind: 'class';
    readonly name: string;
    readonly abstract: boolean;
    readonly interface: boolean;
    readonly superTypes: readonly string[];
    readonly features: readonly MFeature[];
    readonly doc?: string;
}

export type FeatureKind = 'attribute' | 'containment' | 'reference';

export interface MFeature {
    readonly kind: FeatureKind;
    readonly name: string;
    /** A primitive, or the name of a classifier of the same package. */
    readonly type: string;
    readonly lower: number;
    /** -1 = unbounded. */
    readonly upper: number;
    readonly id?: boolean;
    readonly defaultValue?: string;
    readonly opposite?: string;
    readonly doc?: string;
}

export interface MEnum {
    readonly kind: 'enum';
    readonly name: string;
    readonly literals: ReadonlyArray<{ readonly name: string; readonly value: number }>;
    readonly doc?: string;
}

/** A named datatype whose values are those of a primitive (e.g. `Timestamp : String`). */
export interface MDataType {
    readonly kind: 'datatype';
    readonly name: string;
    readonly base: Primitive;
    readonly doc?: string;
}

export function isPrimitive(name: string): name is Primitive {
    return (PRIMITIVES as readonly string[]).includes(name);
}

export function isMany(f: MFeature): boolean {
    return f.upper === -1 || f.upper > 1;
}
