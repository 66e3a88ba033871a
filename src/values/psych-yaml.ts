import { YAML_MAX_ALIAS_COUNT } from '../common/index.js';
import { ForbiddenClass, RubySymbol, tokenizePlain } from './psych-scalar.js';
import { yamlClass, yamlEvents, type YamlEvent } from './psych-syntax.js';
import { PBinaryString, type PuppetValue } from './values.js';

const YAML_TAG = 'tag:yaml.org,2002:';

/** A YAML or JSON text Ruby would refuse: the detail as Ruby words it and where (1-based). */
export class DataTextError extends Error {
    /**
     * `psychCause`: the Psych exception when Ruby's words come from it: a Psych::SyntaxError's message
     * says where itself; a Psych::BadAlias names no file.
     */
    constructor(readonly detail: string, readonly line: number, readonly column: number, readonly psychCause?: 'Psych::SyntaxError' | 'Psych::BadAlias' | 'SystemStackError') {
        super(detail);
    }
}

/** A YAML text read as Puppet reads it, with where each top-level key was written. */
export interface PsychYaml {
    readonly value: PuppetValue;
    readonly keyPositions: ReadonlyMap<string, { readonly line: number; readonly column: number }>;
    /**
     * Where the value of each top-level key holds Ruby Symbols (read as their names): paths of
     * keys and indexes joined by NUL, '' for the value itself. Puppet refuses such values.
     */
    readonly symbols: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A node of the document as Psych's TreeBuilder builds it from libyaml's events. */
type YNode =
    | { readonly k: 'scalar'; readonly value: string; readonly tag: string | null; readonly quoted: boolean; readonly anchor: string | null; readonly line: number; readonly column: number }
    | { readonly k: 'seq'; readonly items: YNode[]; readonly tag: string | null; readonly anchor: string | null; readonly line: number; readonly column: number }
    | { readonly k: 'map'; readonly pairs: [YNode, YNode][]; readonly tag: string | null; readonly anchor: string | null; readonly line: number; readonly column: number }
    | { readonly k: 'alias'; readonly anchor: string; readonly line: number; readonly column: number };

/** The first document's root node from the events (null for an empty stream). */
function buildTree(events: readonly YamlEvent[]): YNode | null {
    let i = 0;
    const node = (): YNode => {
        const e = events[i++];
        const at = { line: e.start_mark.line + 1, column: e.start_mark.column + 1 };
        const tag = e.tag ?? null;
        const anchor = e.anchor ?? null;
        switch (yamlClass(e)) {
            case 'ScalarEvent': {
                // Psych's `quoted` is libyaml's quoted_implicit: an untagged, non-plain scalar.
                const implicit = e.implicit as readonly [boolean, boolean];
                return { k: 'scalar', value: e.value ?? '', tag: tag === '!' ? null : tag, quoted: implicit[1], anchor, ...at };
            }
            case 'AliasEvent': return { k: 'alias', anchor: anchor ?? '', ...at };
            case 'SequenceStartEvent': {
                const items: YNode[] = [];
                while (yamlClass(events[i]) !== 'SequenceEndEvent') items.push(node());
                i++;
                return { k: 'seq', items, tag, anchor, ...at };
            }
            case 'MappingStartEvent': {
                const pairs: [YNode, YNode][] = [];
                while (yamlClass(events[i]) !== 'MappingEndEvent') {
                    const key = node();
                    pairs.push([key, node()]);
                }
                i++;
                return { k: 'map', pairs, tag, anchor, ...at };
            }
            default: throw new Error(`unexpected YAML event ${yamlClass(e) ?? 'of no known class'}`);
        }
    };
    while (i < events.length && yamlClass(events[i]) !== 'DocumentStartEvent') i++;
    if (i >= events.length) return null;
    i++;
    return node();
}

/**
 * Parses YAML as Ruby's Psych `safe_load` does for Puppet: libyaml's events (from yaml-js, the
 * port of PyYAML that libyaml follows), the first document only, then Psych's ToRuby rules (YAML
 * 1.1 scalars: `yes`/`on` are true, `0755` octal; tags; aliases and `<<` merge keys; Symbol
 * permitted). Date and Time are forbidden unless `permitted` names them (facts files allow
 * them; they are then kept as the text written). Failures throw DataTextError with Psych's
 * wording; a syntax error anywhere in the document comes before any class refused in it.
 */
export function parsePsychYaml(text: string, permitted: ReadonlySet<string> = new Set()): PsychYaml {
    const source = text.replace(/^\uFEFF/, '');
    const events = yamlEvents(source);
    if (!Array.isArray(events)) throw new DataTextError(`${events.text} at line ${events.line} column ${events.column}`, events.line, events.column, 'Psych::SyntaxError');
    const root = buildTree(events);
    const forbidden = (cls: string, node: YNode): PuppetValue => {
        if (permitted.has(cls) && node.k === 'scalar') return node.value;
        throw new DataTextError(`Tried to load unspecified class: ${cls}`, node.line, node.column);
    };
    const converter = new ToRuby(forbidden);
    const value = root === null ? null : converter.accept(root);
    const keyPositions = new Map<string, { line: number; column: number }>();
    const symbols = new Map<string, Set<string>>();
    if (root !== null && root.k === 'map' && value instanceof Map) {
        for (const [k, v] of root.pairs) {
            if (k.k !== 'scalar') continue;
            const key = converter.accept(k);
            if (typeof key === 'string' && !keyPositions.has(key)) keyPositions.set(key, { line: k.line, column: k.column });
            const found = new Set<string>();
            collectSymbols(v, converter, '', found, 0);
            if (found.size > 0) symbols.set(String(key), found);
            else symbols.delete(String(key));
        }
    }
    return { value, keyPositions, symbols };
}

/** The paths of the Symbol scalars (`:name`, `!ruby/symbol`) in a node's value. */
function collectSymbols(node: YNode, converter: ToRuby, path: string, out: Set<string>, depth: number): void {
    if (depth > 50) return;
    const at = (key: PuppetValue): string => (path === '' ? String(key) : `${path}\u0000${String(key)}`);
    if (node.k === 'alias') {
        const target = converter.anchored(node.anchor);
        if (target) collectSymbols(target, converter, path, out, depth + 1);
    } else if (node.k === 'scalar') {
        if (isSymbol(node)) out.add(path);
    } else if (node.k === 'seq') {
        node.items.forEach((item, i) => collectSymbols(item, converter, at(i), out, depth + 1));
    } else {
        for (const [k, v] of node.pairs) {
            if (k.k === 'scalar' && k.value === '<<' && k.tag === null) continue;
            collectSymbols(v, converter, at(k.k === 'scalar' ? converter.accept(k) : ''), out, depth + 1);
        }
    }
}

function isSymbol(node: YNode & { k: 'scalar' }): boolean {
    if (node.tag !== null) return /^!ruby\/sym(bol)?:?(.*)?$/.test(node.tag) || (!node.tag.startsWith(YAML_TAG) && !node.tag.startsWith('!ruby/') && tokenizePlain(node.value) instanceof RubySymbol);
    return !node.quoted && tokenizePlain(node.value) instanceof RubySymbol;
}

type Forbid = (cls: string, node: YNode) => PuppetValue;

/**
 * Psych's ToRuby over the tree: anchors are registered as their nodes are converted, so an
 * alias sees only anchors before it; aliases share the converted value. The alias limit is the
 * yaml library's (uses of an anchor times the aliasing inside it), refusing "billion laughs".
 */
class ToRuby {
    private readonly values = new Map<string, PuppetValue>();
    private readonly nodes = new Map<string, YNode>();
    private readonly aliasData = new Map<string, { count: number; aliasCount: number }>();
    /** Anchors whose nodes are being converted: Psych registers them first, so an alias inside makes a value that contains itself. */
    private readonly open = new Set<string>();

