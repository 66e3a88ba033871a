import { formatValue, PClassType, PResourceType } from '../types/index.js';
import type { PuppetValue } from '../values/index.js';
import { PuppetFailure, RuntimeFailure, type Where } from './errors.js';
import { CatalogIssues } from './issues.js';
import { toCatalogJson } from './normalize.js';
import type { CatalogResource } from './resource.js';

/** What Puppet accepts as a tag: letters and digits of any script, `_`, and after the first `:`, `.`, `-`. */
const UNICODE_TAG = /^[\p{L}\p{N}_][\p{L}\p{N}_:.-]*$/u;
/** The same for ASCII text, where a letter is A-Z or a-z and a digit 0-9. */
const ASCII_TAG = /^[A-Za-z0-9_][A-Za-z0-9_:.-]*$/;

/**
 * Whether Puppet accepts `name` as a tag. Tags are nearly always ASCII: the Unicode pattern
 * (whose letter and digit classes V8 builds on first use in every process) answers only for
 * text with other characters.
 */
export function isValidTag(name: string): boolean {
    return ASCII_TAG.test(name) || (/[^\x00-\x7f]/.test(name) && UNICODE_TAG.test(name));
}

/** `a::b` -> tags a::b, a, b. */
export function nameTags(name: string): readonly string[] {
    let tags = nameTagCache.get(name);
    if (!tags) {
        const n = name.toLowerCase();
        const segs = n.split('::');
        tags = segs.length > 1 ? [n, ...segs] : [n];
        // Names are those of types and classes (and tag values): a bounded set in any one environment.
        if (nameTagCache.size > 10_000) nameTagCache.clear();
        nameTagCache.set(name, tags);
    }
    return tags;
}

const nameTagCache = new Map<string, readonly string[]>();

const NO_TAGS: readonly string[] = [];

/**
 * Puppet's Tagging#tag: each value (downcased) with its '::' segments; an invalid one is a
 * ParseError at the place that set it (the resource, or the override).
 */
export function addTags(r: CatalogResource, value: PuppetValue | undefined, where: Where | undefined): void {
    r.tags.addList(tagsOf(value, where));
}

/** The tags `addTags` adds for a value, in order. */
export function tagsOf(value: PuppetValue | undefined, where: Where | undefined): readonly string[] {
    if (value === undefined || value === null) return NO_TAGS;
    const out: string[] = [];
    for (const t of Array.isArray(value) ? value.flat(Infinity as 1) : [value]) {
        if (t === null) continue;
        const name = (typeof t === 'string' ? t : tagText(t)).toLowerCase();
        if (!isValidTag(name)) throw invalidTag(name, where);
        for (const x of nameTags(name)) out.push(x);
    }
    return out;
}

/**
 * A parameter value as the 3.x resource holds it, in text: a resource or class reference is a
 * Puppet::Resource there, whose text is `Type[title]` (not the type's `Type['title']`).
 */
function tagText(v: PuppetValue): string {
    const json = v instanceof PResourceType || v instanceof PClassType ? toCatalogJson(v) : undefined;
    return typeof json === 'string' ? json : formatValue(v);
}

/** "Invalid tag 'x'": a ParseError with a location when a resource's parameter set it, a plain failure from the tag function. */
export function invalidTag(name: string, where: Where | undefined): Error {
    const message = CatalogIssues.EVAL_INVALID_TAG.message({ name });
    return where ? new PuppetFailure(message + ` (file: ${where.file}, line: ${where.line})`, { file: where.file, line: where.line }, 'Puppet::Error', 'Puppet::ParseError')
        : new RuntimeFailure(message);
}

