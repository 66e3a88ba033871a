/**
 * One generated lookup scenario: an environment directory (hiera.yaml, data in several
 * backends, modules with their own data and default_hierarchy, facts, trusted data, maybe a
 * site.pp) and the queries to ask it, in the conformance corpus's case layout.
 */
import { stringify } from 'yaml';
import { map, str, toHocon, toJson, YamlWriter, type MapKey, type V } from './emit.ts';
import { functionLevel, type FunctionKind } from './functions.ts';
import type { Rng } from './rng.ts';
import { valueOf, type Format, type Shape, type ValueContext } from './values.ts';

export interface Query {
    name: string;
    key: string;
    merge?: string;
    knockout_prefix?: string;
    sort_merged_arrays?: boolean;
    merge_hash_arrays?: boolean;
    type?: string;
    default?: unknown;
    /** A --default given as text that may not be JSON (the oracle then takes it as a string). */
    defaultRaw?: string;
    explain?: boolean;
    compile?: boolean;
    /** Features this query exercises (not written to case.yaml). */
    tags?: string[];
}

export interface Scenario {
    readonly name: string;
    readonly files: Map<string, string>;
    readonly node: string;
    readonly facts?: string;
    readonly trusted?: string;
    readonly queries: Query[];
    readonly tags: Set<string>;
}

/** Keys of environment data and their shapes. */
const ENV_KEYS: Readonly<Record<string, Shape>> = {
    common_str: 'scalar', common_int: 'scalar', message: 'string', packages: 'array', ports: 'array', users: 'deep',
    settings: 'deep', flag: 'scalar', mixed: 'any', 'profile::base::motd': 'string', 'profile::web::vhosts': 'hash',
    'ntp::servers': 'array', 'mod_a::name': 'scalar', 'dotted.root': 'scalar', loop_a: 'string', loop_b: 'string'
};
const MODULES = ['mod_a', 'mod_b'];
const MODULE_KEYS: Readonly<Record<string, Shape>> = { name: 'scalar', list: 'array', conf: 'deep', msg: 'string', extra: 'any' };
const NODES = ['web01.example.com', 'db01.example.com', 'app01.prod.example.net', 'solo', 'cache01.example.com'];
const FAMILIES = ['Debian', 'RedHat'];
const ROLES = ['web', 'db', 'app'];
const DCS = ['dc1', 'dc2'];
const KNOCKOUTS = ['--', '!', '^^', 'x-'];

interface FactSet {
    readonly values: Map<string, unknown>;
    readonly vars: Map<string, string>;
}

/** The node's facts, and the flat variables path templates can use. */
function makeFacts(rng: Rng, node: string): FactSet {
    const family = rng.pick(FAMILIES);
    const major = family === 'Debian' ? rng.pick(['11', '12']) : rng.pick(['8', '9']);
    const dot = node.indexOf('.');
    const domain = dot < 0 ? '' : node.slice(dot + 1);
    const facts = new Map<string, unknown>();
    facts.set('os', { family, name: family === 'Debian' ? 'Debian' : 'Rocky', release: { major, full: `${major}.1` } });
    facts.set('networking', { fqdn: node, domain, hostname: dot < 0 ? node : node.slice(0, dot) });
    if (rng.chance(0.8)) facts.set('role', rng.pick(ROLES));
    if (rng.chance(0.7)) facts.set('datacenter', rng.pick(DCS));
    if (rng.chance(0.6)) facts.set('services', rng.sample(['ssh', 'ntp', 'cron'], rng.int(0, 3)));
    facts.set('list_fact', ['x', 'y']);
    if (rng.chance(0.3)) facts.set('dotted.fact', 'dv');
    if (rng.chance(0.5)) facts.set('num_fact', rng.pick([3, 3.5]));
    if (rng.chance(0.4)) facts.set('bool_fact', rng.chance(0.5));
    if (rng.chance(0.2)) facts.set('null_fact', null);
    const f = (k: string): string => {
        const v = facts.get(k);
        return v === undefined || v === null ? '' : String(v);
    };
    const vars = new Map<string, string>([
        ['facts.os.family', family], ['facts.os.release.major', major], ['facts.networking.fqdn', node], ['facts.networking.domain', domain],
        ['trusted.certname', node], ['trusted.domain', domain], ['facts.role', f('role')], ['::role', f('role')], ['role', f('role')],
        ['datacenter', f('datacenter')], ['::datacenter', f('datacenter')], ['facts.datacenter', f('datacenter')],
        ['environment', 'production'], ['server_facts.environment', 'production'], ['facts.nonexistent', '']
    ]);
    return { values: facts, vars };
}

