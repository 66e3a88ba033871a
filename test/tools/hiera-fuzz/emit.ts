/**
 * The generator's value model and its writers: YAML (in many of the styles Psych reads, with
 * anchors, aliases, merge keys and raw scalars that only YAML has), JSON and HOCON.
 */
import type { Rng } from './rng.ts';

export type V =
    | { readonly t: 'str'; readonly v: string }
    | { readonly t: 'int'; readonly v: number }
    | { readonly t: 'float'; readonly v: number }
    | { readonly t: 'bool'; readonly v: boolean }
    | { readonly t: 'null' }
    | { readonly t: 'arr'; readonly items: readonly V[] }
    | { readonly t: 'map'; readonly entries: readonly (readonly [MapKey, V])[] }
    /** A YAML scalar written as is (octal, dates, binary, symbols...); other formats write `alt`. */
    | { readonly t: 'raw'; readonly yaml: string; readonly alt: V };

/** A hash key: a string, or (YAML only) a raw scalar such as `1` or `true`. */
export type MapKey = string | { readonly raw: string };

export const str = (v: string): V => ({ t: 'str', v });
export const int = (v: number): V => ({ t: 'int', v });
export const arr = (items: readonly V[]): V => ({ t: 'arr', items });
export const map = (entries: readonly (readonly [MapKey, V])[]): V => ({ t: 'map', entries });

const PLAIN_SAFE = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const YAML_WORDS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/;

/** Writes YAML with randomly chosen (but valid) styles. */
export class YamlWriter {
    private anchors: { name: string; v: V }[] = [];
    private counter = 0;
    private readonly rng: Rng;

    constructor(rng: Rng) {
        this.rng = rng;
    }

    document(top: V): string {
        this.anchors = [];
        const head = this.rng.chance(0.7) ? '---\n' : '';
        if (top.t !== 'map' || top.entries.length === 0) return `${head}${this.inline(top)}\n`;
        return `${head}${this.block(top, '')}`;
    }

    /** A value in block context, as the text after `key:` (with its leading space or newline). */
    private valueAfterKey(v: V, indent: string): string {
        const anchored = this.maybeAnchor(v);
        if (anchored !== undefined) return ` ${anchored}`;
        const prefix = this.anchorPrefix(v);
        if (v.t === 'map' && v.entries.length > 0 && this.rng.chance(0.8)) return `${prefix}\n${this.block(v, `${indent}  `)}`.replace(/\n$/, '');
        if (v.t === 'arr' && v.items.length > 0 && this.rng.chance(0.8)) {
            const inner = this.rng.chance(0.5) ? indent : `${indent}  `;
            return `${prefix}\n${v.items.map(x => `${inner}-${this.itemValue(x, `${inner}  `)}`).join('\n')}`;
        }
        if (v.t === 'str' && v.v.includes('\n') && this.rng.chance(0.6) && !/^\s|\s\n|\n\s|[^\n\S]$/.test(v.v)) {
            const body = v.v.endsWith('\n') ? v.v.slice(0, -1) : v.v;
            const chomp = v.v.endsWith('\n') ? '' : '-';
            return `${prefix} |${chomp}\n${body.split('\n').map(l => `${indent}  ${l}`).join('\n')}`;
        }
        return `${prefix} ${this.inline(v)}`;
    }

    private itemValue(v: V, indent: string): string {
        if (v.t === 'map' && v.entries.length > 0 && this.rng.chance(0.6)) {
            const lines = this.block(v, indent).replace(/\n$/, '').split('\n');
            return ` ${lines[0].slice(indent.length)}${lines.length > 1 ? `\n${lines.slice(1).join('\n')}` : ''}`;
        }
        return this.valueAfterKey(v, indent);
    }

    private block(v: V & { t: 'map' }, indent: string): string {
        let out = '';
        for (const [k, x] of v.entries) {
            out += `${indent}${this.key(k)}:${this.valueAfterKey(x, indent)}\n`;
        }
        return out;
    }

    private maybeAnchor(v: V): string | undefined {
        const same = this.anchors.filter(a => a.v === v);
        if (same.length > 0) return `*${same[0].name}`;
        return undefined;
    }

    private anchorPrefix(v: V): string {
        if ((v.t === 'map' || v.t === 'arr' || v.t === 'str') && this.rng.chance(0.08)) {
            const name = `a${++this.counter}`;
            this.anchors.push({ name, v });
            return ` &${name}`;
        }
        return '';
    }

