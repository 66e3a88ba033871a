import { spawnSync } from 'node:child_process';
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { nodeFileSystem, parseYaml, pathExists, type FileSystemProvider, type SourcePoint } from '../../common/index.js';
import { BindingsIssues } from '../issues.js';
import { fail, type LayerInfo, type ProviderContext } from './provider.js';
import { puppetConfEnc } from './puppet-conf.js';

/** A program as configured: the command and its fixed arguments. */
export type ProgramCommand = readonly string[];

/**
 * `CODEDIR/bindings/providers.yaml`: the programs behind the `enc:` scheme and external schemes.
 *
 *     enc: ['python3', 'enc.py']            # run as `python3 enc.py NODE` (Puppet's exec terminus)
 *     schemes:
 *       inventory: ['python3', 'inventory.py']   # run as `python3 inventory.py URI`, request JSON on stdin
 *
 * A command may also be one string (split at spaces). Programs run in the bindings directory.
 */
export interface ProvidersConfig {
    readonly file?: string;
    readonly dir: string;
    readonly enc?: ProgramCommand;
    /** Where the ENC runs when it is not providers.yaml's (puppet.conf's external_nodes runs in the confdir). */
    readonly encDir?: string;
    readonly schemes: ReadonlyMap<string, ProgramCommand>;
    /** Where each key (`/enc`, `/schemes/NAME`) is written in the file. */
    readonly positions: ReadonlyMap<string, SourcePoint>;
}

const BUILT_IN = new Set(['confdir', 'module', 'enc', 'hiera']);

export function readProvidersConfig(codedir: string, bindingsDir = join(resolve(codedir), 'bindings'), fs: FileSystemProvider = nodeFileSystem): ProvidersConfig {
    const config = readProvidersYaml(codedir, bindingsDir, fs);
    if (config.enc) return config;
    // No ENC in providers.yaml: the one Puppet's settings configure, if any.
    const fromPuppet = puppetConfEnc(fs, codedir);
    if (!fromPuppet) return config;
    const positions = new Map(config.positions);
    positions.set('/enc', fromPuppet.at);
    return { ...config, enc: fromPuppet.command, encDir: fromPuppet.dir, positions };
}