    constructor(private readonly forbid: Forbid) {}

    anchored(name: string): YNode | undefined {
        return this.nodes.get(name);
    }

    accept(node: YNode): PuppetValue {
        if (node.k === 'alias') {
            // Puppet's walk of a value containing itself overflows Ruby's stack.
            if (!this.values.has(node.anchor) && this.open.has(node.anchor)) throw new DataTextError('stack level too deep', node.line, node.column, 'SystemStackError');
            if (!this.values.has(node.anchor)) throw new DataTextError(`Unknown alias: ${node.anchor}`, node.line, node.column, 'Psych::BadAlias');
            this.countAlias(node.anchor);
            return this.values.get(node.anchor) as PuppetValue;
        }
        if (node.anchor !== null) this.open.add(node.anchor);
        const v = this.convert(node);
        if (node.anchor !== null) {
            this.open.delete(node.anchor);
            this.values.set(node.anchor, v);
            this.nodes.set(node.anchor, node);
            this.aliasData.delete(node.anchor);
        }
        return v;
    }

    private countAlias(anchor: string): void {
        let data = this.aliasData.get(anchor);
        if (!data) { data = { count: 0, aliasCount: 0 }; this.aliasData.set(anchor, data); }
        data.count += 1;
        if (data.aliasCount === 0) data.aliasCount = this.aliasCount(this.nodes.get(anchor));
        if (data.count * data.aliasCount > YAML_MAX_ALIAS_COUNT) {
            throw new DataTextError(`aliases expand the data more than ${YAML_MAX_ALIAS_COUNT} times (a "billion laughs" document)`, 1, 1);
        }
    }