interface PathTemplate {
    readonly template: string;
    /** Other values the variable could take (decoy files). */
    readonly decoys: readonly string[];
}

const PATH_TEMPLATES: readonly PathTemplate[] = [
    { template: 'nodes/%{trusted.certname}', decoys: ['other.example.com'] },
    { template: 'nodes/%{facts.networking.fqdn}', decoys: [] },
    { template: 'os/%{facts.os.family}', decoys: FAMILIES },
    { template: 'os/%{facts.os.family}/%{facts.os.release.major}', decoys: [] },
    { template: 'role/%{::role}', decoys: ROLES },
    { template: 'role/%{facts.role}', decoys: ROLES },
    { template: 'role/%{role}', decoys: ROLES },
    { template: 'dc/%{datacenter}', decoys: DCS },
    { template: 'dc/%{::datacenter}', decoys: DCS },
    { template: 'env/%{environment}', decoys: [] },
    { template: 'env/%{server_facts.environment}', decoys: [] },
    { template: 'domain/%{trusted.domain}', decoys: ['example.com'] },
    { template: 'missing/%{facts.nonexistent}', decoys: [] },
    { template: 'common', decoys: [] },
    { template: 'global', decoys: [] },
    { template: 'extra', decoys: [] }
];

const EXT: Readonly<Record<Format, string>> = { yaml: '.yaml', json: '.json', hocon: '.conf' };
const FUNCTION: Readonly<Record<Format, string>> = { yaml: 'yaml_data', json: 'json_data', hocon: 'hocon_data' };

function resolveTemplate(t: string, vars: ReadonlyMap<string, string>): string {
    return t.replace(/%\{([^}]*)\}/g, (_m, e: string) => vars.get(e.trim()) ?? '');
}

/** A data file's content as the level's backend reads it. */
interface DataWriter {
    (path: string, format: Format, entries: [MapKey, V][]): void;
}

class Builder {
    readonly files = new Map<string, string>();
    readonly tags = new Set<string>();
    private readonly yaml: YamlWriter;
    readonly rng: Rng;

    constructor(rng: Rng) {
        this.rng = rng;
        this.yaml = new YamlWriter(rng);
    }

    /** Adds a file, unless its path names a directory (or a file another path runs through). */
    write(path: string, text: string): void {
        if (path.endsWith('/') || path.includes('//')) return;
        for (const other of this.files.keys()) {
            if (other.startsWith(`${path}/`) || path.startsWith(`${other}/`)) return;
        }
        this.files.set(path, text);
    }

    /** Writes a data file (path with its extension) in its format. */
    data: DataWriter = (path, format, entries) => {
        const v = map(entries);
        const rng = this.rng;
        if (format === 'yaml' && rng.chance(0.03)) {
            this.tags.add('data.bad-yaml');
            this.write(path, rng.pick(['a: [1, 2\n', 'a: b: c\n', 'key:\n\t- tab\n', '- list\n- top\n', '"unterminated\n', 'x: *undefined_alias\n', '']));
            return;
        }
        if (format === 'json' && rng.chance(0.03)) {
            this.tags.add('data.bad-json');
            this.write(path, rng.pick(['{"a": 1,}\n', '{a: 1}\n', '[1, 2]\n', '{"a": NaN}\n', '']));
            return;
        }
        if (format === 'hocon' && rng.chance(0.03)) {
            this.tags.add('data.bad-hocon');
            this.write(path, rng.pick(['a = {\n', 'a = ${nope}\n', 'a = [1, 2\n']));
            return;
        }
        if (format === 'yaml') this.write(path, this.yaml.document(v));
        else if (format === 'json') this.write(path, toJson(v, rng));
        else this.write(path, toHocon(v, rng));
    };
}