    key(k: MapKey): string {
        if (typeof k !== 'string') return k.raw;
        return this.scalarString(k, true);
    }

    inline(v: V): string {
        switch (v.t) {
            case 'str': return this.scalarString(v.v, false);
            case 'int': return this.rng.chance(0.1) && v.v >= 0 ? `0x${v.v.toString(16)}` : String(v.v);
            case 'float': return Number.isInteger(v.v) ? `${v.v}.0` : String(v.v);
            case 'bool': return this.rng.pick(v.v ? ['true', 'true', 'True', 'TRUE'] : ['false', 'false', 'False']);
            case 'null': return this.rng.pick(['~', 'null', 'Null', '']);
            case 'raw': return v.yaml;
            case 'arr': return `[${v.items.map(x => this.inline(x)).join(', ')}]`;
            case 'map': return `{${v.entries.map(([k, x]) => `${this.key(k)}: ${this.inline(x)}`).join(', ')}}`;
        }
    }

    private scalarString(s: string, isKey: boolean): string {
        const plainOk = PLAIN_SAFE.test(s) && !YAML_WORDS.test(s) && !/^[0-9.+-]/.test(s);
        if (plainOk && this.rng.chance(0.6)) return s;
        if (!s.includes('\n') && !/[\\\x00-\x1f]/.test(s) && this.rng.chance(isKey ? 0.5 : 0.4)) return `'${s.replace(/'/g, "''")}'`;
        return JSON.stringify(s);
    }
}

/** JSON as json_data reads it. */
export function toJson(v: V, rng: Rng): string {
    const plain = (x: V): unknown => {
        switch (x.t) {
            case 'str': case 'int': case 'bool': return x.v;
            case 'float': return x.v;
            case 'null': return null;
            case 'raw': return plain(x.alt);
            case 'arr': return x.items.map(plain);
            case 'map': return Object.fromEntries(x.entries.map(([k, y]) => [typeof k === 'string' ? k : k.raw, plain(y)]));
        }
    };
    // Floats keep a fraction so Ruby reads them as Float.
    const text = JSON.stringify(plain(v), (_k, val: unknown) => val, rng.chance(0.5) ? 2 : undefined);
    return `${fixFloats(text, v)}\n`;
}

function fixFloats(text: string, v: V): string {
    const floats = new Set<number>();
    const walk = (x: V): void => {
        if (x.t === 'float' && Number.isInteger(x.v)) floats.add(x.v);
        if (x.t === 'arr') x.items.forEach(walk);
        if (x.t === 'map') x.entries.forEach(([, y]) => walk(y));
        if (x.t === 'raw') walk(x.alt);
    };
    walk(v);
    if (floats.size === 0) return text;
    // Integral floats are rare; writing them with `.0` everywhere they appear as bare numbers is enough.
    return text.replace(/(?<=[:\[,]\s*)(-?\d+)(?=\s*[,\]}\n])/g, m => (floats.has(Number(m)) ? `${m}.0` : m));
}

/** HOCON as hocon_data reads it (objects with `=` or `:`, quoted strings, comments). */
export function toHocon(v: V, rng: Rng): string {
    const key = (k: MapKey): string => {
        const s = typeof k === 'string' ? k : k.raw;
        return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(s) && rng.chance(0.5) ? s : JSON.stringify(s);
    };
    const val = (x: V, indent: string): string => {
        switch (x.t) {
            case 'str': return JSON.stringify(x.v);
            case 'int': return String(x.v);
            case 'float': return Number.isInteger(x.v) ? `${x.v}.0` : String(x.v);
            case 'bool': return String(x.v);
            case 'null': return 'null';
            case 'raw': return val(x.alt, indent);
            case 'arr': return `[${x.items.map(y => val(y, indent)).join(', ')}]`;
            case 'map': {
                if (x.entries.length === 0) return '{}';
                const inner = `${indent}  `;
                return `{\n${x.entries.map(([k, y]) => `${inner}${key(k)}${rng.chance(0.5) ? ' = ' : ': '}${val(y, inner)}`).join('\n')}\n${indent}}`;
            }
        }
    };
    if (v.t !== 'map') return `${val(v, '')}\n`;
    const comment = rng.chance(0.3) ? '# generated\n' : '';
    return `${comment}${v.entries.map(([k, y]) => `${key(k)}${rng.chance(0.5) ? ' = ' : ': '}${val(y, '')}`).join('\n')}\n`;
}
