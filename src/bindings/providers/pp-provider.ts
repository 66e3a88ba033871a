import { join } from 'node:path';
import type { ContributedBindings, NamedBindings } from '../../../generated/model/bindings.js';
import { isDirectoryPath, nodeFileSystem, pathExists, UserError, type Diagnostic, type FileSystemProvider } from '../../common/index.js';
import { parsePuppet } from '../../parse/index.js';
import { uriMatches } from '../../injector/index.js';
import { BindingsIssues } from '../issues.js';
import { BindingsTransformer, type BindingsFile } from '../pp/transform.js';
import { displayPath, fail, splitUri, type BindingsProvider, type ProviderContext } from './provider.js';

/** Parses one bindings `.pp` file into Bindings model objects; parse and transform errors are thrown together. */
export function loadBindingsFile(path: string, display: string, fs: FileSystemProvider = nodeFileSystem): BindingsFile {
    let text: string;
    try {
        text = fs.readText(path);
    } catch (e) {
        fail(BindingsIssues.BIND_NOT_FOUND, `cannot read bindings file: ${e instanceof Error ? e.message : String(e)}`, { file: display });
    }
    // Every node of a batch composes its bindings from the same files: each is parsed once while
    // its text is the same, and every caller gets its own copy of the model objects.
    const key = `${path}\0${display}`;
    const known = transformed.get(key);
    if (known && known.text === text) return structuredClone(known.file);
    const parsed = parsePuppet(text, display);
    const errors = parsed.diagnostics.filter(d => d.severity === 'error');
    if (errors.length > 0) throw new UserError(errors.map((d): Diagnostic => ({ ...d, code: BindingsIssues.BIND_PARSE, message: `${d.code}: ${d.message}` })));
    const file = new BindingsTransformer(display).transform(parsed.ast.arm8);
    if (file.diagnostics.some(d => d.severity === 'error')) throw new UserError(file.diagnostics);
    if (transformed.size > 1_000) transformed.clear();
    transformed.set(key, { text, file: structuredClone(file) });
    return file;
}

/** Bindings files as transformed, by path and displayed name, with the text they were made from. */
const transformed = new Map<string, { readonly text: string; readonly file: BindingsFile }>();

/** A bindings file with the symbolic name it is found under. */
interface Candidate {
    readonly name: string;
    readonly path: string;
}

/**
 * The `confdir:` and `module:` providers (ARM-8 "Confdir / Module Bindings Provider"). A
 * symbolic name `a::b::c` is the file `a/b/c.pp` under `CODEDIR/bindings` (confdir) or, for
 * `module:/mod::b::c`, `b/c.pp` under the module's `bindings` directory. `*` matches one segment,
 * `**` any number; wildcard URIs are implicitly optional, as in the binder.
 */
export class PpBindingsProvider implements BindingsProvider {
    private index: Candidate[] | undefined;

    constructor(readonly scheme: 'confdir' | 'module', private readonly ctx: ProviderContext) {}

    private get files(): FileSystemProvider {
        return this.ctx.fs ?? nodeFileSystem;
    }

    expand(uri: string): string[] {
        const parts = splitUri(uri);
        if (!parts) fail(BindingsIssues.BIND_BAD_URI, `not a bindings URI: '${uri}'`);
        if (!parts.path.includes('*')) return [`${this.scheme}:/${this.symbolic(uri, parts.path)}`];
        const pattern = `${this.scheme}:${parts.path.toLowerCase()}`;
        return this.candidates().filter(c => uriMatches(pattern, `${this.scheme}:/${c.name.toLowerCase()}`)).map(c => `${this.scheme}:/${c.name}`);
    }

