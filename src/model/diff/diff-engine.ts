import { stringifyJson } from '../json-text.js';
import { isMany, type MFeature } from '../metamodel.js';
import type { Model } from '../model.js';
import type { ModelObject, ModelRef } from '../model-object.js';
import type { PackageIndex } from '../package-index.js';
import type { BindingOrigin, DiffProfile, OctocatalogFields, Provenance } from './diff-profile.js';
import { genericProvenance } from './diff-profiles.js';
import { lineDiff } from './line-diff.js';

export type ChangeKind = 'added' | 'removed' | 'changed' | 'moved';

/** One difference, before it is written as a Diff model `Change`. */
export interface ChangeRecord {
    readonly kind: ChangeKind;
    readonly path: string;
    readonly objectType: string;
    readonly matchKey?: string;
    readonly feature?: string;
    readonly oldValue?: unknown;
    readonly newValue?: unknown;
    readonly oldIndex?: number;
    readonly newIndex?: number;
    readonly textDiff?: readonly string[];
    readonly redacted: boolean;
    readonly oldLocation?: Provenance;
    readonly newLocation?: Provenance;
    readonly oldBinding?: BindingOrigin;
    readonly newBinding?: BindingOrigin;
    readonly octocatalog?: OctocatalogFields;
}

export interface DiffResult {
    readonly changes: readonly ChangeRecord[];
    /** Objects found on both sides. */
    readonly matched: number;
}

export const REDACTED = '[redacted]';

interface Side {
    readonly obj: ModelObject;
    readonly container: ModelObject | undefined;
}

/** A matched pair of objects that changes below it are reported against. */
interface Anchor {
    readonly oldObj: ModelObject;
    readonly newObj: ModelObject;
    /** Feature names and list keys from the anchor down to the change. */
    readonly structure: readonly string[];
}

interface Context {
    readonly path: string;
    /** The nearest matched ancestor that is a unit of review: its key and location stand for its contents. */
    readonly keyed?: Anchor & { readonly key: string };
    /** The nearest ancestor octocatalog-diff names (a catalog resource). */
    readonly owner?: Anchor;
}

/**
 * Compares two models of one package. Objects in lists are matched by id, then by the profile's
 * natural key, then by `name`; the rest by their order among unkeyed objects of the same class.
 * Changes come in document order: removals where the old element stood, additions where the new
 * one stands. Pure: the result depends only on the two models and the profile.
 */
export function diffModels(a: Model, b: Model, profile: DiffProfile): DiffResult {
    return new DiffWalker(a.index, profile).run(a.root, b.root);
}

class DiffWalker {
    private readonly changes: ChangeRecord[] = [];
    private matched = 0;

    constructor(private readonly index: PackageIndex, private readonly profile: DiffProfile) {}

    run(oldRoot: ModelObject, newRoot: ModelObject): DiffResult {
        this.compareMatched({ obj: oldRoot, container: undefined }, { obj: newRoot, container: undefined }, { path: '' });
        return { changes: this.changes, matched: this.matched };
    }

    private compareMatched(oldSide: Side, newSide: Side, ctx: Context): void {
        this.matched++;
        const o = oldSide.obj;
        const n = newSide.obj;
        if (o.$type !== n.$type) {
            this.objectChange('removed', oldSide, ctx);
            this.objectChange('added', newSide, ctx);
            return;
        }
        const key = this.keyFor(o);
        const anchor = key !== undefined && (this.profile.anchors?.has(o.$type) ?? true);
        const keyed = anchor ? { oldObj: o, newObj: n, structure: [], key } : ctx.keyed;
        const owner = this.profile.octocatalog?.(o, []) ? { oldObj: o, newObj: n, structure: [] } : ctx.owner;
        for (const f of this.index.allFeatures(o.$type)) {
            if (this.profile.ignored?.has(`${o.$type}.${f.name}`)) continue;
            const sub = descend({ path: `${ctx.path}/${f.name}`, ...(keyed ? { keyed } : {}), ...(owner ? { owner } : {}) }, f.name);
            if (f.kind === 'containment') this.compareContainment(f, o, n, sub);
            else this.compareValue(f, oldSide, newSide, sub);
        }
    }

    private compareValue(f: MFeature, oldSide: Side, newSide: Side, ctx: Context): void {
        const ov = normalise(oldSide.obj[f.name], f);
        const nv = normalise(newSide.obj[f.name], f);
        if (same(ov, nv)) return;
        const secret = this.isSecret(oldSide.obj, f.name, oldSide.container) || this.isSecret(newSide.obj, f.name, newSide.container)
            || containsSensitive(ov) || containsSensitive(nv);
        const texts = !secret && typeof ov === 'string' && typeof nv === 'string' && (ov.includes('\n') || nv.includes('\n'));
        this.push({
            kind: ov === undefined ? 'added' : nv === undefined ? 'removed' : 'changed',
            path: ctx.path,
            objectType: oldSide.obj.$type,
            ...(ctx.keyed ? { matchKey: ctx.keyed.key } : {}),
            feature: f.name,
            ...(ov !== undefined ? { oldValue: secret ? REDACTED : ov } : {}),
            ...(nv !== undefined ? { newValue: secret ? REDACTED : nv } : {}),
            ...(texts ? { textDiff: lineDiff(ov, nv) } : {}),
            redacted: secret,
            ...this.locations(oldSide.obj, newSide.obj, ctx)
        }, ctx);
    }

