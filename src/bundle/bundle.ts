import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Program } from '../../generated/langium/ast.js';
import {
    decodeUtf8, isUserError, MemoryFileSystemProvider, nodeFileSystem, UserError, type FileSystemProvider
} from '../common/index.js';
import { bootEnvironment, type Environment } from '../catalog/index.js';
import { asModelObject, modelRegistry, type Model, type ModelObject, type PackageIndex } from '../model/index.js';
import { ParsedFileCache, parsePuppet, recordPositions } from '../parse/index.js';
import { BundleIssues } from './issues.js';
import { reviveProgram } from './revive.js';

export type SourceKind = 'manifest' | 'template' | 'data' | 'config' | 'metadata' | 'ruby' | 'file' | 'bindings';

/** What a module holds that the compile stages read (Puppet's module layout). */
const MODULE_PARTS = new Set(['manifests', 'functions', 'types', 'templates', 'files', 'data', 'lib', 'bindings', 'hiera.yaml', 'metadata.json']);

function puppetPackage(): PackageIndex {
    const index = modelRegistry().byPackageName('Puppet');
    if (!index) throw new Error('the Puppet package is not generated');
    return index;
}

function kindOf(rel: string): SourceKind {
    const parts = rel.split('/');
    const name = parts[parts.length - 1] ?? '';
    if (parts.includes('bindings') && (name.endsWith('.pp') || name === 'providers.yaml')) return 'bindings';
    if (name.endsWith('.pp')) return 'manifest';
    if (name.endsWith('.epp') || name.endsWith('.erb')) return 'template';
    if (name === 'hiera.yaml' || name === 'environment.conf') return 'config';
    if (name === 'metadata.json') return 'metadata';
    if (name.endsWith('.rb')) return 'ruby';
    if (parts.includes('data') && /\.(ya?ml|json)$/.test(name)) return 'data';
    return 'file';
}

export interface BundleOptions {
    /** The environment's name (default production). */
    readonly environment?: string;
    /** The base module path (what `$basemodulepath` stands for). */
    readonly basemodulepath?: readonly string[];
    /** Where the environment is read from (default: the disk). */
    readonly fs?: FileSystemProvider;
}

/**
 * Reads an environment into one Environment model (`modelc parse CODEDIR --bundle FILE`): every
 * file a compile reads (the environment's files, and of each module on its module path what
 * Puppet's module layout gives the stages), manifests and EPP templates as parsed ASTs with their
 * positions. A file that does not parse goes in as text alone: its error is the compile's to
 * report, when (and only if) the compile loads it, as from source.
 */
export function bundleEnvironment(codedir: string, options: BundleOptions = {}): Model {
    const fs = options.fs ?? nodeFileSystem;
    const name = options.environment ?? 'production';
    const basemodulepath = options.basemodulepath ?? [];
    const env = bootEnvironment(codedir, name, basemodulepath, fs);
    const files = new Map<string, string>();
    const seen = new Set<string>();
    const visit = (path: string, keep: (rel: string) => boolean, top: string): void => {
        const st = fs.stat(path);
        if (!st) return;
        if (st.isFile) {
            files.set(path, path);
            return;
        }
        if (!st.isDirectory) return;
        // A symlink loop (or one directory reached twice) is read once.
        const real = fs === nodeFileSystem ? realpathSync(path) : path;
        if (seen.has(real)) return;
        seen.add(real);
        for (const entry of fs.readdir(path).sort()) {
            if (entry.startsWith('.')) continue;
            const child = join(path, entry);
            if (keep(relative(top, child))) visit(child, keep, top);
        }
    };
    const moduleDirs = env.modulepath.map(d => resolve(d));
    const inModulePath = (abs: string): boolean => moduleDirs.some(d => abs === d || abs.startsWith(d + sep));
    for (const dir of moduleDirs) {
        for (const mod of fs.stat(dir)?.isDirectory ? fs.readdir(dir).sort() : []) {
            if (mod.startsWith('.')) continue;
            const top = join(dir, mod);
            visit(top, rel => MODULE_PARTS.has(rel.split(sep)[0] ?? ''), top);
        }
    }
    visit(env.dir, rel => !inModulePath(join(env.dir, rel)), env.dir);
    for (const m of env.manifests) files.set(m, m);
    const index = puppetPackage();
    const sourceFiles = [...files.keys()].sort().map(abs => sourceFile(fs, env.dir, abs));
    const root = { $type: 'Environment', name, root: env.dir, basemodulepath: [...basemodulepath], files: sourceFiles };
    return { index, root: asModelObject(root) };
}

