import type { ValidationAcceptor, ValidationChecks } from 'langium';
import type { MmClass, MmEnum, MmFeature, MmFile, ModelcAstType } from '../../../generated/langium/ast.js';
import { MetaIssues } from '../issues.js';
import { builtinType } from './builtin-types.js';
import { multiplicityOf } from './multiplicity.js';
import type { MetamodelServices } from './metamodel-module.js';

/** Structural checks of one metamodel file; each error is tied to the offending node. */
export class MetamodelValidator {

    checkFile(file: MmFile, accept: ValidationAcceptor): void {
        const ns = file.annotations.find(a => a.key === 'namespace');
        const keys = new Set(ns?.details.map(d => d.key));
        if (!ns || !keys.has('uri') || !keys.has('prefix')) {
            accept('error', `package ${file.name} needs @namespace(uri="...", prefix="...")`,
                { node: file, property: 'name', code: MetaIssues.NO_NAMESPACE });
        }
        const seen = new Set<string>();
        for (const c of file.classifiers) {
            if (seen.has(c.name) || builtinType(c.name)) {
                const what = builtinType(c.name) ? 'a built-in datatype' : 'another classifier';
                accept('error', `'${c.name}' is already the name of ${what}`,
                    { node: c, property: 'name', code: MetaIssues.DUPLICATE_CLASSIFIER });
            }
            seen.add(c.name);
        }
    }

    checkClass(cls: MmClass, accept: ValidationAcceptor): void {
        const file = cls.$container;
        cls.superTypes.forEach((name, index) => {
            const target = file.classifiers.find(c => c.name === name);
            if (!target) {
                accept('error', `unknown supertype '${name}'`, { node: cls, property: 'superTypes', index, code: MetaIssues.UNKNOWN_TYPE });
            } else if (target.$type !== 'MmClass') {
                accept('error', `supertype '${name}' is not a class`, { node: cls, property: 'superTypes', index, code: MetaIssues.WRONG_TYPE_KIND });
            }
        });
        const cycle = findCycle(cls, file);
        if (cycle) {
            accept('error', `inheritance cycle: ${cycle.join(' -> ')}`, { node: cls, property: 'name', code: MetaIssues.INHERITANCE_CYCLE });
            return;
        }
        const inherited = new Map<string, string>();
        for (const sup of ancestors(cls, file)) {
            for (const f of sup.features) {
                if (!inherited.has(f.name)) inherited.set(f.name, sup.name);
            }
        }
        const own = new Set<string>();
        for (const f of cls.features) {
            if (own.has(f.name)) {
                accept('error', `duplicate feature '${f.name}' in class ${cls.name}`, { node: f, property: 'name', code: MetaIssues.DUPLICATE_FEATURE });
            } else if (inherited.has(f.name)) {
                accept('error', `feature '${f.name}' is already inherited from ${inherited.get(f.name)}`, { node: f, property: 'name', code: MetaIssues.DUPLICATE_FEATURE });
            }
            own.add(f.name);
        }
        const ids = [...ancestors(cls, file), cls].flatMap(c => c.features.filter(f => f.modifiers.includes('id')));
        if (ids.length > 1) {
            accept('error', `class ${cls.name} has more than one id attribute (${ids.map(f => f.name).join(', ')})`,
                { node: cls, property: 'name', code: MetaIssues.BAD_ID });
        }
    }

    checkFeature(feature: MmFeature, accept: ValidationAcceptor): void {
        const file = feature.$container.$container;
        const target = file.classifiers.find(c => c.name === feature.type);
        const builtin = builtinType(feature.type);
        if (!target && !builtin) {
            accept('error', `unknown type '${feature.type}'`, { node: feature, property: 'type', code: MetaIssues.UNKNOWN_TYPE });
            return;
        }
        const isClass = target?.$type === 'MmClass';
        if (feature.kind === 'attr' && isClass) {
            accept('error', `attribute '${feature.name}' cannot have class type ${feature.type}: use val (containment) or ref`,
                { node: feature, property: 'type', code: MetaIssues.WRONG_TYPE_KIND });
        }
        if (feature.kind !== 'attr' && !isClass) {
            accept('error', `${feature.kind} '${feature.name}' needs a class type, not ${feature.type}`,
                { node: feature, property: 'type', code: MetaIssues.WRONG_TYPE_KIND });
        }
        const m = multiplicityOf(feature.multiplicity);
        if (m.upper === 0 || (m.upper !== -1 && m.upper < m.lower)) {
            accept('error', `bad multiplicity [${m.lower}..${m.upper === -1 ? '*' : m.upper}] on '${feature.name}'`,
                { node: feature, property: 'multiplicity', code: MetaIssues.BAD_MULTIPLICITY });
        }
        if (feature.modifiers.includes('id') && (feature.kind !== 'attr' || m.upper !== 1 || isClass)) {
            accept('error', `id '${feature.name}' must be a single-valued attribute`, { node: feature, property: 'name', code: MetaIssues.BAD_ID });
        }
        if (feature.opposite !== undefined) {
            this.checkOpposite(feature, accept);
        }
        if (feature.defaultValue !== undefined && !defaultFits(feature.defaultValue, builtin, target)) {
            accept('error', `default value ${feature.defaultValue} does not fit type ${feature.type}`,
                { node: feature, property: 'defaultValue', code: MetaIssues.BAD_DEFAULT });
        }
    }

