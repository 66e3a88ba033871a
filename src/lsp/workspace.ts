import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LangiumDocument, LangiumDocuments } from 'langium';
import type { Program } from '../../generated/langium/ast.js';
import { bootEnvironment } from '../catalog/index.js';
import { readHieraKeys, type KeyPlace } from './hiera-keys.js';
import { sitesOf, type Site, type SiteKind } from './sites.js';

/** A site with the document holding it. */
export interface Located {
    readonly document: LangiumDocument;
    readonly site: Site;
}

/**
 * The environment the editor has open: its directory (the workspace folder, or its
 * `environments/production`), its module path, and every definition and use of a name across the
 * documents Langium loaded from it. Puppet finds classes, defines, functions and type aliases by
 * name (autoloading), so the index is a search by normalized name, not a linker.
 */
export class PuppetWorkspace {
    private folder: string | undefined;
    private modulePathCache: { readonly dir: string; readonly path: readonly string[] } | undefined;
    private hieraCache: Map<string, KeyPlace[]> | undefined;
    private modulesCache: Map<string, string> | undefined;

    constructor(private readonly documents: LangiumDocuments) {}

    setRoot(folder: string | undefined): void {
        this.folder = folder;
        this.modulePathCache = undefined;
        this.invalidate();
    }

    /** The environment directory (what `modelc compile` takes as CODEDIR). */
    get root(): string | undefined {
        return this.folder;
    }

    /** The environment's module directories, as the compiler boots them (environment.conf's modulepath). */
    modulePath(): readonly string[] {
        const dir = this.folder;
        if (dir === undefined) return [];
        if (this.modulePathCache?.dir !== dir) {
            let path: readonly string[];
            try {
                path = bootEnvironment(dir, 'production').modulepath;
            } catch {
                path = [join(dir, 'modules')];
            }
            this.modulePathCache = { dir, path };
        }
        return this.modulePathCache.path;
    }

    /** Forgets what was read from files other than the documents (data files, module lists). */
    invalidate(): void {
        this.hieraCache = undefined;
        this.modulesCache = undefined;
    }

    /** The keys the environment's and its modules' Hiera data files set, with where. */
    hieraKeys(): Map<string, KeyPlace[]> {
        const root = this.folder;
        if (root === undefined) return new Map();
        this.hieraCache ??= readHieraKeys([join(root, 'data'), ...[...this.modules().values()].map(m => join(m, 'data'))]);
        return this.hieraCache;
    }

    all(): LangiumDocument[] {
        return this.documents.all.toArray();
    }

    /** Every site across the environment naming `name` as one of `kinds`, in the given role. */
    find(role: Site['role'], name: string, kinds: readonly SiteKind[]): Located[] {
        const out: Located[] = [];
        for (const document of this.documents.all) {
            for (const site of sitesOf(document.parseResult.value as Program)) {
                if (site.role === role && site.name === name && site.kinds.some(k => kinds.includes(k))) out.push({ document, site });
            }
        }
        return out;
    }

    /**
     * The definitions a reference resolves to, by its kinds in order: `A::B` stands for a type
     * alias before a define or class of that name.
     */
    definitionsOf(site: Site): Located[] {
        for (const kind of site.kinds) {
            const found = this.find('definition', site.name, [kind]);
            if (found.length > 0) return kind === 'variable' ? found.slice(0, 1) : found;
        }
        return [];
    }

    /** Where an `epp()`/`template()` path (`module/file`) lives: MODULE/templates/FILE on the module path. */
    templateFile(path: string): string | undefined {
        const slash = path.indexOf('/');
        if (slash <= 0) return undefined;
        for (const dir of this.modulePath()) {
            const file = join(dir, path.slice(0, slash), 'templates', path.slice(slash + 1));
            if (existsSync(file)) return file;
        }
        return undefined;
    }

    /** The modules on the module path (name → directory). */
    modules(): Map<string, string> {
        if (this.modulesCache) return this.modulesCache;
        const out = new Map<string, string>();
        this.modulesCache = out;
        for (const dir of this.modulePath()) {
            let names: string[] = [];
            try {
                names = readdirSync(dir);
            } catch {
                continue;
            }
            for (const name of names) {
                const full = join(dir, name);
                if (!out.has(name) && isDirectory(full)) out.set(name, full);
            }
        }
        return out;
    }

    /**
     * The Ruby file of a module's function (4.x `lib/puppet/functions/NS/NAME.rb`, then 3.x
     * `lib/puppet/parser/functions/NAME.rb`) or resource type (`lib/puppet/type/NAME.rb`): the
     * paths Puppet's autoloader (and modelc's Ruby runtime) load them from.
     */
    rubyFile(kind: 'function' | 'type', name: string): string | undefined {
        const segs = name.split('::');
        const modules = this.modules();
        const candidates: string[] = [];
        if (kind === 'type') {
            for (const dir of modules.values()) candidates.push(join(dir, 'lib', 'puppet', 'type', `${name}.rb`));
        } else if (segs.length > 1) {
            const dir = modules.get(segs[0]);
            if (dir !== undefined) candidates.push(join(dir, 'lib', 'puppet', 'functions', ...segs) + '.rb');
        } else {
            for (const dir of modules.values()) candidates.push(join(dir, 'lib', 'puppet', 'functions', `${name}.rb`));
            for (const dir of modules.values()) candidates.push(join(dir, 'lib', 'puppet', 'parser', 'functions', `${name}.rb`));
        }
        return candidates.find(f => existsSync(f));
    }
}

function isDirectory(path: string): boolean {
    try {
        return statSync(path).isDirectory();
    } catch {
        return false;
    }
}
