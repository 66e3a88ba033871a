import { join, resolve } from 'node:path';
import { createHieraDataBinding, createTypeSupport, runLookupCommand, type HieraEnvironment, type Prepared, type PreparedInput } from '../bindings/index.js';
import { bootEnvironment, Compiler, coreFunctions, type CompileResult } from '../catalog/index.js';
import { formatDiagnostic } from '../common/index.js';
import type { PuppetValue } from '../values/index.js';
import { ExitCode, type CliIo } from './io.js';

/** Options of `modelc lookup`, named as the oracle's `lookup` script names them. */
export interface LookupCommandOptions {
    node?: string;
    facts?: string;
    trusted?: string;
    environment?: string;
    merge?: string;
    knockOutPrefix?: string;
    sortMergedArrays?: boolean;
    mergeHashArrays?: boolean;
    type?: string;
    default?: string;
    compile?: boolean;
    explain?: boolean;
}

export const MERGE_STRATEGIES = ['first', 'unique', 'hash', 'deep'] as const;

/**
 * `modelc lookup CODEDIR KEY`: prints what `oracle/lookup` prints (the value as rich-data JSON,
 * or `{"error": ...}` with exit 1; `--explain` prints the explanation instead).
 */
export function lookupAction(codedir: string, key: string, opts: LookupCommandOptions, io: CliIo): number {
    const result = runLookupCommand({
        codedir,
        key,
        node: opts.node,
        factsFile: opts.facts,
        trustedFile: opts.trusted,
        environment: opts.environment,
        merge: opts.merge,
        knockoutPrefix: opts.knockOutPrefix,
        sortMergedArrays: opts.sortMergedArrays,
        mergeHashArrays: opts.mergeHashArrays,
        type: opts.type,
        defaultJson: opts.default,
        explain: opts.explain,
        prepare: input => prepareWithCatalog(input, opts.compile === true)
    });
    io.out(result.output);
    if (result.error) io.err(`${formatDiagnostic(result.error.toDiagnostic())}\n`);
    return result.exitCode === 0 ? ExitCode.OK : ExitCode.ERROR;
}

/**
 * Boots the environment with the catalog builder (module path from environment.conf), gives
 * lookups Puppet's `new` for convert_to and, with --compile, evaluates the manifests first so
 * `%{::var}` sees the top scope they leave, as `puppet lookup --compile` does.
 */
export function prepareWithCatalog(input: PreparedInput, compile: boolean): Prepared {
    const env = bootEnvironment(input.codedir, input.environment);
    // A confdir layout (CODEDIR/environments/NAME) has the global layer in CODEDIR/hiera.yaml, Puppet's default hiera_config.
    const confdir = resolve(input.codedir);
    const hieraEnv: HieraEnvironment = {
        name: env.name, root: env.dir, modulePath: env.modulepath,
        ...(resolve(env.dir) !== confdir ? { globalConfig: join(confdir, 'hiera.yaml') } : {})
    };
    const functions = coreFunctions();
    // `new` only needs a call context for type names given as strings; a compiler gives one.
    let compiler: Compiler | undefined;
    const newFunction = functions.get('new');
    const convert = newFunction === undefined ? undefined : (type: PuppetValue, value: PuppetValue, args: readonly PuppetValue[]): PuppetValue => {
        if (!compiler) throw new Error("Puppet's new() is not available");
        return newFunction({ scope: compiler.topScope, where: { file: env.dir, line: 0 }, compiler, name: 'new', callLambda: () => null }, [type, value, ...args], undefined);
    };
    const types = createTypeSupport(convert);
    compiler = new Compiler(env, functions, {
        node: input.node, facts: input.facts, trusted: input.trustedOverrides,
        lookup: createHieraDataBinding({ environment: hieraEnv, types })
    });
    const prepared: Prepared = { environment: hieraEnv, types };
    if (!compile) return prepared;
    const result: CompileResult = compiler.compile();
    if (result.error) {
        const r = result.error.report;
        return { error: { message: `${r.message} on node ${input.node}`, class: r.rubyClass, ...(r.file ? { file: r.file } : {}), ...(r.line !== undefined ? { line: r.line } : {}), ...(r.issueCode ? { issue_code: r.issueCode } : {}) } };
    }
    const top = compiler.topScope;
    return { ...prepared, variable: name => top.getLocal(name) };
}
