import { nodeFileSystem, type FileSystemProvider } from '../../common/index.js';
import { yamlReaderProblem, type HoconFiles, type PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import { parseHieraConfig, type ConfigResult, type HieraLayerKind } from './config.js';
import { parseHoconData, parseJsonData, parseYamlData, type DataFile } from './data-file.js';
import { LookupError } from './errors.js';
import { describeMismatch, formatMismatches, parseTypeString } from '../../types/index.js';

/** A data file as cached; `warning` is set when its top level was not a hash. */
interface CachedData extends DataFile {
    readonly warning?: string;
}

interface Entry<T> {
    readonly mtimeMs: number;
    readonly size: number;
    readonly result: T | LookupError;
}

/** The data file formats of the data_hash functions Puppet ships: yaml_data, json_data, hocon_data. */
export type DataFormat = 'yaml' | 'json' | 'hocon';

/** The format a data_hash function reads, for the functions Puppet ships. */
export function dataFormatOf(functionName: string): DataFormat | undefined {
    return functionName === 'yaml_data' ? 'yaml' : functionName === 'json_data' ? 'json' : functionName === 'hocon_data' ? 'hocon' : undefined;
}

/** Warnings Puppet logs while reading data (the lookup still succeeds). */
/** A warning of the data stage: its message, the file it is about, and where in it when known. */
export type WarningSink = (message: string, file?: string, at?: { readonly line: number; readonly column?: number }) => void;

/**
 * Parsed hiera.yaml and data files, shared by every lookup service of a process. An entry is
 * re-read when the file's mtime or size changes (Puppet's cached_file_data does the same);
 * parse failures are cached too, so a bad file fails every lookup the same way.
 */
export class HieraFileCache {
    private readonly data = new Map<string, Entry<CachedData>>();
    private readonly configs = new Map<string, Entry<ConfigResult>>();
    private readonly others = new WeakMap<FileSystemProvider, HieraFileCache>();

    /** What a hocon_data file's includes read: ruby-hocon opens a relative file() name against the process's working directory. */
    private readonly hoconFiles: HoconFiles;

    constructor(private readonly fs: FileSystemProvider = nodeFileSystem) {
        this.hoconFiles = { cwd: process.cwd(), read: path => fs.stat(path)?.isFile === true ? fs.readText(path) : undefined };
    }

    /** The cache of another source of files (an environment bundle): one cache per source. */
    forFiles(fs: FileSystemProvider): HieraFileCache {
        if (fs === this.fs) return this;
        let other = this.others.get(fs);
        if (!other) this.others.set(fs, other = new HieraFileCache(fs));
        return other;
    }

    /** A data hash (yaml_data / json_data); a file that is not a hash counts as empty, with a warning. */
    dataFile(absPath: string, display: string, format: DataFormat, warn?: WarningSink): DataFile {
        const entry = this.cached(this.data, absPath, (text, bytes): CachedData => {
            // libyaml checks the whole text's encoding before it parses anything.
            const problem = format === 'yaml' ? yamlReaderProblem(bytes) : undefined;
            if (problem !== undefined) {
                throw new LookupError(`Unable to parse (${display}): ${problem} at line 1 column 1`, { code: BindingsIssues.LOOKUP_DATA_PARSE, at: { file: display }, causeClass: 'Psych::SyntaxError' });
            }
            const parsed = format === 'json' ? parseJsonData(text, display) : format === 'hocon' ? parseHoconData(text, display, this.hoconFiles) : parseYamlData(text, display);
            if (parsed.value instanceof Map) return parsed;
            if (format === 'json') {
                // json_data returns what it read; the data provider's validate_data_hash refuses a non-hash.
                const problem = formatMismatches('', describeMismatch(parseTypeString('Hash'), parsed.value)).join('\n').trim();
                throw new LookupError(`Value returned from data_hash function 'json_data', when using location '${display}', has wrong type, ${problem}`, {
                    code: BindingsIssues.LOOKUP_DATA_VALUE_TYPE, at: { file: display }
                });
            }
            // yaml_data logs this and reads the file as empty.
            return { value: new Map<PuppetValue, PuppetValue>(), keyPositions: new Map(), warning: `${display}: file does not contain a valid ${format} hash` };
        });
        if (entry.warning !== undefined) warn?.(entry.warning); // Puppet.warning: no file attached
        return entry;
    }

    config(absPath: string, display: string, layer: HieraLayerKind): ConfigResult {
        return this.cached(this.configs, absPath, (text, bytes) => {
            // Puppet::Util::Yaml.safe_load_file: libyaml's reader refuses the text before it parses, a YamlLoadError.
            const problem = yamlReaderProblem(bytes);
            if (problem !== undefined) {
                throw new LookupError(`(${display}): ${problem} at line 1 column 1`, {
                    code: BindingsIssues.LOOKUP_DATA_PARSE, puppetClass: 'Puppet::Util::Yaml::YamlLoadError', at: { file: display }, causeClass: 'Psych::SyntaxError'
                });
            }
            return parseHieraConfig(text, display, layer);
        });
    }

    private cached<T>(map: Map<string, Entry<T>>, absPath: string, parse: (text: string, bytes: Uint8Array) => T): T {
        const st = this.fs.stat(absPath);
        if (st === undefined) {
            throw new LookupError(`Unable to read ${absPath}`, { code: BindingsIssues.LOOKUP_DATA_PARSE, at: { file: absPath } });
        }
        let e = map.get(absPath);
        if (!e || e.mtimeMs !== st.mtimeMs || e.size !== st.size) {
            let result: T | LookupError;
            try {
                const bytes = this.fs.readFile(absPath);
                result = parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'), bytes);
            } catch (err) {
                if (!(err instanceof LookupError)) throw err;
                result = err;
            }
            e = { mtimeMs: st.mtimeMs, size: st.size, result };
            map.set(absPath, e);
        }
        if (e.result instanceof LookupError) throw e.result;
        return e.result;
    }
}