function sourceFile(fs: FileSystemProvider, root: string, abs: string): ModelObject {
    const path = relative(root, abs).split(sep).join('/');
    const kind = kindOf(path);
    const bytes = fs.readFile(abs);
    let text: string | undefined;
    try {
        text = decodeUtf8(bytes, path, BundleIssues.BUNDLE_ENCODING);
    } catch (e) {
        if (!isUserError(e)) throw e;
    }
    if (text === undefined) return asModelObject({ $type: 'SourceFile', path, kind, base64: Buffer.from(bytes).toString('base64') });
    const parsable = kind === 'manifest' || path.endsWith('.epp');
    const parsed = parsable ? parsePuppet(text, path, { epp: path.endsWith('.epp') }) : undefined;
    const ast = parsed && !parsed.diagnostics.some(d => d.severity === 'error') ? { ast: recordPositions(parsed.ast) } : {};
    return asModelObject({ $type: 'SourceFile', path, kind, text, ...ast });
}

/** Whether a model is an environment bundle. */
export function isEnvironmentBundle(model: Model): boolean {
    return model.index.pkg.name === 'Puppet' && model.root.$type === 'Environment';
}

interface BundleFile {
    readonly path: string;
    readonly text?: string;
    readonly base64?: string;
    readonly ast?: ModelObject;
}

/**
 * The environment a compile runs in, from a bundle: its files in memory at the directory they
 * were read from (so paths in catalogs and messages are the same), its ASTs revived on first use.
 */
export function environmentFromBundle(model: Model, file: string): Environment {
    if (!isEnvironmentBundle(model)) {
        throw new UserError({ severity: 'error', code: BundleIssues.BUNDLE_NOT_AN_ENVIRONMENT, message: `expected an Environment bundle (modelc parse CODEDIR --bundle FILE), got a ${model.index.pkg.name} ${model.root.$type}`, file, path: '/$type' });
    }
    const root = model.root as unknown as { name: string; root: string; basemodulepath?: string[]; files?: BundleFile[] };
    if (!isAbsolute(root.root)) {
        throw new UserError({ severity: 'error', code: BundleIssues.BUNDLE_BAD_ROOT, message: `the bundle's root must be an absolute path, got '${root.root}'`, file, path: '/root' });
    }
    const memory = new MemoryFileSystemProvider();
    const asts = new Map<string, { ast: ModelObject; text: string }>();
    (root.files ?? []).forEach((f, i) => {
        const abs = resolve(root.root, f.path);
        if (f.text === undefined && f.base64 === undefined) {
            throw new UserError({ severity: 'error', code: BundleIssues.BUNDLE_NO_CONTENT, message: `the file '${f.path}' has neither text nor base64 content`, file, path: `/files/${i}` });
        }
        memory.add(abs, f.text ?? Buffer.from(f.base64 ?? '', 'base64'));
        if (f.ast && f.text !== undefined) asts.set(abs, { ast: f.ast, text: f.text });
    });
    const index = model.index;
    const revived = new Map<string, Program>();
    const given = (path: string): Program | undefined => {
        const abs = resolve(path);
        let program = revived.get(abs);
        if (program) return program;
        const entry = asts.get(abs);
        if (!entry) return undefined;
        program = reviveProgram(entry.ast, entry.text, index);
        revived.set(abs, program);
        return program;
    };
    const env = bootEnvironment(root.root, root.name, root.basemodulepath ?? [], memory);
    // The compile's file cache reads the bundle's files and answers parses with the bundle's ASTs.
    return { ...env, fs: memory, files: new ParsedFileCache(memory, given) };
}
