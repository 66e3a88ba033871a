import YAML from 'yaml';
import { formatFloat } from '../../common/index.js';
import { PDefault, tokenizePlain } from '../../values/index.js';
import { inspectString } from '../inspect.js';
import { RSymbol, rubyError, type Method, type RValue } from '../objects.js';

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