    checkEnum(e: MmEnum, accept: ValidationAcceptor): void {
        const names = new Set<string>();
        const values = new Set<number>();
        let next = 0;
        for (const lit of e.literals) {
            const value = lit.value ?? next;
            if (names.has(lit.name) || values.has(value)) {
                accept('error', `duplicate literal '${lit.name}' (= ${value}) in enum ${e.name}`, { node: lit, property: 'name', code: MetaIssues.DUPLICATE_LITERAL });
            }
            names.add(lit.name);
            values.add(value);
            next = value + 1;
        }
    }

    private checkOpposite(feature: MmFeature, accept: ValidationAcceptor): void {
        const file = feature.$container.$container;
        const target = file.classifiers.find((c): c is MmClass => c.$type === 'MmClass' && c.name === feature.type);
        const other = target && [target, ...ancestors(target, file)].flatMap(c => c.features).find(f => f.name === feature.opposite);
        const owner = feature.$container;
        const pointsBack = other && (other.type === owner.name || ancestors(owner, file).some(a => a.name === other.type)) && other.opposite === feature.name;
        if (!other || other.kind === 'attr' || !pointsBack) {
            accept('error', `opposite '${feature.opposite}' of '${feature.name}' must be a reference of ${feature.type} whose opposite is '${feature.name}'`,
                { node: feature, property: 'opposite', code: MetaIssues.BAD_OPPOSITE });
        } else if (feature.kind === 'val' && other.kind === 'val') {
            accept('error', `'${feature.name}' and '${other.name}' cannot both be containments`, { node: feature, property: 'opposite', code: MetaIssues.BAD_OPPOSITE });
        }
    }
}

function defaultFits(literal: string, builtin: string | undefined, target: unknown): boolean {
    const isInt = /^-?\d+$/.test(literal);
    const isString = literal.startsWith('"');
    const isBool = literal === 'true' || literal === 'false';
    if (target && typeof target === 'object' && '$type' in target) {
        const t = target as { $type: string; literals?: Array<{ name: string }>; base?: string };
        if (t.$type === 'MmEnum') return isString && (t.literals ?? []).some(l => `"${l.name}"` === literal);
        if (t.$type === 'MmDataType') return defaultFits(literal, builtinType(t.base ?? ''), undefined);
        return false;
    }
    switch (builtin) {
        case 'String': return isString;
        case 'Int': case 'Long': case 'Double': return isInt;
        case 'Boolean': return isBool;
        default: return false;
    }
}

/** The supertypes of `cls`, transitively; stops at cycles (reported separately). */
export function ancestors(cls: MmClass, file: MmFile): MmClass[] {
    const result: MmClass[] = [];
    const seen = new Set<string>([cls.name]);
    const visit = (c: MmClass): void => {
        for (const name of c.superTypes) {
            const sup = file.classifiers.find((x): x is MmClass => x.$type === 'MmClass' && x.name === name);
            if (sup && !seen.has(sup.name)) {
                seen.add(sup.name);
                result.push(sup);
                visit(sup);
            }
        }
    };
    visit(cls);
    return result;
}

function findCycle(start: MmClass, file: MmFile): string[] | undefined {
    const path: string[] = [];
    const onPath = new Set<string>();
    const done = new Set<string>();
    const visit = (c: MmClass): string[] | undefined => {
        if (onPath.has(c.name)) {
            return c.name === start.name ? [...path, c.name] : undefined;
        }
        if (done.has(c.name)) return undefined;
        onPath.add(c.name);
        path.push(c.name);
        for (const name of c.superTypes) {
            const sup = file.classifiers.find((x): x is MmClass => x.$type === 'MmClass' && x.name === name);
            const found = sup && visit(sup);
            if (found) return found;
        }
        path.pop();
        onPath.delete(c.name);
        done.add(c.name);
        return undefined;
    };
    return visit(start);
}

export function registerMetamodelChecks(services: MetamodelServices): void {
    const validator = services.validation.MetamodelValidator;
    const checks: ValidationChecks<ModelcAstType> = {
        MmFile: validator.checkFile,
        MmClass: validator.checkClass,
        MmFeature: validator.checkFeature,
        MmEnum: validator.checkEnum
    };
    services.validation.ValidationRegistry.register(checks, validator);
}