export interface GenerateOptions {
    /** Probability of an error-provoking variant at each decision that has one. */
    readonly errors: number;
    /** Also the choices added after the first runs (kept apart so older seeds stay the same scenarios). */
    readonly extended?: boolean;
    /** Also the choices added in session 6 (function levels, ...), apart for the same reason. */
    readonly wide?: boolean;
}

/** Path templates only extended runs use. */
const EXTENDED_TEMPLATES: readonly PathTemplate[] = [
    { template: 'ext/%{trusted.extensions.pp_role}', decoys: ROLES },
    { template: 'list/%{facts.list_fact.0}', decoys: ['y'] },
    { template: 'dotted/%{facts."dotted.fact"}', decoys: [] },
    { template: "method/%{lookup('common_str')}", decoys: [] },
    { template: 'upper/%{facts.os.name}', decoys: ['Rocky'] },
    { template: 'scoped/%{scope("role")}', decoys: [] }
];

/** Generates scenario `name` from `rng`. */
export function generateScenario(name: string, rng: Rng, opts: GenerateOptions): Scenario {
    const b = new Builder(rng);
    const node = rng.pick(NODES);
    const facts = makeFacts(rng, node);
    b.write('facts.yaml', stringify(Object.fromEntries(facts.values)));
    let trusted: string | undefined;
    if (rng.chance(0.3)) {
        b.tags.add('trusted.extensions');
        const ext: Record<string, unknown> = { pp_role: rng.pick(ROLES) };
        if (rng.chance(0.5)) ext.pp_environment = 'staging';
        b.write('trusted.yaml', stringify({ extensions: ext, ...(rng.chance(0.2) ? { authenticated: 'local' } : {}) }));
        trusted = 'trusted.yaml';
        facts.vars.set('trusted.extensions.pp_role', String(ext.pp_role));
    }
    const keys = Object.keys(ENV_KEYS);
    const knockout = rng.chance(0.4) ? rng.pick(KNOCKOUTS) : undefined;
    const ctxFor = (format: Format, moduleKeys: readonly string[] = []): ValueContext => ({
        rng, format, keys: [...keys, ...moduleKeys], interp: 0.15, badInterp: opts.errors * 0.2, tags: b.tags
    });

    // Modules first, so environment data and lookup_options can refer to their keys.
    const modules = rng.sample(MODULES, rng.int(0, 2));
    const moduleKeys = modules.flatMap(m => Object.keys(MODULE_KEYS).map(k => `${m}::${k}`));
    for (const mod of modules) generateModule(b, mod, facts, ctxFor, opts, knockout);

    const envFormats = generateEnvironment(b, facts, ctxFor, opts, knockout, moduleKeys);
    if (rng.chance(0.1)) generateManifest(b);
    const queries = generateQueries(rng, [...keys, ...moduleKeys], knockout, envFormats, b, opts.extended === true);
    return { name, files: b.files, node, facts: 'facts.yaml', trusted, queries, tags: b.tags };
}

interface LevelSpec {
    readonly yaml: Record<string, unknown>;
    readonly format: Format;
    /** Data file paths (relative to the env/module root) this level reads, if written. */
    readonly paths: string[];
}

