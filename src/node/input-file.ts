import { nodeFileSystem, notAFile, UserError, type FileSystemProvider } from '../common/index.js';
import { DataTextError, parsePsychYaml, parseRubyJson, pointAt, RubyJsonError, type PuppetValue } from '../values/index.js';
import { NodeIssues } from './issues.js';

/** What a node input file holds: facts or overrides of `$trusted`. */
export type NodeInputKind = 'facts' | 'trusted';

function fail(code: string, message: string, file: string, line?: number, column?: number): never {
    throw new UserError({ severity: 'error', code, message, file, ...(line !== undefined ? { at: { file, line, column: column ?? 1 } } : {}) });
}

/** Puppet drops YAML's Ruby object tag on a fact cache (`--- !ruby/object:Puppet::Node::Facts`). */
const FACTS_TAG = /^---\s*!ruby\/object:Puppet::Node::Facts\s*\n/;

/**
 * Reads a facts or trusted file as the reference loads it: JSON as Ruby's JSON.parse, anything
 * else as YAML through Psych's safe_load (YAML 1.1 scalars: `yes`/`on` are true, `0755` octal;
 * Symbol, Date and Time permitted, the latter two kept as written). An empty document is an
 * empty mapping; a list or scalar, a syntax error, or a path that is missing or a directory is
 * an error located at the file.
 */
export function readNodeInputFile(path: string, kind: NodeInputKind, fs: FileSystemProvider = nodeFileSystem): Map<string, PuppetValue> {
    let text: string;
    try {
        if (fs.stat(path)?.isDirectory) fail(NodeIssues.NODE_INPUT_FILE, `the ${kind} file is a directory`, path);
        text = fs.readText(path);
    } catch (e) {
        if (e instanceof UserError) throw e;
        const code = (e as NodeJS.ErrnoException).code;
        fail(NodeIssues.NODE_INPUT_FILE, code === 'ENOENT' ? `no such ${kind} file` : code === 'EFTYPE' ? `the ${kind} file ${notAFile(path) ?? 'is not a regular file'}` : `cannot read the ${kind} file (${code ?? String(e)})`, path);
    }
    const value = path.endsWith('.json') ? jsonValue(text, path) : yamlValue(text.replace(FACTS_TAG, '---\n'), path);
    if (value === null || value === false) return new Map();
    if (!(value instanceof Map)) fail(NodeIssues.NODE_INPUT_SHAPE, `the ${kind} file must hold a mapping, not ${shapeOf(value)}`, path);
    return new Map([...value].map(([k, v]) => [keyText(k), v]));
}

function jsonValue(text: string, path: string): PuppetValue {
    try {
        return parseRubyJson(text).value;
    } catch (e) {
        if (!(e instanceof RubyJsonError)) throw e;
        const at = pointAt(text, e.offset, path);
        return fail(NodeIssues.NODE_INPUT_SYNTAX, `not JSON: ${e.message}`, path, at.line, at.column);
    }
}

const PERMITTED = new Set(['Date', 'Time']);

function yamlValue(text: string, path: string): PuppetValue {
    try {
        return parsePsychYaml(text, PERMITTED).value;
    } catch (e) {
        if (!(e instanceof DataTextError)) throw e;
        return fail(NodeIssues.NODE_INPUT_SYNTAX, `not YAML: ${e.detail.replace(/ at line \d+ column \d+$/, '')}`, path, e.line, e.column);
    }
}

function shapeOf(v: PuppetValue): string {
    if (Array.isArray(v)) return 'a list';
    if (typeof v === 'string') return 'a string';
    return `a ${typeof v === 'bigint' || typeof v === 'number' ? 'number' : typeof v}`;
}

/** Mapping keys are names; YAML may write them as numbers or booleans (`on:`), read as text. */
function keyText(k: PuppetValue): string {
    return typeof k === 'string' ? k : String(k);
}
