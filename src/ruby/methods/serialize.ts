import YAML from 'yaml';
import { formatFloat } from '../../common/index.js';
import { DataTextError, parsePsychYaml, parseRubyJson, PDefault, RubyJsonError, RubySymbol, tokenizePlain, type PuppetValue } from '../../values/index.js';
import { inspectString } from '../inspect.js';
import { Exceptions, RClass, RSymbol, RubyError, rubyError, type Method, type RValue } from '../objects.js';

/** Plain data for the YAML emitter: symbols as Psych writes them (`:name`). */
function yamlData(v: RValue): unknown {
    if (v instanceof RSymbol) return `:${v.name}`;
    if (v instanceof PDefault) return ':default';
    if (Array.isArray(v)) return v.map(yamlData);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [yamlData(k), yamlData(x)]));
    if (typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean' || v === null) return v;
    throw rubyError('TypeError', `can't dump ${String(v)} to YAML in a template`);
}

/**
 * The scalar style Psych asks the emitter for a string (its YAMLTree#visit_String): a string
 * starting with a non-word character and holding no `"` is double-quoted, one that would read
 * back as another type single-quoted; the rest is left to the emitter (plain when it can be).
 */
function psychStringStyle(s: string): 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | undefined {
    if (/\n(?!$)/.test(s)) return undefined;
    if (s === '<<') return 'QUOTE_SINGLE';
    if (s === 'y' || s === 'n') return 'QUOTE_DOUBLE';
    // Ruby's ^ and $ are line anchors: any line starting with a non-word character, with no `"` after it.
    if (/^[^\p{L}\p{N}_][^"]*$/mu.test(s)) return 'QUOTE_DOUBLE';
    if (typeof tokenizePlain(s) !== 'string' || /^0[0-7]*[89]/.test(s)) return 'QUOTE_SINGLE';
    return undefined;
}

/** Psych's block style: a `---` document, sequences not indented under their key, strings styled as Psych asks. */
export function toYaml(v: RValue): string {
    if (v === null) return '---\n'; // Psych writes nil as an empty document
    const doc = new YAML.Document(yamlData(v));
    YAML.visit(doc, {
        // A multi-line key is a block key (`? |-`), as Psych writes it.
        Pair(_key, pair) {
            if (YAML.isScalar(pair.key) && typeof pair.key.value === 'string' && /\n(?!$)/.test(pair.key.value)) pair.key.type = 'BLOCK_LITERAL';
        },
        Scalar(_key, node) {
            if (typeof node.value !== 'string' || node.type === 'BLOCK_LITERAL') return;
            const style = psychStringStyle(node.value);
            if (style) node.type = style;
        }
    });
    // A nil item of a sequence is a bare `-` in Psych's output.
    const body = doc.toString({ indentSeq: false, singleQuote: true, lineWidth: 0, nullStr: '' }).replace(/^( *)- $/gm, '$1-');
    // Psych writes a nil document as a bare `---`.
    if (v === null) return '---\n';
    return Array.isArray(v) && v.length > 0 || v instanceof Map && v.size > 0 ? `---\n${body}` : `--- ${body}`;
}

/** Ruby's JSON.generate: compact, floats as Ruby prints them. */
function toJson(v: RValue): string {
    if (v === null) return 'null';
    if (typeof v === 'string') return JSON.stringify(v);
    if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
    if (typeof v === 'number') {
        if (!Number.isFinite(v)) throw rubyError('RuntimeError', `${formatFloat(v)} not allowed in JSON`);
        return formatFloat(v);
    }
    if (v instanceof RSymbol) return JSON.stringify(v.name);
    if (v instanceof PDefault) return '"default"';
    if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
    if (v instanceof Map) return `{${[...v].map(([k, x]) => `${JSON.stringify(typeof k === 'string' ? k : k instanceof RSymbol ? k.name : toJsonKey(k))}:${toJson(x)}`).join(',')}}`;
    return inspectString(String(v));
}

const toJsonKey = (k: RValue): string => (k === null ? '' : typeof k === 'number' ? formatFloat(k) : String(k));

/** `to_yaml` and `to_json` (what `require 'yaml'`/`'json'` add to every object). */
export const serializeMethods: Record<string, Method> = {
    to_yaml: self => toYaml(self),
    to_json: self => toJson(self)
};

/** Ruby's JSON.pretty_generate (json 2.6): two-space indent, an empty hash as `{\n}` and an empty array as `[\n\n]` at the same indent. */
function prettyJson(v: RValue, depth = 0): string {
    const pad = (d: number): string => '  '.repeat(d);
    if (Array.isArray(v)) {
        if (v.length === 0) return `[\n\n${pad(depth)}]`;
        return `[\n${v.map(x => pad(depth + 1) + prettyJson(x, depth + 1)).join(',\n')}\n${pad(depth)}]`;
    }
    if (v instanceof Map) {
        if (v.size === 0) return `{\n${pad(depth)}}`;
        const key = (k: RValue): string => JSON.stringify(typeof k === 'string' ? k : k instanceof RSymbol ? k.name : toJsonKey(k));
        return `{\n${[...v].map(([k, x]) => `${pad(depth + 1)}${key(k)}: ${prettyJson(x, depth + 1)}`).join(',\n')}\n${pad(depth)}}`;
    }
    return toJson(v);
}

/** `JSON` (generate, pretty_generate, dump, parse) and Puppet::Util::Json (load, dump): what `require 'json'` gives plugin code. */
export function jsonModules(): { json: RClass; puppetJson: RClass; parserError: RClass; parseError: RClass } {
    const json = new RClass('JSON', null, [], true);
    const parserError = new RClass('JSON::ParserError', Exceptions.StandardError);
    const parseError = new RClass('Puppet::Util::Json::ParseError', Exceptions.RuntimeError);
    const parse = (text: RValue, error: RClass): RValue => {
        try {
            return parseRubyJson(typeof text === 'string' ? text : String(text)).value as RValue;
        } catch (e) {
            if (e instanceof RubyJsonError) throw new RubyError(error, e.message);
            throw e;
        }
    };
    json.defineStatic('generate', (_s, args) => toJson(args[0] ?? null));
    json.defineStatic('dump', (_s, args) => toJson(args[0] ?? null));
    json.defineStatic('pretty_generate', (_s, args) => prettyJson(args[0] ?? null));
    json.defineStatic('parse', (_s, args) => parse(args[0] ?? null, parserError));
    const puppetJson = new RClass('Puppet::Util::Json', null, [], true);
    puppetJson.defineStatic('load', (_s, args) => parse(args[0] ?? null, parseError));
    puppetJson.defineStatic('dump', (_s, args) => toJson(args[0] ?? null));
    return { json, puppetJson, parserError, parseError };
}

/** Psych's reader's values as Ruby values: its symbols as Ruby symbols. */
function fromYaml(v: PuppetValue): RValue {
    if (v instanceof RubySymbol) return RSymbol.of(v.name);
    if (Array.isArray(v)) return v.map(fromYaml);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [fromYaml(k), fromYaml(x)]));
    return v as RValue;
}

/** `YAML` (also `Psych`): load and safe_load as Psych reads YAML, dump as it writes it; and `PSON` as JSON. */
export function yamlModules(json: RClass): { yaml: RClass; syntaxError: RClass; pson: RClass } {
    const yaml = new RClass('Psych', null, [], true);
    const syntaxError = new RClass('Psych::SyntaxError', Exceptions.RuntimeError);
    const load: Method = (_s, args) => {
        try {
            return fromYaml(parsePsychYaml(typeof args[0] === 'string' ? args[0] : '', new Set(['Symbol', 'Date', 'Time'])).value);
        } catch (e) {
            if (e instanceof DataTextError) throw new RubyError(syntaxError, e.message);
            throw e;
        }
    };
    for (const n of ['load', 'safe_load', 'unsafe_load']) yaml.defineStatic(n, load);
    yaml.defineStatic('dump', (_s, args) => toYaml(args[0] ?? null));
    const pson = new RClass('PSON', null, [], true);
    for (const n of ['generate', 'dump', 'pretty_generate', 'parse']) pson.defineStatic(n, json.statics.get(n)!);
    pson.defineStatic('load', json.statics.get('parse')!);
    return { yaml, syntaxError, pson };
}