/** A hierarchy level: its hiera.yaml entry and the data files to write for it. */
function makeLevel(b: Builder, index: number, facts: FactSet, datadir: string, defaultFormat: Format | undefined, opts: GenerateOptions, fnCtx?: ValueContext): LevelSpec {
    const { rng } = b;
    if (opts.wide && fnCtx && rng.chance(0.2)) {
        const kind = rng.weighted({ lookup_key: 3, data_hash: 2, data_dig: 2 }) as FunctionKind;
        const entry: Record<string, unknown> = { name: `level ${index}`, ...functionLevel(b, 'fnmod', `f${index}`, kind, ENV_KEYS, '', fnCtx, opts.errors) };
        const paths: string[] = [];
        const where = rng.weighted({ none: 6, path: 3, uri: 1, uris: 0.5 });
        if (where === 'path') {
            // A location only gates the call (it must exist); the function gets it as options['path'].
            entry.path = rng.pick(['gate.yaml', 'os/%{facts.os.family}.yaml']);
            if (rng.chance(0.7)) paths.push(resolveTemplate(String(entry.path), facts.vars));
            b.tags.add('function.path');
        } else if (where === 'uri') {
            entry.uri = rng.pick(['https://data.example.com/%{trusted.certname}', 'consul://kv/%{facts.os.family}']);
            b.tags.add('function.uri');
        } else if (where === 'uris') {
            entry.uris = ['https://a.example.com/%{facts.os.family}', 'https://b.example.com/common'];
            b.tags.add('function.uris');
        }
        return { yaml: entry, format: 'yaml', paths: paths.map(p => `${resolveTemplate(datadir, facts.vars)}/${p}`) };
    }
    const format: Format = defaultFormat !== undefined && rng.chance(0.5) ? defaultFormat : rng.weighted({ yaml: 7, json: 2, hocon: 1 });
    const entry: Record<string, unknown> = { name: rng.chance(0.9) ? `level ${index}` : `Level-${index}_x` };
    if (defaultFormat === undefined || format !== defaultFormat || rng.chance(0.3)) entry.data_hash = FUNCTION[format];
    const ext = EXT[format];
    let levelDir = datadir;
    if (rng.chance(0.1)) {
        levelDir = rng.pick(['other', 'data/sub', '%{facts.os.family}_data']);
        entry.datadir = levelDir;
        b.tags.add('hiera.level-datadir');
    }
    const resolvedDir = resolveTemplate(levelDir, facts.vars);
    const paths: string[] = [];
    const tpl = (): PathTemplate => (opts.extended && rng.chance(0.2) ? rng.pick(EXTENDED_TEMPLATES) : rng.pick(PATH_TEMPLATES));
    const withExt = (t: string): string => (rng.chance(0.95) ? `${t}${ext}` : t);
    const concrete = (t: string): string[] => {
        const template = [...PATH_TEMPLATES, ...EXTENDED_TEMPLATES].find(p => t.startsWith(p.template));
        const resolved = resolveTemplate(t, facts.vars);
        const out = [resolved];
        for (const d of template?.decoys ?? []) if (rng.chance(0.3)) out.push(t.replace(/%\{[^}]*\}/, d));
        return out;
    };
    const kind = rng.weighted({ path: 8, paths: 3, glob: 2, globs: 1, mapped_paths: 2, none: 0.3, uri: 0.2 });
    b.tags.add(`hiera.location.${kind}`);
    switch (kind) {
        case 'path': {
            const t = withExt(tpl().template);
            entry.path = t;
            paths.push(...concrete(t));
            break;
        }
        case 'paths': {
            const ts = rng.sample(PATH_TEMPLATES, rng.int(1, 3)).map(p => withExt(p.template));
            entry.paths = ts;
            for (const t of ts) paths.push(...concrete(t));
            break;
        }
        case 'glob': case 'globs': {
            const dirName = rng.pick(['groups', 'os/%{facts.os.family}', 'conf.d']);
            const patterns = kind === 'glob' ? [`${dirName}/*${ext}`] : [`${dirName}/*${ext}`, `more/{a,b}${ext}`];
            if (kind === 'glob') entry.glob = patterns[0];
            else entry.globs = patterns;
            const d = resolveTemplate(dirName, facts.vars);
            for (const f of rng.sample(['10-first', '20-second', 'Zed', 'alpha'], rng.int(1, 3))) paths.push(`${d}/${f}${ext}`);
            if (kind === 'globs') paths.push(`more/${rng.pick(['a', 'b'])}${ext}`);
            break;
        }
        case 'mapped_paths': {
            const [fact, v] = rng.pick([['services', 'svc'], ['list_fact', 'item'], ['facts.services', 's'], ['trusted.extensions', 'e'], ['no_such_fact', 'n']]);
            entry.mapped_paths = [fact, v, `mapped/%{${v}}${ext}`];
            const list = fact.endsWith('services') ? (facts.values.get('services') as string[] | undefined) ?? [] : fact === 'list_fact' ? ['x', 'y'] : [];
            for (const x of list) if (rng.chance(0.8)) paths.push(`mapped/${x}${ext}`);
            break;
        }
        case 'uri':
            entry.uri = 'https://example.com/%{trusted.certname}';
            break;
        case 'none':
            break;
    }
    if (rng.chance(0.03)) {
        entry.options = rng.chance(1 - opts.errors) ? { custom: 'value', nested: { a: 1 } } : { path: 'reserved.yaml' };
        b.tags.add('hiera.level-options');
    }
    return { yaml: entry, format, paths: paths.map(p => `${resolvedDir}/${p}`) };
}