    private aliasCount(node: YNode | undefined): number {
        if (node === undefined) return 0;
        if (node.k === 'alias') {
            const d = this.aliasData.get(node.anchor);
            return d ? d.count * d.aliasCount : 0;
        }
        if (node.k === 'seq') return node.items.reduce((m, x) => Math.max(m, this.aliasCount(x)), 0);
        if (node.k === 'map') return node.pairs.reduce((m, [k, x]) => Math.max(m, this.aliasCount(k), this.aliasCount(x)), 0);
        return 1;
    }

    private convert(node: YNode & { k: 'scalar' | 'seq' | 'map' }): PuppetValue {
        if (node.k === 'scalar') return convertScalar(node, this.forbid);
        if (node.k === 'seq') {
            const cls = sequenceClass(node.tag ?? undefined);
            if (cls !== undefined) return this.forbid(cls, node);
            if (node.tag === `${YAML_TAG}omap` || node.tag === '!omap') {
                // Psych builds an omap sequence into a Psych::Omap (a Hash) without asking the class loader.
                const out = new Map<PuppetValue, PuppetValue>();
                for (const pair of node.items) {
                    if (pair.k === 'map' && pair.pairs.length > 0) out.set(this.accept(pair.pairs[0][0]), this.accept(pair.pairs[pair.pairs.length - 1][1]));
                    else this.accept(pair);
                }
                return out;
            }
            return node.items.map(item => this.accept(item));
        }
        const cls = mappingClass(node.tag ?? undefined);
        if (cls !== undefined) return this.forbid(cls, node);
        return this.reviveHash(node);
    }

