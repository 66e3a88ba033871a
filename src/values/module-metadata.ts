import { join } from 'node:path';
import { isDirectoryPath, pathExists, type FileSystemProvider } from '../common/index.js';
import { parseRubyJson, RubyJsonError } from './ruby-json.js';

/** What Puppet logs of a module's metadata.json, and whether the module is then left out of the environment. */
export interface ModuleMetadataProblem {
    readonly level: 'err' | 'warning';
    readonly message: string;
    /** Puppet::Module.new raised: the environment has no module of that name at all. */
    readonly excluded: boolean;
}

/** Ruby's `to_s` of a JSON value, as Puppet's message interpolates it. */
function rubyToS(v: unknown): string {
    if (v === null) return '';
    if (typeof v === 'string') return v;
    const inspect = (x: unknown): string => x === null ? 'nil' : typeof x === 'string' ? JSON.stringify(x) : Array.isArray(x) ? `[${x.map(inspect).join(', ')}]`
        : typeof x === 'object' ? `{${Object.entries(x as Record<string, unknown>).map(([k, e]) => `${JSON.stringify(k)}=>${inspect(e)}`).join(', ')}}` : String(x);
    return inspect(v);
}

/**
 * Puppet::Module#load_metadata: a metadata.json that is not JSON is warned of and ignored; one
 * with content must name source, author, version and license and have an Array of
 * dependencies, else Puppet logs the failure and the module is not part of the environment.
 */
export function moduleMetadataProblem(fs: FileSystemProvider, moduleDir: string, name: string): ModuleMetadataProblem | undefined {
    const file = join(moduleDir, 'metadata.json');
    if (!pathExists(fs, file) || isDirectoryPath(fs, file)) return undefined;
    const text = fs.readText(file);
    let data: unknown;
    try {
        parseRubyJson(text);
        data = JSON.parse(text);
    } catch (e) {
        if (!(e instanceof RubyJsonError || e instanceof SyntaxError)) throw e;
        return { level: 'warning', message: `${name} has an invalid and unparsable metadata.json file. The parse error: ${e.message}`, excluded: false };
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data) || Object.keys(data).length === 0) return undefined;
    const record = data as Record<string, unknown>;
    for (const attr of ['source', 'author', 'version', 'license', 'dependencies']) {
        const value = record[attr];
        if (value === undefined || value === null) return { level: 'err', message: `No ${attr} module metadata provided for ${name}`, excluded: true };
        if (attr === 'dependencies' && !Array.isArray(value)) {
            return { level: 'err', message: `The value for the key dependencies in the file metadata.json of the module ${name} must be an array, not: '${rubyToS(value)}'`, excluded: true };
        }
    }
    return undefined;
}

/**
 * Environment#modules: the module directories of a modulepath, the first of a name winning (a
 * later one of that name is never used, even when the first is left out), each with what its
 * metadata.json gives.
 */
export function moduleListing(fs: FileSystemProvider, modulepath: readonly string[]): { name: string; dir: string; problem?: ModuleMetadataProblem }[] {
    const seen = new Set<string>();
    const out: { name: string; dir: string; problem?: ModuleMetadataProblem }[] = [];
    for (const base of modulepath) {
        if (!isDirectoryPath(fs, base)) continue;
        // Puppet logs the refusals in Dir.children's order (the directory's own, which Node does not give): sorted here.
        for (const name of fs.readdir(base).sort()) {
            const dir = join(base, name);
            if (seen.has(name) || !/^[a-z][a-z0-9_]*$/.test(name) || !isDirectoryPath(fs, dir)) continue;
            seen.add(name);
            const problem = moduleMetadataProblem(fs, dir, name);
            out.push({ name, dir, ...(problem ? { problem } : {}) });
        }
    }
    return out;
}