/** Keys and values for one data file. */
function dataEntries(b: Builder, keys: Readonly<Record<string, Shape>>, prefix: string, ctx: ValueContext, knockout: string | undefined, lookupOptions: Record<string, unknown> | undefined): [MapKey, V][] {
    const { rng } = b;
    const chosen = rng.sample(Object.keys(keys), rng.int(1, Object.keys(keys).length));
    const entries: [MapKey, V][] = chosen.map(k => {
        if (k === 'loop_a') return [k, str(rng.chance(0.5) ? "%{lookup('loop_b')}" : 'ok-a')];
        if (k === 'loop_b') return [k, str(rng.chance(0.5) ? "%{lookup('loop_a')}" : 'ok-b')];
        const shape = rng.chance(0.05) ? 'any' : keys[k];
        return [`${prefix}${k}`, valueOf(shape, ctx, knockout)];
    });
    if (lookupOptions !== undefined) entries.unshift(['lookup_options', toV(lookupOptions)]);
    return entries;
}

function toV(x: unknown): V {
    if (typeof x === 'string') return str(x);
    if (typeof x === 'boolean') return { t: 'bool', v: x };
    if (typeof x === 'number') return Number.isInteger(x) ? { t: 'int', v: x } : { t: 'float', v: x };
    if (x === null) return { t: 'null' };
    if (Array.isArray(x)) return { t: 'arr', items: x.map(toV) };
    return map(Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, toV(v)]));
}

/** A lookup_options hash for some of `keys`. */
function lookupOptions(b: Builder, keys: readonly string[], knockout: string | undefined, patternPrefix: string): Record<string, unknown> {
    const { rng } = b;
    const out: Record<string, unknown> = {};
    for (const k of rng.sample(keys, rng.int(1, 3))) out[k] = optionValue(b, knockout);
    if (rng.chance(0.3)) {
        b.tags.add('lookup_options.regexp');
        out[`^${patternPrefix}${rng.pick(['.*', 'c.*', '(name|list)$', '[a-m].*'])}`] = optionValue(b, knockout);
    }
    return out;
}

function optionValue(b: Builder, knockout: string | undefined): Record<string, unknown> {
    const { rng } = b;
    const o: Record<string, unknown> = {};
    const what = rng.weighted({ merge: 6, mergeHash: 3, convert: 2, both: 1 });
    if (what === 'merge' || what === 'both') o.merge = rng.pick(['first', 'unique', 'hash', 'deep']);
    if (what === 'mergeHash') {
        const m: Record<string, unknown> = { strategy: rng.pick(['deep', 'deep', 'hash', 'unique']) };
        if (rng.chance(0.5)) m.knockout_prefix = knockout ?? '--';
        if (rng.chance(0.4)) m.sort_merged_arrays = rng.chance(0.8);
        if (rng.chance(0.3)) m.merge_hash_arrays = true;
        o.merge = m;
        b.tags.add('lookup_options.merge-hash');
    }
    if (what === 'convert' || what === 'both') {
        o.convert_to = rng.pick(['String', 'Array', 'Integer', 'Sensitive', ['Integer', 16], 'Hash', 'Boolean', 'Float', ['Array', true], 'SemVer', ['Timestamp', '%Y-%m-%d'], 'Tuple', 'Optional[String]']);
        b.tags.add('lookup_options.convert_to');
    }
    b.tags.add(`lookup_options.${what}`);
    return o;
}