    private compareContainment(f: MFeature, o: ModelObject, n: ModelObject, ctx: Context): void {
        if (!isMany(f)) {
            const ov = o[f.name] as ModelObject | undefined;
            const nv = n[f.name] as ModelObject | undefined;
            if (ov && nv) this.compareMatched({ obj: ov, container: o }, { obj: nv, container: n }, ctx);
            else if (ov) this.objectChange('removed', { obj: ov, container: o }, ctx);
            else if (nv) this.objectChange('added', { obj: nv, container: n }, ctx);
            return;
        }
        const olds = (o[f.name] as ModelObject[] | undefined) ?? [];
        const news = (n[f.name] as ModelObject[] | undefined) ?? [];
        const oldKeys = this.keysOf(olds);
        const newKeys = this.keysOf(news);
        const oldByKey = new Map(oldKeys.map((k, i) => [k, i]));
        const newByKey = new Map(newKeys.map((k, j) => [k, j]));
        const pairs = oldKeys.flatMap((k, i) => newByKey.has(k) ? [[i, newByKey.get(k)!] as const] : []);
        const ordered = !this.profile.unordered?.has(`${o.$type}.${f.name}`);
        const stay = ordered ? longestIncreasing(pairs.map(([, j]) => j)) : undefined;
        const moved = new Set(stay ? pairs.filter((_, p) => !stay.has(p)).map(([i]) => i) : []);
        const at = (key: string): Context => descend({ ...ctx, path: `${ctx.path}[${key}]` }, key);
        let nextOld = 0;
        const removalsBefore = (limit: number): void => {
            for (; nextOld < limit; nextOld++) {
                if (!newByKey.has(oldKeys[nextOld])) this.objectChange('removed', { obj: olds[nextOld], container: o }, at(oldKeys[nextOld]), nextOld);
            }
        };
        news.forEach((child, j) => {
            const i = oldByKey.get(newKeys[j]);
            if (i === undefined) {
                this.objectChange('added', { obj: child, container: n }, at(newKeys[j]), undefined, j);
                return;
            }
            if (!moved.has(i)) removalsBefore(i + 1);
            const c = at(newKeys[j]);
            if (moved.has(i)) {
                this.push({ kind: 'moved', path: c.path, objectType: olds[i].$type, matchKey: newKeys[j], oldIndex: i, newIndex: j, redacted: false, ...this.locations(olds[i], child, c) }, c);
            }
            this.compareMatched({ obj: olds[i], container: o }, { obj: child, container: n }, c);
        });
        removalsBefore(olds.length);
    }

    private objectChange(kind: 'added' | 'removed', side: Side, ctx: Context, oldIndex?: number, newIndex?: number): void {
        const value = this.redactObject(side.obj, side.container);
        const key = this.keyFor(side.obj) ?? ctx.keyed?.key;
        this.push({
            kind,
            path: ctx.path,
            objectType: side.obj.$type,
            ...(key !== undefined ? { matchKey: key } : {}),
            ...(kind === 'removed' ? { oldValue: value.value } : { newValue: value.value }),
            ...(oldIndex !== undefined ? { oldIndex } : {}),
            ...(newIndex !== undefined ? { newIndex } : {}),
            redacted: value.redacted,
            ...(kind === 'removed' ? this.locations(side.obj, undefined, ctx) : this.locations(undefined, side.obj, ctx))
        }, ctx, side.obj);
    }

    /** Adds octocatalog-diff's fields when the change is of, or inside, an object it names. */
    private push(change: ChangeRecord, ctx: Context, whole?: ModelObject): void {
        const octo = (whole && this.profile.octocatalog?.(whole, []))
            ?? (ctx.owner && this.profile.octocatalog?.(ctx.owner.oldObj, ctx.owner.structure));
        this.changes.push(octo ? { ...change, octocatalog: octo } : change);
    }

    /** List keys: natural keys where there are some, else `Class#n` among the unkeyed of a class. */
    private keysOf(list: readonly ModelObject[]): string[] {
        const seen = new Map<string, number>();
        const unkeyed = new Map<string, number>();
        return list.map(c => {
            let k = this.keyFor(c);
            if (k === undefined) {
                const n = (unkeyed.get(c.$type) ?? 0) + 1;
                unkeyed.set(c.$type, n);
                k = `${c.$type}#${n}`;
            }
            const n = (seen.get(k) ?? 0) + 1;
            seen.set(k, n);
            return n === 1 ? k : `${k}#${n}`;
        });
    }

