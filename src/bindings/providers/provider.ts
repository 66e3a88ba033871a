import { relative } from 'node:path';
import type { ContributedBindings, NamedBindingsOrSubtype } from '../../../generated/model/bindings.js';
import { UserError, type Diagnostic, type FileSystemProvider } from '../../common/index.js';
import type { PuppetValue } from '../../values/index.js';

/** What every provider may need about the request: where the code is, and who asks. */
export interface ProviderContext {
    /** The environment directory (ARM-8's $confdir for bindings: `CODEDIR/bindings/...`). */
    readonly codedir: string;
    /** The confdir bindings directory (ARM-8 `bindingsdir`, default CODEDIR/bindings). */
    readonly bindingsDir: string;
    /** Module directories, highest priority first (a module found twice is taken from the first). */
    readonly modulePath: readonly string[];
    readonly environment: string;
    readonly node: string;
    readonly facts: ReadonlyMap<string, PuppetValue>;
    /** Where bindings files and providers.yaml are read from (default: the disk). */
    readonly fs?: FileSystemProvider;
}

/** One URI scheme's bindings provider (ARM-8 Bindings Provider; binder BindingsSchemeHandler). */
export interface BindingsProvider {
    readonly scheme: string;
    /**
     * The concrete URIs a (possibly wildcard) URI stands for, without query. Wildcards expand to
     * what exists; an explicit URI is returned as is ("may be excluded later", binder).
     */
    expand(uri: string): string[];
    /**
     * The bindings of one expanded URI; `optional` says a missing source is not an error. `layer`
     * is the layer naming it, with the include and exclude URIs the user gave (ARM-8: a provider is
     * "given access to the URIs and the include/exclude information").
     */
    contribute(uri: string, pattern: string, optional: boolean, layer?: LayerInfo): ContributedBindings | undefined;
}

/** A layer as a bindings provider sees it. */
export interface LayerInfo {
    readonly name: string;
    readonly include: readonly string[];
    readonly exclude: readonly string[];
}

/** `scheme:path?query` split; the scheme is lower case. */
export function splitUri(uri: string): { scheme: string; path: string; optional: boolean } | undefined {
    const m = /^([a-zA-Z][\w+.-]*):(.*)$/.exec(uri);
    if (!m) return undefined;
    const q = m[2].indexOf('?');
    const path = q < 0 ? m[2] : m[2].slice(0, q);
    return { scheme: m[1].toLowerCase(), path, optional: q >= 0 };
}

/** A path relative to the code directory when it is inside it, for locations that read well and stay stable. */
export function displayPath(ctx: Pick<ProviderContext, 'codedir'>, path: string): string {
    const r = relative(ctx.codedir, path);
    return r.startsWith('..') ? path : r;
}

export function fail(code: string, message: string, where: Partial<Pick<Diagnostic, 'file' | 'at' | 'path'>> = {}): never {
    throw new UserError({ severity: 'error', code, message, ...where });
}

/** Stamps each named bindings with the contribution it came from, as the composer needs it. */
export function stamp(c: ContributedBindings): NamedBindingsOrSubtype[] {
    return (c.bindings ?? []).map(nb => ({ ...nb, contributedBy: nb.contributedBy ?? c.source }));
}