function generateEnvironment(b: Builder, facts: FactSet, ctxFor: (f: Format, mk?: readonly string[]) => ValueContext, opts: GenerateOptions, knockout: string | undefined, moduleKeys: readonly string[]): Format[] {
    const { rng } = b;
    const version = rng.weighted({ v5: 90, v4: 3, v3: 2, missing: 3, broken: opts.errors * 100 });
    b.tags.add(`hiera.env.${version}`);
    if (version === 'missing') return [];
    if (version === 'v3') {
        b.write('hiera.yaml', '---\n:backends:\n  - yaml\n:hierarchy:\n  - common\n:yaml:\n  :datadir: data\n');
        b.data('data/common.yaml', 'yaml', [['common_str', str('from v3 layout')]]);
        return [];
    }
    if (version === 'v4') {
        b.write('hiera.yaml', `---\nversion: 4\ndatadir: data\nhierarchy:\n  - name: "os"\n    backend: yaml\n    path: "os/%{facts.os.family}"\n  - name: common\n    backend: ${rng.pick(['yaml', 'json'])}\n`);
        b.data(`data/os/${resolveTemplate('%{facts.os.family}', facts.vars)}.yaml`, 'yaml', dataEntries(b, ENV_KEYS, '', ctxFor('yaml'), knockout, undefined));
        b.data('data/common.yaml', 'yaml', dataEntries(b, ENV_KEYS, '', ctxFor('yaml'), knockout, undefined));
        b.data('data/common.json', 'json', dataEntries(b, ENV_KEYS, '', ctxFor('json'), knockout, undefined));
        return ['yaml'];
    }
    const config: Record<string, unknown> = { version: 5 };
    let datadir = 'data';
    let defaultFormat: Format | undefined;
    if (rng.chance(0.25)) {
        datadir = rng.pick(['data', 'hieradata']);
        defaultFormat = rng.weighted({ yaml: 3, json: 1 });
        config.defaults = { datadir, data_hash: FUNCTION[defaultFormat] };
        b.tags.add('hiera.defaults');
    }
    const levels = Array.from({ length: rng.int(1, 5) }, (_, i) => makeLevel(b, i + 1, facts, datadir, defaultFormat, opts, ctxFor('json', moduleKeys)));
    config.hierarchy = levels.map(l => l.yaml);
    let text = stringify(config);
    if (version === 'broken') text = breakConfig(b, config, text);
    else if (rng.chance(0.5)) text = `---\n${text}`;
    b.write('hiera.yaml', text);
    const formats: Format[] = [];
    const optionsLevel = rng.int(0, levels.length - 1);
    levels.forEach((l, i) => {
        formats.push(l.format);
        for (const p of l.paths) {
            if (!rng.chance(0.85)) continue;
            const lo = (i === optionsLevel && rng.chance(0.6)) || rng.chance(0.1)
                ? lookupOptions(b, [...Object.keys(ENV_KEYS), ...moduleKeys], knockout, rng.pick(['', 'profile::', 'mod_a::', 'p']))
                : undefined;
            b.data(p, l.format, dataEntries(b, ENV_KEYS, '', ctxFor(l.format, moduleKeys), knockout, lo));
        }
    });
    return formats;
}

/** A broken hiera.yaml: each variant is a configuration error Puppet reports. */
function breakConfig(b: Builder, config: Record<string, unknown>, text: string): string {
    const { rng } = b;
    const variant = rng.pick(['version6', 'versionstr', 'topkey', 'both-paths', 'two-functions', 'unknown-fn', 'dup-name', 'v3backend', 'default-hierarchy', 'bad-yaml', 'not-array', 'level-key', 'no-name', 'empty', 'lookup-key-fn', 'data-dig-fn', 'no-version']);
    b.tags.add(`hiera.broken.${variant}`);
    const h = config.hierarchy as Record<string, unknown>[];
    switch (variant) {
        case 'version6': return text.replace('version: 5', 'version: 6');
        case 'versionstr': return text.replace('version: 5', "version: '5'");
        case 'topkey': return `${text}hierarchies: []\n`;
        case 'both-paths': h[0].paths = ['a.yaml']; h[0].path = 'b.yaml'; return stringify(config);
        case 'two-functions': h[0].lookup_key = 'yaml_data'; h[0].data_hash = 'yaml_data'; return stringify(config);
        case 'unknown-fn': h[0].data_hash = 'no_such_function'; delete h[0].lookup_key; return stringify(config);
        case 'lookup-key-fn': delete h[0].data_hash; h[0].lookup_key = rng.pick(['yaml_data', 'eyaml_lookup_key', 'nope_key']); return stringify(config);
        case 'data-dig-fn': delete h[0].data_hash; h[0].data_dig = 'yaml_data'; return stringify(config);
        case 'dup-name': h.push({ ...h[0] }); return stringify(config);
        case 'v3backend': h[0].hiera3_backend = rng.pick(['yaml', 'json', 'custom']); delete h[0].data_hash; return stringify(config);
        case 'default-hierarchy': config.default_hierarchy = [{ name: 'd', path: 'd.yaml' }]; return stringify(config);
        case 'bad-yaml': return `${text}  - name: [unclosed\n`;
        case 'not-array': config.hierarchy = { name: 'x' }; return stringify(config);
        case 'level-key': h[0].pathz = 'x.yaml'; return stringify(config);
        case 'no-name': delete h[0].name; return stringify(config);
        case 'empty': return '';
        case 'no-version': delete config.version; return stringify(config);
    }
    return text;
}