    contribute(uri: string, pattern: string, optional: boolean): ContributedBindings | undefined {
        const name = this.symbolic(uri, splitUri(uri)?.path ?? '');
        const found = this.candidates().find(c => c.name.toLowerCase() === name.toLowerCase());
        if (!found) {
            if (optional) return undefined;
            fail(BindingsIssues.BIND_NOT_FOUND, `Cannot load bindings '${uri}' - no bindings found.`, { file: this.where(name) });
        }
        const display = displayPath(this.ctx, found.path);
        const file = loadBindingsFile(found.path, display, this.ctx.fs);
        const bindings = file.bindings.filter(b => (b.name ?? '').toLowerCase() === found.name.toLowerCase());
        const strangers = file.bindings.filter(b => !bindings.includes(b));
        if (strangers.length > 0 || bindings.length === 0) {
            const b = strangers[0] ?? file.bindings[0];
            // A file without any bindings block is located at its start.
            const at = { file: display, at: { file: display, line: b?.location?.line ?? 1, column: b?.location?.column ?? 1 } };
            // ARM-8: "must reside in a file called default.pp ... or it will not be found by the default loader".
            fail(BindingsIssues.BIND_WRONG_NAME, b
                ? `bindings '${b.name ?? ''}' in ${display}: a file found as '${found.name}' must define 'bindings ${found.name}'`
                : `${display} defines no 'bindings ${found.name}'`, at);
        }
        const source = { $type: 'ContributionSource' as const, scheme: this.scheme, uri: `${this.scheme}:/${found.name}`, pattern, provider: `${this.scheme} bindings (.pp)`, optional };
        return {
            $type: 'ContributedBindings', name: source.uri, location: { $type: 'SourceLocation', file: display }, source,
            bindings: bindings.map((b): NamedBindings => ({ ...b, contributedBy: source }))
        };
    }

    /** `confdir:/a::b` → `a::b`; `module:/ntp::default` → `ntp::default` (the leading slash is optional). */
    private symbolic(uri: string, path: string): string {
        const name = path.replace(/^\/+/, '').replace(/\/+$/, '');
        if (name === '' || (this.scheme === 'module' && !name.includes('::'))) {
            fail(BindingsIssues.BIND_BAD_URI, `'${uri}' does not name bindings: use ${this.scheme === 'module' ? 'module:/MODULE::NAME' : 'confdir:/NAME'}`);
        }
        return name;
    }

    private where(name: string): string {
        if (this.scheme === 'confdir') return displayPath(this.ctx, join(this.ctx.bindingsDir, ...name.split('::')) + '.pp');
        const [mod, ...rest] = name.split('::');
        return join(mod, 'bindings', ...rest) + '.pp';
    }

    /** Every bindings file this provider can see, by symbolic name (listed once per provider). */
    private candidates(): Candidate[] {
        if (this.index) return this.index;
        const out: Candidate[] = [];
        if (this.scheme === 'confdir') {
            // bindings/site.pp holds the site {} definition (see compose.ts), not named bindings.
            out.push(...ppFiles(this.files, this.ctx.bindingsDir, []).filter(c => c.name !== 'site'));
        } else {
            const seen = new Set<string>();
            for (const base of this.ctx.modulePath) {
                for (const mod of listDir(this.files, base).sort()) {
                    if (seen.has(mod) || !/^[a-z][a-z0-9_]*$/.test(mod) || !isDirectoryPath(this.files, join(base, mod))) continue;
                    seen.add(mod);
                    out.push(...ppFiles(this.files, join(base, mod, 'bindings'), [mod]));
                }
            }
        }
        this.index = out;
        return out;
    }
}

function ppFiles(fs: FileSystemProvider, dir: string, prefix: readonly string[]): Candidate[] {
    if (!pathExists(fs, dir)) return [];
    const out: Candidate[] = [];
    for (const entry of listDir(fs, dir).sort()) {
        const path = join(dir, entry);
        if (isDirectoryPath(fs, path)) out.push(...ppFiles(fs, path, [...prefix, entry]));
        else if (entry.endsWith('.pp')) out.push({ name: [...prefix, entry.slice(0, -3)].join('::'), path });
    }
    return out;
}

function listDir(fs: FileSystemProvider, dir: string): string[] {
    try {
        return fs.readdir(dir);
    } catch {
        return [];
    }
}
