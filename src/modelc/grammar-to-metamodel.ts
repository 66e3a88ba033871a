import type { Grammar } from 'langium';
import {
    collectAst, isArrayType, isInterfaceType, isPrimitiveType, isPropertyUnion, isReferenceType, isStringType,
    isUnionType, isValueType, type InterfaceType, type Property, type PropertyType, type UnionType
} from 'langium/grammar';
import type { MClass, MClassifier, MDataType, MFeature, MPackage, Primitive } from '../model/index.js';

export interface GrammarPackageInfo {
    readonly name: string;
    readonly nsURI: string;
    readonly nsPrefix: string;
    readonly doc: string;
}

/**
 * Derives an Ecore-like package from a Langium grammar's generation-time types (`collectAst`),
 * the only Langium type model that still knows primitives and multiplicities.
 * Unions of interfaces become abstract classes; unions of strings or primitives become datatypes.
 */
export function grammarToPackage(grammar: Grammar, info: GrammarPackageInfo): MPackage {
    const ast = collectAst(grammar);
    const classSupers = new Map<string, Set<string>>();
    const addSuper = (sub: string, sup: string): void => {
        if (sub === sup) return;
        const set = classSupers.get(sub) ?? new Set<string>();
        set.add(sup);
        classSupers.set(sub, set);
    };
    const classUnions = new Set<string>();
    const dataUnions = new Map<string, Primitive>();
    for (const u of ast.unions) {
        const members = flatten(u.type);
        if (members.length > 0 && members.every(m => isValueType(m))) {
            classUnions.add(u.name);
        } else {
            dataUnions.set(u.name, primitiveOfData(members));
        }
    }
    for (const u of ast.unions) {
        if (!classUnions.has(u.name)) continue;
        for (const m of flatten(u.type)) {
            if (isValueType(m)) addSuper(m.value.name, u.name);
        }
    }
    for (const i of ast.interfaces) {
        for (const s of i.superTypes) {
            if (isInterfaceType(s) || classUnions.has(s.name)) addSuper(i.name, s.name);
        }
    }
    const synthesized = new Map<string, MClass>();
    const ctx: FeatureContext = { classUnions, dataUnions, synthesized, addSuper };
    const interfaces: MClassifier[] = ast.interfaces.map(i => interfaceToClass(i, ctx, classSupers));
    const unions: MClassifier[] = ast.unions.map(u => classUnions.has(u.name)
        ? unionToClass(u, classSupers)
        : { kind: 'datatype', name: u.name, base: dataUnions.get(u.name) ?? 'String', ...docOf(u) } satisfies MDataType);
    // Synthesized unions only get their supertype links after every feature has been seen.
    const withSupers = interfaces.map(c => c.kind === 'class' ? { ...c, superTypes: sorted(classSupers.get(c.name)) } : c);
    const synthetic = [...synthesized.values()].map(c => ({ ...c, superTypes: sorted(classSupers.get(c.name)) }));
    const classifiers = withoutRedeclaredFeatures([...withSupers, ...unions, ...synthetic]).sort((a, b) => a.name.localeCompare(b.name, 'en'));
    return { name: info.name, nsURI: info.nsURI, nsPrefix: info.nsPrefix, doc: info.doc, classifiers };
}

/**
 * Langium lets a subtype repeat a supertype's property; Ecore forbids two features of one name
 * in a class, so the inherited declaration stands.
 */
function withoutRedeclaredFeatures(classifiers: MClassifier[]): MClassifier[] {
    const byName = new Map(classifiers.map(c => [c.name, c]));
    const inherited = (name: string, seen = new Set<string>()): Set<string> => {
        const c = byName.get(name);
        const names = new Set<string>();
        if (c?.kind !== 'class' || seen.has(name)) return names;
        seen.add(name);
        for (const s of c.superTypes) {
            const sup = byName.get(s);
            if (sup?.kind === 'class') sup.features.forEach(f => names.add(f.name));
            inherited(s, seen).forEach(n => names.add(n));
        }
        return names;
    };
    return classifiers.map(c => {
        if (c.kind !== 'class') return c;
        const taken = inherited(c.name);
        return { ...c, features: c.features.filter(f => !taken.has(f.name)) };
    });
}

