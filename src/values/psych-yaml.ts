import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { excessiveAliasing } from '../common/index.js';
import { ForbiddenClass, RubySymbol, tokenizePlain } from './psych-scalar.js';
import { psychSyntaxError } from './psych-syntax.js';
import type { PuppetValue } from './values.js';

const YAML_TAG = 'tag:yaml.org,2002:';

/** A YAML or JSON text Ruby would refuse: the detail as Ruby words it and where (1-based). */
export class DataTextError extends Error {
    /**
     * `psychCause`: the Psych exception when Ruby's words come from it: a Psych::SyntaxError's message
     * says where itself; a Psych::BadAlias names no file.
     */
    constructor(readonly detail: string, readonly line: number, readonly column: number, readonly psychCause?: 'Psych::SyntaxError' | 'Psych::BadAlias') {
        super(detail);
    }
}

/** An alias naming no anchor before it (Psych::BadAlias). */
class UnknownAlias extends Error {
    constructor(readonly alias: string) { super(alias); }
}

/** A YAML text read as Puppet reads it, with where each top-level key was written. */
export interface PsychYaml {
    readonly value: PuppetValue;
    readonly keyPositions: ReadonlyMap<string, { readonly line: number; readonly column: number }>;
    /** Top-level keys whose value holds a Ruby Symbol, with the Puppet type Puppet infers for it. */
    readonly invalidValues: ReadonlyMap<string, string>;
}

/**
 * Parses YAML as Ruby's Psych `safe_load` does for Puppet (YAML 1.1 scalars: `yes`/`on` are
 * true, `0755` octal; aliases and `<<` merge keys allowed; Symbol permitted). Date and Time are
 * forbidden unless `permitted` names them (facts files allow them; they are then kept as the
 * text written). Failures throw DataTextError with Psych's wording.
 */
export function parsePsychYaml(text: string, permitted: ReadonlySet<string> = new Set()): PsychYaml {
    const source = text.replace(/^\uFEFF/, '');
    let lineCounter = new LineCounter();
    // failsafe: every scalar stays a string, so the Psych rules below decide its type.
    const options = { version: '1.1', schema: 'failsafe', uniqueKeys: false, prettyErrors: false } as const;
    let doc: Document = parseDocument(source, { ...options, lineCounter });
    if (doc.errors.some(e => e.code === 'MULTIPLE_DOCS')) {
        // Psych reads the first document only.
        lineCounter = new LineCounter();
        const all = parseAllDocuments(source, { ...options, lineCounter });
        if (Array.isArray(all) && all.length > 0) doc = all[0];
    }
    // libyaml's words for the problem; it also refuses directives the yaml library only warns about.
    if (doc.errors.length > 0 || /^%/m.test(source)) {
        const psych = psychSyntaxError(source);
        if (psych) throw new DataTextError(`${psych.text} at line ${psych.line} column ${psych.column}`, psych.line, psych.column, 'Psych::SyntaxError');
    }
    if (doc.errors.length > 0) {
        const e = doc.errors[0];
        const p = lineCounter.linePos(e.pos[0]);
        throw new DataTextError(`${e.message.split('\n')[0]} at line ${p.line} column ${p.col}`, p.line, p.col);
    }
    // A "billion laughs" document is refused before its aliases are expanded (common/yaml.ts).
    const aliasing = excessiveAliasing(doc);
    if (aliasing !== undefined) throw new DataTextError(aliasing, 1, 1);
    const forbidden = (cls: string, node: YamlNode): PuppetValue => {
        if (permitted.has(cls) && isScalar(node)) return String(node.value);
        const p = lineCounter.linePos(node.range?.[0] ?? 0);
        throw new DataTextError(`Tried to load unspecified class: ${cls}`, p.line, p.col);
    };
    let value: PuppetValue;
    try {
        value = doc.contents === null ? null : convertNode(doc.contents as YamlNode, doc, forbidden);
    } catch (e) {
        if (e instanceof UnknownAlias) throw new DataTextError(`Unknown alias: ${e.alias}`, 1, 1, 'Psych::BadAlias');
        throw e;
    }
    const keyPositions = new Map<string, { line: number; column: number }>();
    const invalidValues = new Map<string, string>();
    if (isMap(doc.contents)) {
        for (const pair of doc.contents.items) {
            const k = pair.key as YamlNode | null;
            if (isScalar(k) && k.range) {
                const p = lineCounter.linePos(k.range[0]);
                keyPositions.set(String(k.value), { line: p.line, column: p.col });
            }
            const symbolType = pair.value ? symbolIn(pair.value as YamlNode, doc) : undefined;
            if (symbolType !== undefined && isScalar(k)) invalidValues.set(String(convertScalar(k.value, k.type, k.tag, k, forbidden)), symbolType);
        }
    }
    return { value, keyPositions, invalidValues };
}