function generateModule(b: Builder, mod: string, facts: FactSet, ctxFor: (f: Format, mk?: readonly string[]) => ValueContext, opts: GenerateOptions, knockout: string | undefined): void {
    const { rng } = b;
    const root = `modules/${mod}`;
    b.write(`${root}/manifests/init.pp`, `class ${mod}(\n  $name_param = undef,\n) {\n}\n`);
    const kind = rng.weighted({ v5: 8, defaultHierarchy: 2, none: 1, v4: 0.5, broken: opts.errors * 10 });
    b.tags.add(`module.${kind}`);
    const prefix = `${mod}::`;
    const moduleKeys = Object.keys(MODULE_KEYS).map(k => `${prefix}${k}`);
    const ctx = (f: Format): ValueContext => ctxFor(f, moduleKeys);
    const entries = (f: Format, withOptions: boolean): [MapKey, V][] => {
        const lo = withOptions ? lookupOptions(b, rng.chance(opts.errors) ? ['common_str'] : moduleKeys, knockout, prefix) : undefined;
        const e = dataEntries(b, MODULE_KEYS, prefix, ctx(f), knockout, lo);
        if (rng.chance(0.1)) {
            b.tags.add('module.foreign-key');
            e.push([rng.pick(['common_str', 'other_mod::x']), str('foreign')]);
        }
        return e;
    };
    if (kind === 'none') {
        b.data(`${root}/data/common.yaml`, 'yaml', entries('yaml', false));
        return;
    }
    if (kind === 'v4') {
        b.write(`${root}/hiera.yaml`, '---\nversion: 4\nhierarchy:\n  - name: common\n    backend: yaml\n');
        b.data(`${root}/data/common.yaml`, 'yaml', entries('yaml', rng.chance(0.5)));
        return;
    }
    const levels = [
        { name: 'os', path: `os/${'%{facts.os.family}'}.yaml` },
        { name: 'common', path: 'common.yaml' }
    ];
    const config: Record<string, unknown> = { version: 5, hierarchy: rng.chance(0.5) ? levels : [levels[1]] };
    if (opts.wide && rng.chance(0.35)) {
        const kind = rng.weighted({ lookup_key: 3, data_hash: 2, data_dig: 1 }) as FunctionKind;
        const fnLevel = { name: 'function', ...functionLevel(b, mod, 'fndata', kind, MODULE_KEYS, prefix, ctx('json'), opts.errors) };
        config.hierarchy = rng.chance(0.6) ? [fnLevel, ...(config.hierarchy as object[])] : [...(config.hierarchy as object[]), fnLevel];
    }
    if (kind === 'defaultHierarchy') config.default_hierarchy = [{ name: 'defaults', path: 'defaults.yaml' }];
    let text = stringify(config);
    if (kind === 'broken') text = rng.pick([text.replace('version: 5', 'version: 7'), `${text}extra: 1\n`, text.replace('path:', 'pathz:')]);
    b.write(`${root}/hiera.yaml`, text);
    b.data(`${root}/data/common.yaml`, 'yaml', entries('yaml', rng.chance(0.6)));
    if (rng.chance(0.7)) b.data(`${root}/data/os/${resolveTemplate('%{facts.os.family}', facts.vars)}.yaml`, 'yaml', entries('yaml', rng.chance(0.3)));
    if (kind === 'defaultHierarchy') b.data(`${root}/data/defaults.yaml`, 'yaml', entries('yaml', rng.chance(0.5)));
}

