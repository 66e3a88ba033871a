/**
 * Compact containers for what every catalog resource holds: its parameters and its tags. A
 * catalog of 100,000 resources holds 100,000 of each, mostly of a handful of entries, where a
 * JavaScript Map or Set costs several hundred bytes of hash table apiece. Both keep entries in
 * one array searched linearly (faster than hashing at these sizes) and turn into a Map or Set
 * only when one grows large, so no resource is ever quadratic. Iteration is in insertion order
 * and a value set again keeps its place, as with Map and Set.
 */

/** Entries beyond which a table switches to a hash table. */
const SMALL = 16;

/** The list of every empty table (never changed: the first entry replaces it with a list of its own). */
const NONE: never[] = [];

/** A map of parameter names to values, as `Map<string, V>` behaves for the operations the compiler uses. */
export class ParamTable<V> {
    /** Names and values interleaved: [name0, value0, name1, value1, ...]. */
    private flat: Array<string | V> = NONE;
    private big: Map<string, V> | undefined;

    get size(): number {
        return this.big ? this.big.size : this.flat.length >> 1;
    }

    private indexOf(name: string): number {
        const flat = this.flat;
        for (let i = 0; i < flat.length; i += 2) if (flat[i] === name) return i;
        return -1;
    }

    get(name: string): V | undefined {
        if (this.big) return this.big.get(name);
        const i = this.indexOf(name);
        return i < 0 ? undefined : this.flat[i + 1] as V;
    }

    has(name: string): boolean {
        return this.big ? this.big.has(name) : this.indexOf(name) >= 0;
    }

    set(name: string, value: V): this {
        if (this.big) {
            this.big.set(name, value);
            return this;
        }
        const i = this.indexOf(name);
        if (i >= 0) {
            this.flat[i + 1] = value;
        } else if (this.flat.length >= SMALL * 2) {
            this.big = new Map(this.entries());
            this.big.set(name, value);
            this.flat = NONE;
        } else {
            // A list of the exact size (a push reserves sixteen more slots): a catalog holds one table
            // per resource, and the copying is bounded by SMALL.
            this.flat = this.flat.length === 0 ? [name, value] : this.flat.concat([name, value]);
        }
        return this;
    }

    /**
     * Fills an empty table from names and values interleaved, later entries of a name replacing
     * earlier ones in their place (as `set` one after the other would), in one list.
     */
    fill(flat: Array<string | V>): void {
        if (this.size !== 0 || flat.length > SMALL * 2) {
            for (let i = 0; i < flat.length; i += 2) this.set(flat[i] as string, flat[i + 1] as V);
            return;
        }
        for (let i = 2; i < flat.length; i += 2) {
            for (let j = 0; j < i; j += 2) {
                if (flat[j] === flat[i]) {
                    // A name given twice: its first place, its last value.
                    flat[j + 1] = flat[i + 1];
                    flat.splice(i, 2);
                    i -= 2;
                    break;
                }
            }
        }
        if (flat.length > 0) this.flat = flat;
    }

    clear(): void {
        this.flat = NONE;
        this.big = undefined;
    }

    delete(name: string): boolean {
        if (this.big) return this.big.delete(name);
        const i = this.indexOf(name);
        if (i < 0) return false;
        this.flat.splice(i, 2);
        return true;
    }

    *keys(): IterableIterator<string> {
        if (this.big) { yield* this.big.keys(); return; }
        const flat = this.flat;
        // (No caller changes a table while iterating it.)
        for (let i = 0; i < flat.length; i += 2) yield flat[i] as string;
    }

    *values(): IterableIterator<V> {
        if (this.big) { yield* this.big.values(); return; }
        const flat = this.flat;
        for (let i = 0; i < flat.length; i += 2) yield flat[i + 1] as V;
    }

    *entries(): IterableIterator<[string, V]> {
        if (this.big) { yield* this.big.entries(); return; }
        const flat = this.flat;
        for (let i = 0; i < flat.length; i += 2) yield [flat[i] as string, flat[i + 1] as V];
    }