function readProvidersYaml(codedir: string, bindingsDir: string, fs: FileSystemProvider): ProvidersConfig {
    const dir = resolve(bindingsDir);
    const file = join(dir, 'providers.yaml');
    if (!pathExists(fs, file)) return { dir, schemes: new Map(), positions: new Map() };
    const display = relative(resolve(codedir), file);
    const text = fs.readText(file);
    // Read for every node of a batch: taken as read before while the text is the same.
    const known = configs.get(`${dir}\0${display}`);
    if (known && known.text === text) return known.config;
    // Where each key is written, so every error about the file (or a program it names) has a line and column.
    const positions = keyPositions(text, display);
    const at = (path: string): { file: string; at: SourcePoint } => ({ file: display, at: positions.get(path) ?? positions.get(path.replace(/\/[^/]*$/, '')) ?? { file: display, line: 1, column: 1 } });
    let data: unknown;
    try {
        data = parseYaml(text);
    } catch (e) {
        const pos = (e as { linePos?: Array<{ line: number; col: number }> }).linePos?.[0];
        const where = pos ? { file: display, at: { file: display, line: pos.line, column: pos.col } } : at('');
        fail(BindingsIssues.BIND_PROVIDERS_CONFIG, `cannot read providers config: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, where);
    }
    if (data === null || data === undefined) return { dir, file: display, schemes: new Map(), positions };
    if (typeof data !== 'object' || Array.isArray(data)) fail(BindingsIssues.BIND_PROVIDERS_CONFIG, 'providers.yaml must hold a mapping with enc and/or schemes', at(''));
    const { enc, schemes, ...rest } = data as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) fail(BindingsIssues.BIND_PROVIDERS_CONFIG, `unknown key '${unknown[0]}' (only enc and schemes)`, at(`/${unknown[0]}`));
    const out = new Map<string, ProgramCommand>();
    if (schemes !== undefined) {
        if (typeof schemes !== 'object' || schemes === null || Array.isArray(schemes)) fail(BindingsIssues.BIND_PROVIDERS_CONFIG, 'schemes must map scheme names to commands', at('/schemes'));
        for (const [scheme, cmd] of Object.entries(schemes)) {
            // URI scheme characters, and `_` (ARM-8's own example is `my_ldap:`).
            if (!/^[a-z][a-z0-9+._-]*$/.test(scheme) || BUILT_IN.has(scheme)) {
                fail(BindingsIssues.BIND_PROVIDERS_CONFIG, `'${scheme}' cannot name an external scheme (lower-case, not one of ${[...BUILT_IN].join(', ')})`, at(`/schemes/${scheme}`));
            }
            out.set(scheme, command(cmd, at(`/schemes/${scheme}`)));
        }
    }
    const config: ProvidersConfig = { dir, file: display, schemes: out, positions, ...(enc !== undefined ? { enc: command(enc, at('/enc')) } : {}) };
    if (configs.size > 100) configs.clear();
    configs.set(`${dir}\0${display}`, { text, config });
    return config;
}

/** providers.yaml files as read, by directory and displayed name, with their text. */
const configs = new Map<string, { readonly text: string; readonly config: ProvidersConfig }>();

/** `/enc`, `/schemes`, `/schemes/NAME` and any other top-level key: where the key is written (block-style YAML). */
function keyPositions(text: string, file: string): Map<string, SourcePoint> {
    const out = new Map<string, SourcePoint>();
    let inSchemes = false;
    text.split('\n').forEach((line, i) => {
        const m = /^(\s*)(['"]?)([^'":#\s][^'":#]*?)\2\s*:(\s|$)/.exec(line);
        if (!m) return;
        const point = { file, line: i + 1, column: m[1].length + 1 };
        if (m[1] === '') {
            inSchemes = m[3] === 'schemes';
            out.set(`/${m[3]}`, point);
        } else if (inSchemes) {
            out.set(`/schemes/${m[3]}`, point);
        }
    });
    return out;
}

function command(v: unknown, where: { file: string; at: SourcePoint }): ProgramCommand {
    if (typeof v === 'string' && v.trim() !== '') return v.trim().split(/\s+/);
    if (Array.isArray(v) && v.length > 0 && v.every(x => typeof x === 'string')) return v as string[];
    fail(BindingsIssues.BIND_PROVIDERS_CONFIG, 'a command is a string or a non-empty array of strings', where);
}

/** How long a provider may run, and how much of its output and stderr modelc takes. */
const PROGRAM_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const STDERR_TAIL_CHARS = 2000;
/** MAX_OUTPUT_BYTES in the 512-byte blocks of `ulimit -f` (a shell counting 1 KB blocks allows twice that; the size is checked after). */
const OUTPUT_LIMIT_BLOCKS = MAX_OUTPUT_BYTES / 512 + 1;

/**
 * Runs a provider program; a failure to start or a non-zero exit is the given error code with
 * the end of the program's stderr. Its stdin, stdout and stderr are files, not pipes: the run
 * ends when the program exits even if a child it left in the background still holds them, a
 * program that never reads its input cannot fail the run with EPIPE, and a flood of stderr is
 * not held in memory.
 */
export function runProgram(cmd: ProgramCommand, args: readonly string[], config: ProvidersConfig, code: string, input?: string): string {
    const shown = [...cmd, ...args].join(' ');
    // A program's failure is located where providers.yaml names it.
    const path = cmd === config.enc ? '/enc' : `/schemes/${[...config.schemes].find(([, c]) => c === cmd)?.[0] ?? ''}`;
    const point = config.positions.get(path);
    const where = point ? { file: point.file, at: point } : config.file ? { file: config.file } : {};
    const dir = mkdtempSync(join(tmpdir(), 'modelc-provider-'));
    try {
        writeFileSync(join(dir, 'stdin'), input ?? '');
        const fds = [openSync(join(dir, 'stdin'), 'r'), openSync(join(dir, 'stdout'), 'w+'), openSync(join(dir, 'stderr'), 'w+')] as const;
        try {
            // Started by a shell that first caps the size of the files it writes (its stdout is one):
            // a program printing without end (`cat /dev/zero`) filled the disk until the timeout.
            const r = spawnSync('/bin/sh', ['-c', `ulimit -f ${OUTPUT_LIMIT_BLOCKS} 2>/dev/null; exec "$0" "$@"`, ...cmd, ...args],
                { cwd: cmd === config.enc ? config.encDir ?? config.dir : config.dir, stdio: [...fds], timeout: PROGRAM_TIMEOUT_MS });
            // The cap ends the program (SIGXFSZ), or the child of a shell it runs (then the shell's status is 128+25).
            if (r.signal === 'SIGXFSZ' || fstatSync(fds[1]).size >= MAX_OUTPUT_BYTES) fail(code, `'${shown}' printed more than ${MAX_OUTPUT_BYTES / 1024 / 1024} MB`, where);
            if ((r.status === 126 || r.status === 127) && /exec: .*(not found|No such file)|Permission denied/.test(tail(fds[2], STDERR_TAIL_CHARS))) {
                fail(code, `cannot run '${shown}': ${tail(fds[2], STDERR_TAIL_CHARS).replace(/^.*exec: /, '')}`, where);
            }
            if (r.error) {
                const timedOut = (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
                fail(code, timedOut ? `'${shown}' did not finish within ${PROGRAM_TIMEOUT_MS / 1000} s` : `cannot run '${shown}': ${r.error.message}`, where);
            }
            if (r.status !== 0) {
                const err = tail(fds[2], STDERR_TAIL_CHARS);
                fail(code, `'${shown}' exited with ${r.status === null ? `signal ${r.signal ?? '?'}` : `status ${r.status}`}${err ? `: ${err}` : ''}`, where);
            }
            return readFileSync(join(dir, 'stdout'), 'utf8');
        } finally {
            for (const fd of fds) closeSync(fd);
        }
    } finally {
        // The three files and the directory (a recursive removal walks the directory first: a
        // batch runs this for every node).
        for (const f of ['stdin', 'stdout', 'stderr']) rmSync(join(dir, f), { force: true });
        rmdirSync(dir);
    }
}

/** The last `max` characters of a file, on one line ("..." marks a cut). */
function tail(fd: number, max: number): string {
    const size = fstatSync(fd).size;
    const length = Math.min(size, max * 4);
    const buf = Buffer.alloc(length);
    readSync(fd, buf, 0, length, size - length);
    const text = buf.toString('utf8').trim().replace(/\s*\n\s*/g, ' | ');
    return text.length > max || size > length ? `...${text.slice(-max)}` : text;
}

/** The request an external provider reads on stdin: which URI, for whom. */
export function requestJson(ctx: ProviderContext, uri: string, layer?: LayerInfo): string {
    const facts: Record<string, unknown> = {};
    for (const [k, v] of ctx.facts) facts[k] = plain(v);
    return JSON.stringify({ uri, node: ctx.node, environment: ctx.environment, facts, ...(layer ? { layer } : {}) });
}

function plain(v: unknown): unknown {
    if (typeof v === 'bigint') return Number(v);
    if (Array.isArray(v)) return v.map(plain);
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
    return v === undefined ? null : v;
}
