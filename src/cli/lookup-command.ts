import { runLookupCommand } from '../bindings/index.js';
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
    if (opts.compile) {
        io.err('modelc lookup: --compile needs the catalog builder (src/catalog), which does not export a compile entry point yet\n');
        return ExitCode.USAGE;
    }
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
        explain: opts.explain
    });
    io.out(result.output);
    return result.exitCode === 0 ? ExitCode.OK : ExitCode.ERROR;
}