const SYMBOL_TYPE = "Runtime[ruby, 'Symbol']";

/** The inferred type of a value holding a Symbol (a plain `:name` scalar), if it holds one. */
function symbolIn(node: YamlNode, doc: Document, depth = 0): string | undefined {
    if (depth > 50) return undefined;
    if (isAlias(node)) {
        const target = node.resolve(doc);
        return target ? symbolIn(target as YamlNode, doc, depth + 1) : undefined;
    }
    if (isScalar(node)) {
        return node.type === 'PLAIN' && !node.tag && tokenizePlain(String(node.value)) instanceof RubySymbol ? SYMBOL_TYPE : undefined;
    }
    if (isSeq(node)) return node.items.some(i => i !== null && symbolIn(i as YamlNode, doc, depth + 1) !== undefined) ? 'Array' : undefined;
    if (isMap(node)) return node.items.some(p => p.value !== null && symbolIn(p.value as YamlNode, doc, depth + 1) !== undefined) ? 'Hash' : undefined;
    return undefined;
}

type Forbid = (cls: string, node: YamlNode) => PuppetValue;

function convertNode(node: YamlNode, doc: Document, forbid: Forbid): PuppetValue {
    if (isAlias(node)) {
        const target = node.resolve(doc);
        if (target === undefined) throw new UnknownAlias(node.source);
        return convertNode(target as YamlNode, doc, forbid);
    }
    if (isScalar(node)) return convertScalar(node.value, node.type, node.tag, node, forbid);
    if (isSeq(node)) {
        const cls = sequenceClass(node.tag);
        if (cls !== undefined) return forbid(cls, node);
        const items = node.items.map(item => item === null ? null : convertNode(item as YamlNode, doc, forbid));
        if (node.tag === `${YAML_TAG}omap` || node.tag === '!omap') {
            // Psych builds an omap sequence into a Psych::Omap (a Hash) without asking the class loader.
            const out = new Map<PuppetValue, PuppetValue>();
            for (const pair of items) {
                if (pair instanceof Map && pair.size > 0) out.set([...pair.keys()][0], [...pair.values()][pair.size - 1]);
            }
            return out;
        }
        return items;
    }
    if (isMap(node)) {
        const cls = mappingClass(node.tag);
        if (cls !== undefined) return forbid(cls, node);
        const out = new Map<PuppetValue, PuppetValue>();
        for (const pair of node.items) {
            const keyNode = pair.key as YamlNode | null;
            const valueNode = pair.value as YamlNode | null;
            const key = keyNode === null ? null : convertNode(keyNode, doc, forbid);
            const v = valueNode === null ? null : convertNode(valueNode, doc, forbid);
            if (key === '<<' && isScalar(keyNode) && keyNode.type === 'PLAIN' && !keyNode.tag) {
                // Psych's merge key: a hash merges in place; a list of hashes merges last-first.
                if (v instanceof Map) { mergeInto(out, v); continue; }
                if (Array.isArray(v) && v.every(x => x instanceof Map)) {
                    const merged = new Map<PuppetValue, PuppetValue>();
                    for (const h of [...v].reverse()) mergeInto(merged, h as Map<PuppetValue, PuppetValue>);
                    mergeInto(out, merged);
                    continue;
                }
            }
            out.set(key, v); // a repeated key replaces the value in place, as in Ruby
        }
        return out;
    }
    return null;
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
 * (a binary string); text that is valid UTF-8 reads as that text, other bytes one character each.
 */
function unpackBase64(s: string): string {
    const bytes = Buffer.from(s.replace(/[^A-Za-z0-9+/]/g, ''), 'base64');
    try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
        return bytes.toString('latin1');
    }
}

/**
 * A scalar as Psych's ToRuby#deserialize reads it: untagged quoted scalars are strings, untagged
 * plain ones go through the scalar scanner; a tag (which makes libyaml forget the quoting) picks
 * binary, string, float or symbol, asks the class loader for Ruby classes, and otherwise leaves
 * the value to the scalar scanner (so `!!null x` is "x" and `!!int 3.5` is 3.5).
 */
function convertScalar(raw: unknown, style: string | undefined, tag: string | undefined, node: YamlNode, forbid: Forbid): PuppetValue {
    const s = typeof raw === 'string' ? raw : String(raw ?? '');
    const scan = (text: string): PuppetValue => {
        const t = tokenizePlain(text);
        if (t instanceof RubySymbol) return t.name; // keys become strings (symkeys_to_string); values are flagged
        return t instanceof ForbiddenClass ? forbid(t.className, node) : t;
    };
    if (tag === undefined) return style === 'PLAIN' ? scan(s) : s;
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

