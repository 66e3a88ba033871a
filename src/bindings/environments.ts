import { statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { UserError, type SourcePoint } from '../common/index.js';
import { BindingsIssues } from './issues.js';

/** The environment `environments.pp` selected, with every path resolved. */
export interface EnvironmentSelection {
    readonly name: string;
    readonly envdir: string;
    readonly modulepath: readonly string[];
    readonly manifestdir: string;
    readonly manifest: string;
    readonly templatedir: string;
    readonly bindingsdir: string;
    /** How it was found: declared in environments.pp, a dynamic environment's directory, or the implicit production. */
    readonly kind: 'static' | 'dynamic' | 'default';
}

/** The parameters an `environment` (and `Environment {}` defaults, `dynamic_environments`) may set. */
export const ENVIRONMENT_PARAMETERS: readonly string[] = ['envdir', 'modulepath', 'manifestdir', 'manifest', 'templatedir', 'bindingsdir'];

export type EnvironmentParams = Partial<Record<string, string>>;

/**
 * What evaluating environments.pp declared: `Environment {}` defaults, static environments by
 * name, `dynamic_environments` directories (in declaration order), and the `$environment` left
 * visible at the end (undefined when never set). `file` names environments.pp in errors.
 */
export interface EnvironmentDeclarations {
    readonly file: string;
    readonly defaults: EnvironmentParams;
    readonly statics: ReadonlyMap<string, EnvironmentParams>;
    readonly dynamics: ReadonlyArray<{ readonly dir: string; readonly params: EnvironmentParams }>;
    readonly environment: unknown;
    /** Where `$environment` was last set, for the unknown-environment error. */
    readonly environmentAt?: SourcePoint;
    /** Who set it when not the file (the ENC), for the message. */
    readonly environmentFrom?: string;
}

/** The one environment a confdir without environments.pp has (ARM-8: production in $confdir). */
export function defaultEnvironmentSelection(confdir: string): EnvironmentSelection {
    return resolveSelection('production', resolve(confdir), {}, 'default', resolve(confdir));
}

/**
 * ARM-8's selection rules once environments.pp has run: an undefined `$environment` is
 * production; a static environment wins over a dynamic one (a subdirectory of a
 * `dynamic_environments` directory); production always exists; any other name is
 * BIND_UNKNOWN_ENVIRONMENT, located where `$environment` was set.
 */
export function resolveEnvironment(confdirGiven: string, d: EnvironmentDeclarations): EnvironmentSelection {
    const confdir = resolve(confdirGiven);
    const at = d.environmentAt ? { at: d.environmentAt } : { file: d.file };
    const chosen = d.environment;
    const name = chosen === undefined || chosen === null ? 'production' : chosen;
    if (typeof name !== 'string' || name === '') {
        throw new UserError({ severity: 'error', code: BindingsIssues.BIND_UNKNOWN_ENVIRONMENT, message: `$environment must be a non-empty string, not ${describe(name)}`, ...at });
    }
    const stat = d.statics.get(name);
    if (stat) return resolveSelection(name, stat.envdir ?? d.defaults.envdir ?? confdir, { ...d.defaults, ...stat }, 'static', confdir);
    // A dynamic environment is a subdirectory named after it; a name with a path in it never is.
    if (!name.includes('/') && !name.includes('\\') && name !== '.' && name !== '..') {
        for (const dyn of d.dynamics) {
            const dir = join(dyn.dir, name);
            if (isDir(dir)) {
                const { envdir: _ignored, ...inherited } = d.defaults;
                return resolveSelection(name, dir, { ...inherited, ...dyn.params }, 'dynamic', confdir);
            }
        }
    }
    if (name === 'production') return resolveSelection(name, d.defaults.envdir ?? confdir, d.defaults, 'default', confdir);
    throw new UserError({ severity: 'error', code: BindingsIssues.BIND_UNKNOWN_ENVIRONMENT, message: `unknown environment '${name}'${d.environmentFrom ? ` (from ${d.environmentFrom})` : ''}`, ...at });
}

/** Checks a `dynamic_environments` title and parameters (ARM-8: envdir "is automatically set and cannot be changed"). */
export function dynamicEnvironmentProblem(dir: string, params: EnvironmentParams): { code: string; message: string } | undefined {
    if (params.envdir !== undefined) return { code: BindingsIssues.BIND_ENVIRONMENT_ENVDIR, message: 'the envdir of a dynamic environment is its directory and cannot be set' };
    if (!isAbsolute(dir)) return { code: BindingsIssues.BIND_ENVIRONMENTS_EVAL, message: `dynamic_environments needs an absolute directory, not '${dir}'` };
    return undefined;
}

function describe(v: unknown): string {
    if (typeof v === 'string') return `'${v}'`;
    if (v instanceof Map) return 'a Hash';
    if (Array.isArray(v)) return 'an Array';
    return String(v);
}

/** Relative paths resolve against envdir; a relative manifest first against manifestdir. `$confdir` in paths expands as in Puppet's settings. */
function resolveSelection(name: string, envdir: string, p: EnvironmentParams, kind: EnvironmentSelection['kind'], confdir: string): EnvironmentSelection {
    const expand = (v: string): string => v.replace(/\$\{?confdir\}?/g, confdir);
    const dir = resolve(confdir, expand(envdir));
    const at = (base: string, v: string): string => resolve(base, expand(v));
    const manifestdir = at(dir, p.manifestdir ?? 'manifests');
    return {
        name, envdir: dir, kind,
        modulepath: (p.modulepath ?? 'modules').split(':').filter(x => x !== '').map(x => at(dir, x)),
        manifestdir,
        manifest: at(manifestdir, p.manifest ?? 'site.pp'),
        templatedir: at(dir, p.templatedir ?? 'templates'),
        bindingsdir: at(dir, p.bindingsdir ?? 'bindings')
    };
}

function isDir(p: string): boolean {
    try {
        return statSync(p).isDirectory();
    } catch {
        return false;
    }
}