    private keyFor(obj: ModelObject): string | undefined {
        const idf = this.index.idFeature(obj.$type);
        if (idf && obj[idf.name] !== undefined) return String(obj[idf.name]);
        const fromProfile = this.profile.keys?.[obj.$type]?.(obj);
        if (fromProfile !== undefined) return fromProfile;
        return typeof obj.name === 'string' ? obj.name : undefined;
    }

    private isSecret(obj: ModelObject, feature: string, container: ModelObject | undefined): boolean {
        return this.profile.isSecret?.(obj, feature, container) ?? false;
    }

    /** A copy of an added or removed object with every secret value replaced. */
    private redactObject(obj: ModelObject, container: ModelObject | undefined): { value: ModelObject; redacted: boolean } {
        let redacted = false;
        const copy = (o: ModelObject, c: ModelObject | undefined): ModelObject => {
            const out: Record<string, unknown> = { $type: o.$type };
            for (const f of this.index.allFeatures(o.$type)) {
                const v = o[f.name];
                if (v === undefined) continue;
                if (f.kind === 'containment') {
                    out[f.name] = Array.isArray(v) ? (v as ModelObject[]).map(x => copy(x, o)) : copy(v as ModelObject, o);
                } else if (this.isSecret(o, f.name, c) || containsSensitive(v)) {
                    redacted = true;
                    out[f.name] = REDACTED;
                } else {
                    out[f.name] = v;
                }
            }
            return out as ModelObject;
        };
        return { value: copy(obj, container), redacted };
    }

    /** Where each side was written: the object's own provenance, else its keyed ancestor's. */
    private locations(o: ModelObject | undefined, n: ModelObject | undefined, ctx: Context): Partial<ChangeRecord> {
        const where = this.profile.provenance ?? genericProvenance;
        const ol = o && (where(o) ?? (ctx.keyed && where(ctx.keyed.oldObj)));
        const nl = n && (where(n) ?? (ctx.keyed && where(ctx.keyed.newObj)));
        const ob = o && this.profile.binding?.(o);
        const nb = n && this.profile.binding?.(n);
        return { ...(ol ? { oldLocation: ol } : {}), ...(nl ? { newLocation: nl } : {}), ...(ob ? { oldBinding: ob } : {}), ...(nb ? { newBinding: nb } : {}) };
    }
}

/** One step down: the step joins the structure of both anchors. */
function descend(ctx: Context, step: string): Context {
    const extend = <A extends Anchor>(a: A | undefined): A | undefined => a && { ...a, structure: [...a.structure, step] };
    const keyed = extend(ctx.keyed);
    const owner = extend(ctx.owner);
    return { path: ctx.path, ...(keyed ? { keyed } : {}), ...(owner ? { owner } : {}) };
}

/** Empty lists and default values count as unset, as they do on the wire; references compare by fragment. */
function normalise(v: unknown, f: MFeature): unknown {
    if (v === undefined || (Array.isArray(v) && v.length === 0 && isMany(f))) return undefined;
    if (v === null) return f.kind === 'attribute' ? null : undefined;
    if (f.kind === 'reference') return isMany(f) ? (v as ModelRef[]).map(r => r.$ref) : (v as ModelRef).$ref;
    if (f.defaultValue !== undefined && String(v) === f.defaultValue) return undefined;
    return v;
}

function same(a: unknown, b: unknown): boolean {
    if (a === b) return true;
    if (a === undefined || b === undefined) return false;
    return stringifyJson(a) === stringifyJson(b);
}

function containsSensitive(v: unknown): boolean {
    if (typeof v !== 'object' || v === null) return false;
    if (Array.isArray(v)) return v.some(containsSensitive);
    if ((v as Record<string, unknown>).__ptype === 'Sensitive') return true;
    return Object.values(v).some(containsSensitive);
}

/** Positions (into `xs`) of one longest strictly increasing subsequence: the elements that did not move. */
function longestIncreasing(xs: readonly number[]): Set<number> {
    const tails: number[] = [];
    const prev = new Array<number>(xs.length).fill(-1);
    for (let i = 0; i < xs.length; i++) {
        let lo = 0;
        let hi = tails.length;
        while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (xs[tails[mid]] < xs[i]) lo = mid + 1;
            else hi = mid;
        }
        if (lo > 0) prev[i] = tails[lo - 1];
        tails[lo] = i;
    }
    const result = new Set<number>();
    for (let k = tails.length > 0 ? tails[tails.length - 1] : -1; k >= 0; k = prev[k]) result.add(k);
    return result;
}