    /** Psych's revive_hash: `<<` (unless tagged !!str) merges a hash, or a list of hashes last-first. */
    private reviveHash(node: YNode & { k: 'map' }): Map<PuppetValue, PuppetValue> {
        const out = new Map<PuppetValue, PuppetValue>();
        for (const [k, v] of node.pairs) {
            const key = this.accept(k);
            const val = this.accept(v);
            if (key === '<<' && !(k.k === 'scalar' && k.tag === `${YAML_TAG}str`)) {
                if ((v.k === 'alias' || v.k === 'map') && val instanceof Map) { mergeInto(out, val); continue; }
                if (v.k === 'seq' && Array.isArray(val) && val.every(x => x instanceof Map)) {
                    const merged = new Map<PuppetValue, PuppetValue>();
                    for (const h of [...val].reverse()) mergeInto(merged, h as Map<PuppetValue, PuppetValue>);
                    mergeInto(out, merged);
                    continue;
                }
            }
            out.set(key, val); // a repeated key replaces the value in place, as in Ruby
        }
        return out;
    }
}

/** Ruby Hash#merge!: existing keys keep their place, new keys are appended. */
function mergeInto(target: Map<PuppetValue, PuppetValue>, source: Map<PuppetValue, PuppetValue>): void {
    for (const [k, v] of source) target.set(k, v);
}

/**
 * The Ruby class Psych's restricted class loader would be asked for by a tagged sequence
 * (Psych's ToRuby#visit_Psych_Nodes_Sequence), if any: a safe load refuses it.
 */
function sequenceClass(tag: string | undefined): string | undefined {
    const m = tag === undefined ? null : /^!(?:seq|ruby\/array):(.*)$/.exec(tag);
    return m ? m[1] : undefined;
}

/** The same for a tagged mapping (ToRuby#visit_Psych_Nodes_Mapping); other tags read as a plain hash. */
function mappingClass(tag: string | undefined): string | undefined {
    if (tag === undefined) return undefined;
    let m: RegExpExecArray | null;
    if ((m = /^!ruby\/struct:?(.*)?$/.exec(tag))) return m[1] || 'Struct';
    if ((m = /^!ruby\/object:?(.*)?$/.exec(tag))) return m[1] === 'Hash' ? undefined : m[1] || 'Object';
    if ((m = /^!(?:str|ruby\/string)(?::(.*))?$/.exec(tag)) && m[1]) return m[1];
    if ((m = /^!ruby\/array:(.*)$/.exec(tag))) return m[1];
    if (tag === '!ruby/range') return 'Range';
    if ((m = /^!ruby\/exception:?(.*)?$/.exec(tag))) return m[1] || 'Exception';
    if (tag === '!set' || tag === `${YAML_TAG}set`) return 'Psych::Set';
    if ((m = /^!ruby\/hash-with-ivars:(.*)$/.exec(tag))) return m[1];
    if ((m = /^!(?:map|ruby\/hash):(.*)$/.exec(tag))) return m[1];
    if (tag === '!omap' || tag === `${YAML_TAG}omap`) return 'Psych::Omap';
    if ((m = /^!ruby\/marshalable:(.*)$/.exec(tag))) return m[1];
    return undefined;
}

/** Ruby's Float(): the tokenized value as a Float (a string that is no number stays as it is). */
function toFloat(t: PuppetValue): PuppetValue {
    if (typeof t === 'bigint') return Number(t);
    if (typeof t === 'string' && /^\s*[-+]?(\d[\d_]*)?\.?\d+([eE][-+]?\d+)?\s*$/.test(t)) return Number(t.replace(/_/g, ''));
    return t;
}

/**
 * Ruby's `unpack('m')`: base64, skipping characters outside its alphabet. Ruby keeps the bytes
 * as a binary (ASCII-8BIT) string, which Puppet's rich data writes as a Binary.
 */
function unpackBase64(s: string): PBinaryString {
    return new PBinaryString(new Uint8Array(Buffer.from(s.replace(/[^A-Za-z0-9+/]/g, ''), 'base64')));
}

/**
 * A scalar as Psych's ToRuby#deserialize reads it: untagged quoted scalars are strings, untagged
 * plain ones go through the scalar scanner; a tag (which makes libyaml forget the quoting) picks
 * binary, string, float or symbol, asks the class loader for Ruby classes, and otherwise leaves
 * the value to the scalar scanner (so `!!null x` is "x" and `!!int 3.5` is 3.5).
 */
function convertScalar(node: YNode & { k: 'scalar' }, forbid: Forbid): PuppetValue {
    const { value: s, tag } = node;
    const scan = (text: string): PuppetValue => {
        const t = tokenizePlain(text);
        if (t instanceof RubySymbol) return t.name; // keys become strings (symkeys_to_string); values are flagged
        return t instanceof ForbiddenClass ? forbid(t.className, node) : t;
    };
    if (tag === null) return node.quoted ? s : scan(s);
    let m: RegExpExecArray | null;
    if (tag === '!binary' || tag === `${YAML_TAG}binary`) return unpackBase64(s);
    if (tag === `${YAML_TAG}str`) return s;
    if ((m = /^!(?:str|ruby\/string)(?::(.*))?$/.exec(tag))) return m[1] ? forbid(m[1], node) : s;
    if (tag === `${YAML_TAG}float` || tag === '!float') return toFloat(scan(s));
    if ((m = /^!ruby\/object:(BigDecimal|DateTime|Complex|Rational)$/.exec(tag))) return forbid(m[1], node);
    if (tag === '!ruby/class' || tag === '!ruby/module') return forbid(s, node);
    if (tag === '!ruby/regexp') return forbid('Regexp', node);
    if (tag === '!ruby/range') return forbid('Range', node);
    if (/^!ruby\/sym(bol)?:?(.*)?$/.test(tag)) return s;
    return scan(s);
}


/**
 * libyaml's reader checks of a UTF-8 text (yaml_parser_update_buffer), made before anything is
 * parsed: the problem, as Psych reports it (at line 1 column 1, the reader has no position), or
 * undefined when the bytes are well-formed printable UTF-8.
 */
export function yamlReaderProblem(bytes: Uint8Array): string | undefined {
    for (let i = 0; i < bytes.length;) {
        const octet = bytes[i] as number;
        const width = (octet & 0x80) === 0 ? 1 : (octet & 0xe0) === 0xc0 ? 2 : (octet & 0xf0) === 0xe0 ? 3 : (octet & 0xf8) === 0xf0 ? 4 : 0;
        if (width === 0) return 'invalid leading UTF-8 octet';
        if (i + width > bytes.length) return 'incomplete UTF-8 octet sequence';
        let value = width === 1 ? octet & 0x7f : width === 2 ? octet & 0x1f : width === 3 ? octet & 0x0f : octet & 0x07;
        for (let k = 1; k < width; k++) {
            const o = bytes[i + k] as number;
            if ((o & 0xc0) !== 0x80) return 'invalid trailing UTF-8 octet';
            value = (value << 6) + (o & 0x3f);
        }
        if (!(width === 1 || (width === 2 && value >= 0x80) || (width === 3 && value >= 0x800) || (width === 4 && value >= 0x10000))) return 'invalid length of a UTF-8 sequence';
        if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return 'invalid Unicode character';
        const printable = value === 0x09 || value === 0x0a || value === 0x0d || (value >= 0x20 && value <= 0x7e) || value === 0x85
            || (value >= 0xa0 && value <= 0xd7ff) || (value >= 0xe000 && value <= 0xfffd) || (value >= 0x10000 && value <= 0x10ffff);
        if (!printable) return 'control characters are not allowed';
        i += width;
    }
    return undefined;
}