interface FeatureContext {
    readonly classUnions: ReadonlySet<string>;
    readonly dataUnions: ReadonlyMap<string, Primitive>;
    readonly synthesized: Map<string, MClass>;
    readonly addSuper: (sub: string, sup: string) => void;
}

function interfaceToClass(i: InterfaceType, ctx: FeatureContext, supers: Map<string, Set<string>>): MClass {
    return {
        kind: 'class',
        name: i.name,
        abstract: i.abstract,
        interface: false,
        superTypes: sorted(supers.get(i.name)),
        features: i.properties.map(p => propertyToFeature(p, ctx)),
        ...docOf(i)
    };
}

function unionToClass(u: UnionType, supers: Map<string, Set<string>>): MClass {
    return { kind: 'class', name: u.name, abstract: true, interface: false, superTypes: sorted(supers.get(u.name)), features: [], ...docOf(u) };
}

function propertyToFeature(p: Property, ctx: FeatureContext): MFeature {
    let type = p.type;
    let many = false;
    if (isArrayType(type) && type.elementType) {
        many = true;
        type = type.elementType;
    }
    const doc = p.comment ? { doc: cleanComment(p.comment) } : {};
    const bounds = { lower: many || p.optional ? 0 : 1, upper: many ? -1 : 1 };
    if (isReferenceType(type)) {
        const target = flatten(type.referenceType).find(isValueType);
        return { kind: 'reference', name: p.name, type: target?.value.name ?? 'Data', ...bounds, lower: 0, ...doc };
    }
    const members = flatten(type);
    const classMembers = members.filter(isValueType).filter(m => !ctx.dataUnions.has(m.value.name));
    if (classMembers.length > 0 && classMembers.length === members.length) {
        const name = classMembers.length === 1 ? classMembers[0].value.name : synthesizeUnion(classMembers.map(m => m.value.name), ctx);
        return { kind: 'containment', name: p.name, type: name, ...bounds, ...doc };
    }
    if (members.length === 1 && isValueType(members[0])) {
        return { kind: 'attribute', name: p.name, type: members[0].value.name, ...bounds, ...doc };
    }
    const primitive = classMembers.length > 0 ? 'Data' : primitiveOfData(members);
    if (primitive === 'Boolean' && !many) {
        // Langium always sets `?=` booleans; false is their unset value.
        return { kind: 'attribute', name: p.name, type: primitive, lower: 0, upper: 1, defaultValue: 'false', ...doc };
    }
    return { kind: 'attribute', name: p.name, type: primitive, ...bounds, ...doc };
}

/** An abstract class standing for a property typed `A | B`, made a supertype of each member. */
function synthesizeUnion(members: string[], ctx: FeatureContext): string {
    const names = [...new Set(members)].sort();
    const name = names.join('Or');
    if (!ctx.synthesized.has(name)) {
        ctx.synthesized.set(name, { kind: 'class', name, abstract: true, interface: false, superTypes: [], features: [], doc: `Any of ${names.join(', ')}.` });
        for (const m of names) ctx.addSuper(m, name);
    }
    return name;
}

function flatten(t: PropertyType): PropertyType[] {
    return isPropertyUnion(t) ? t.types.flatMap(flatten) : [t];
}

function primitiveOfData(members: PropertyType[]): Primitive {
    const kinds = new Set<Primitive>(members.map((m): Primitive => {
        if (isStringType(m)) return 'String';
        if (isPrimitiveType(m)) {
            switch (m.primitive) {
                case 'number': return 'Double';
                case 'boolean': return 'Boolean';
                case 'bigint': return 'Long';
                default: return 'String';
            }
        }
        if (isValueType(m) && isUnionType(m.value)) return primitiveOfData(flatten(m.value.type));
        return 'Data';
    }));
    return kinds.size === 1 ? [...kinds][0] : 'Data';
}

function docOf(t: { comment?: string }): { doc?: string } {
    return t.comment ? { doc: cleanComment(t.comment) } : {};
}

function cleanComment(c: string): string {
    return c.replace(/^\/\*\*?/, '').replace(/\*\/$/, '').split('\n').map(l => l.replace(/^\s*\* ?/, '').trim()).filter(Boolean).join('\n');
}

function sorted(s: Set<string> | undefined): string[] {
    return s ? [...s].sort() : [];
}