    [Symbol.iterator](): IterableIterator<[string, V]> {
        return this.entries();
    }

    /** Calls `f` for each entry in order, without building entry pairs. */
    forEach(f: (value: V, name: string) => void): void {
        if (this.big) { this.big.forEach(f); return; }
        const flat = this.flat;
        for (let i = 0; i < flat.length; i += 2) f(flat[i + 1] as V, flat[i] as string);
    }
}

/** A set of tags (lower-case strings), as `Set<string>` behaves for the operations the compiler uses. */
export class TagSet {
    private list: string[] = NONE;
    private big: Set<string> | undefined;
    /** Set once its resource is in the catalog: from then on a change counts in `TagSet.changes`. */
    private sealed = false;

    /**
     * How many times a sealed set has changed (in this thread): the catalog's index of resources
     * by tag is extended with new resources while this stays the same, and rebuilt when it moves.
     */
    static changes = 0;

    /** Marks the set as its catalog's (see `changes`). */
    seal(): void {
        this.sealed = true;
    }

    get size(): number {
        return this.big ? this.big.size : this.list.length;
    }

    has(tag: string): boolean {
        return this.big ? this.big.has(tag) : this.list.includes(tag);
    }

    add(tag: string): this {
        if (this.sealed && !this.has(tag)) TagSet.changes++;
        if (this.big) {
            this.big.add(tag);
        } else if (!this.list.includes(tag)) {
            if (this.list.length >= SMALL) {
                this.big = new Set(this.list);
                this.big.add(tag);
                this.list = NONE;
            } else {
                // Exact size, as ParamTable's lists.
                this.list = this.list.length === 0 ? [tag] : this.list.concat(tag);
            }
        }
        return this;
    }

    /** The tags in order (not to be changed). */
    ordered(): readonly string[] {
        return this.big ? [...this.big] : this.list;
    }

    /**
     * Adds tags, in order, skipping those it has. `owned`: the caller made `tags` for this set
     * alone (exactly as long as it is) and hands it over.
     */
    addList(tags: readonly string[], owned = false): void {
        if (this.sealed && tags.some(t => !this.has(t))) TagSet.changes++;
        if (owned && this.size === 0 && tags.length <= SMALL) {
            this.list = withoutDuplicates(tags);
            return;
        }
        if (this.big || this.list.length + tags.length > SMALL) {
            for (const t of tags) this.add(t);
            return;
        }
        let fresh: string[] | undefined;
        for (const t of tags) {
            if (this.list.includes(t) || fresh?.includes(t)) continue;
            (fresh ??= []).push(t);
        }
        if (fresh) this.list = this.list.length === 0 ? fresh : this.list.concat(fresh);
    }

    /** Adds every tag of another set. */
    addAll(other: TagSet): void {
        if (this.sealed && [...other].some(t => !this.has(t))) TagSet.changes++;
        if (other.big || this.big || this.list.length + other.list.length > SMALL) {
            for (const t of other) this.add(t);
            return;
        }
        if (this.list.length === 0) {
            // Lists are never changed in place: the other set's can be shared until one adds to it.
            this.list = other.list;
            return;
        }
        this.addList(other.list);
    }

    values(): IterableIterator<string> {
        return this.big ? this.big.values() : this.list.values();
    }

    [Symbol.iterator](): IterableIterator<string> {
        return this.values();
    }
}

/** The list with only the first of equal entries, exactly as long as that (the list itself when it has none). */
function withoutDuplicates(list: readonly string[]): string[] {
    let unique = list.length;
    for (let i = 1; i < list.length; i++) if (list.lastIndexOf(list[i], i - 1) >= 0) unique--;
    if (unique === list.length) return list as string[];
    const out = new Array<string>(unique);
    let n = 0;
    for (let i = 0; i < list.length; i++) if (list.lastIndexOf(list[i], i - 1) < 0 || i === 0) out[n++] = list[i];
    return out;
}
