import type { AttributeOperation, Expression, Parameter } from '../../../generated/langium/ast.js';
import { capitalize, PClassType, PResourceType, PStoredReference } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { EvalIssue, PuppetFailure, RuntimeFailure, whereSuffix, type Where } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { Source } from '../code-source.js';
import type { CatalogResource, ParamValue } from '../resource.js';
import type { Attr } from '../runtime.js';
import type { Scope } from '../scope.js';
import type { OpsState } from './state.js';
import { addTags, isValidTag, nameTags, tagsOf } from '../tags.js';

export { isValidTag, nameTags };

const NO_TAGS: readonly string[] = [];

/** `a::b` -> tags a::b, a, b. */
/** The tags a title gives: itself and its `::` segments, lower case, when it is a valid tag. */
export function titleTags(title: string): string[] {
    if (!isValidTag(title)) return [];
    return [title, ...(title.includes('::') ? title.split('::') : [])].map(t => t.toLowerCase());
}



/** The attribute operations' values; `duplicates` keeps a name given twice (an override reports it itself). */
export function evalAttrs(s: OpsState, ops: readonly AttributeOperation[], scope: Scope, stmt: Expression, duplicates = false): Attr[] {
    const out: Attr[] = [];
    for (const op of ops) {
        if (op.$type === 'AttributeAssign') {
            const value = stored(s, s.ev.evaluate(op.value, scope), op, `'${op.operator}' expression`);
            addAttr(s, out, { name: op.name, value, plus: op.operator === '+>', where: s.ev.where(op) }, stmt, duplicates);
        } else {
            const h = s.ev.evaluate(op.value, scope);
            if (!(h instanceof Map)) throw new RuntimeFailure(CatalogIssues.EVAL_SPLAT_NOT_HASH.message());
            for (const [k, v] of h) addAttr(s, out, { name: String(k), value: stored(s, v, op, 'Object'), plus: false, where: s.ev.where(op) }, stmt, duplicates);
        }
    }
    return out;
}

function stored(s: OpsState, v: PuppetValue, op: AttributeOperation, label: string): PuppetValue {
    try {
        return storedValue(v);
    } catch (e) {
        throw s.ev.locate(e, op, label);
    }
}

/** A parameter's default as the resource keeps it; a failure is placed at the parameter's line. */
export function storedDefault(s: OpsState, v: PuppetValue, p: Parameter): PuppetValue {
    try {
        return storedValue(v);
    } catch (e) {
        if (!(e instanceof RuntimeFailure)) throw e;
        // Puppet's exceptwrap: a Puppet::Error with the parameter's file and line.
        const at = s.ev.whereLine(p), where = { file: at.file, line: at.line };
        throw new PuppetFailure(e.message + whereSuffix(where), where, 'Puppet::Error', 'Puppet::ParseError');
    }
}

/**
 * A value as a resource keeps it (Puppet converts a parameter's value to its 3.x form): resource
 * and class references, at any depth and as hash keys too, become stored references, which print
 * as `Type[title]` and name a class by its capitalized name. A reference needs a title.
 */
export function storedValue(v: PuppetValue): PuppetValue {
    if (Array.isArray(v)) {
        let out: PuppetValue[] | undefined;
        for (let i = 0; i < v.length; i++) {
            const x = storedValue(v[i]);
            if (x !== v[i]) (out ??= v.slice())[i] = x;
        }
        return out ?? v;
    }
    if (v instanceof Map) {
        let changed = false;
        const out = new Map<PuppetValue, PuppetValue>();
        for (const [k, x] of v) {
            const [k2, x2] = [storedValue(k), storedValue(x)];
            if (k2 !== k || x2 !== x) changed = true;
            out.set(k2, x2);
        }
        return changed ? out : v;
    }
    if (!(v instanceof PResourceType || v instanceof PClassType) || v instanceof PStoredReference) return v;
    const className = v instanceof PClassType ? v.className : v.typeName === null ? undefined : /^(::)?[Cc]lass$/.test(v.typeName) ? v.title : undefined;
    if (className === null) throw new RuntimeFailure(CatalogIssues.EVAL_NOT_A_REFERENCE_TEXT.message({ text: '"class"' }));
    if (className !== undefined) return new PStoredReference('Class', capitalize(className.replace(/^::/, '').toLowerCase()));
    const r = v as PResourceType;
    if (r.typeName === null) throw new RuntimeFailure(CatalogIssues.EVAL_STORED_UNTYPED_REFERENCE.message());
    return new PStoredReference(capitalize(r.typeName.replace(/^::/, '').toLowerCase()), r.title ?? '');
}