function generateManifest(b: Builder): void {
    const { rng } = b;
    b.tags.add('compile.site');
    const lines = [`$role = '${rng.pick(ROLES)}'`, `$datacenter = '${rng.pick(DCS)}'`];
    if (rng.chance(0.5)) lines.push(`$extra_var = 'site'`);
    b.write('manifests/site.pp', `${lines.join('\n')}\n`);
}

const TYPES = ['String', 'Integer', 'Array[String]', 'Array', 'Hash', 'Hash[String, Any]', 'Optional[String]', 'Variant[String, Integer]', 'Boolean', 'Collection',
    'Tuple[String, 1]', 'Struct[{a => String}]', 'Enum[alpha, beta]', 'Pattern[/^a/]', 'NotUndef', 'Array[Integer, 2]', 'Scalar', 'Numeric', 'Undef', 'Float', 'Sensitive'];
const DEFAULTS: readonly unknown[] = ['dflt', 42, 1.5, [1, 2], { a: 1 }, null, true, '', { nested: { x: [] } }];

function generateQueries(rng: Rng, keys: readonly string[], knockout: string | undefined, formats: readonly Format[], b: Builder, extended: boolean): Query[] {
    const n = rng.int(3, 7);
    const out: Query[] = [];
    const names = new Set<string>();
    const hasSite = b.files.has('manifests/site.pp');
    for (let i = 0; i < n; i++) {
        const q: Query = { name: '', key: extended && rng.chance(0.15) ? rng.pick(EXTENDED_KEYS) : pickKey(rng, keys) };
        const m = rng.weighted({ none: 5, first: 0.5, unique: 1, hash: 1, deep: 2 });
        if (m !== 'none') {
            q.merge = m;
            if (m === 'deep') {
                if (rng.chance(0.4)) q.knockout_prefix = knockout ?? '--';
                if (rng.chance(0.3)) q.sort_merged_arrays = true;
                if (rng.chance(0.3)) q.merge_hash_arrays = true;
            }
        }
        if (rng.chance(0.15)) q.type = rng.pick(TYPES);
        if (rng.chance(0.15)) q.default = rng.pick(DEFAULTS);
        if (rng.chance(0.15) || (extended && rng.chance(0.1))) q.explain = true;
        if (extended && q.default === undefined && rng.chance(0.05)) q.defaultRaw = rng.pick(['bareword', '{not json', '[1,', '"q"', '007']);
        if (hasSite && rng.chance(0.6)) q.compile = true;
        let base = q.key.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'key';
        if (q.merge) base += `-${q.merge}`;
        if (q.explain) base += '-explain';
        let name = base;
        for (let j = 2; names.has(name); j++) name = `${base}-${j}`;
        names.add(name);
        q.name = name;
        out.push(q);
    }
    void formats;
    return out;
}

const EXTENDED_KEYS = ['settings."dotted.key"', "users.'k1'", '"mod_a::conf".a', 'mod_a::conf."dotted.key"', '::mod_a::name', 'MOD_A::name', 'packages."0"', 'settings.opts.0',
    'users.k1.b', 'lookup_options.settings', 'settings.\'a\'', 'mixed.name.0', 'ports.1.x', '"unterminated'];

function pickKey(rng: Rng, keys: readonly string[]): string {
    switch (rng.weighted({ plain: 10, dotted: 2, missing: 1, special: 0.6 })) {
        case 'plain': return rng.pick(keys);
        case 'dotted': return rng.pick(['settings.a', 'settings.opts', 'settings.opts.k1', 'users.alice', 'packages.0', 'packages.3', 'ports.-1', 'settings."dotted.key"',
            "'dotted.root'", '"dotted.root"', 'common_str.x', 'mod_a::conf.a', 'mod_a::list.1', 'settings.a.b.c', 'mixed.0']);
        case 'missing': return rng.pick(['no_such_key', 'mod_c::x', 'mod_a::no_such', 'profile::nothing']);
        case 'special': return rng.pick(['lookup_options', 'lookup_options.x', 'settings..a', 'settings.', "'unclosed", '::common_str', 'Common_Str', 'mod_a::', '']);
    }
    return 'common_str';
}