function addAttr(s: OpsState, out: Attr[], a: Attr, stmt: Expression, duplicates: boolean): void {
    // A handful of attributes per statement: a scan is cheaper than a set.
    if (!duplicates) for (const o of out) if (o.name === a.name) throw EvalIssue.of(CatalogIssues.EVAL_DUPLICATE_ATTRIBUTE, { name: a.name }, s.ev.where(stmt));
    out.push(a);
}

/** A resource's own tags, its container's, those of its `tag` parameter, then `after` (its title's), in that order. */
export function tagResource(r: CatalogResource, scope: Scope, own: readonly string[], after: readonly string[] = []): void {
    // One list made in order and added at once (a catalog holds a tag list per resource).
    const container = scope.resource;
    r.tags.addList(own.concat(container ? container.tags.ordered() : NO_TAGS, tagsOf(r.param('tag'), r.where), after), true);
}

/** Sets the parameters a declaration gives, in order, on a resource that has none yet. */
export function declareParams(r: CatalogResource, attrs: readonly Attr[], source: Source): void {
    // Exactly as long as it must be (the table keeps the list).
    const flat = new Array<string | ParamValue>(attrs.length * 2);
    for (let i = 0; i < attrs.length; i++) {
        const a = attrs[i];
        for (let j = 0; j < i; j++) {
            if (attrs[j].name === a.name) {
                // A name given twice is set in turn (`+>` appends to the first): not in one go.
                for (const x of attrs) setParam(r, x, 'declared', source);
                return;
            }
        }
        flat[2 * i] = a.name;
        flat[2 * i + 1] = sharedParam(a, 'declared', source);
    }
    r.params.fill(flat);
}

/** Sets (or, with `+>`, appends to) a parameter. */
export function setParam(r: CatalogResource, a: Attr, origin: 'declared' | 'override', source: Source): void {
    if (a.name === 'tag' && origin === 'override') addTags(r, a.value, a.where);
    if (a.plus) {
        const prev = r.params.get(a.name);
        // An override's `+>` is Puppet's override_parameter: `[current, new].flatten`, an undef current kept.
        if (prev !== undefined && (origin === 'override' || prev.value !== null)) {
            const add: PuppetValue[] = Array.isArray(a.value) ? a.value : [a.value];
            const value = origin === 'override' ? [prev.value, a.value].flat(Infinity as 1) : [...(Array.isArray(prev.value) ? prev.value : [prev.value]), ...add];
            r.params.set(a.name, { value, ...(a.unlocated ? {} : { where: a.where }), origin, source });
            return;
        }
    }
    r.params.set(a.name, sharedParam(a, origin, source));
}

/**
 * The parameter value an attribute gives, shared with the previous resource it gave the same
 * value from the same place and code (`ensure => file` in a loop declaring thousands of files):
 * parameter values are never changed in place, and the catalog holds one per resource and attribute.
 */
export function sharedParam(a: Attr, origin: 'declared' | 'override', source: Source): ParamValue {
    const last = lastParam.get(a.where);
    if (last && last.value === a.value && last.origin === origin && last.source === source) return last;
    const made: ParamValue = { value: a.value, ...(a.unlocated ? {} : { where: a.where }), origin, source };
    lastParam.set(a.where, made);
    return made;
}

/** By the attribute's place (one object per attribute expression and compile). */
const lastParam = new WeakMap<Where, ParamValue>();

/** $module_name and $caller_module_name of a class or define body. */
export function setModuleNames(scope: Scope): void {
    scope.setLocal('module_name', scope.moduleName);
    scope.setLocal('caller_module_name', scope.callerModuleName);
}
