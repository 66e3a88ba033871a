import { Command, CommanderError, Option } from 'commander';
import { formatDiagnostic, isUserError } from '../common/index.js';
import { MODEL_FORMATS } from '../model/index.js';
import { convertAction } from './convert-command.js';
import { generateAction } from './generate-command.js';
import { ExitCode, processIo, type CliIo } from './io.js';
import { validateAction } from './validate-command.js';

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
    const program = new Command('modelc')
        .description('A model-driven Puppet compile pipeline: parse, bindings, injector, catalog, apply, diff.')
        .exitOverride()
        .configureOutput({ writeOut: s => io.out(s), writeErr: s => io.err(s) });

    program.command('generate')
        .description('emit TypeScript model code, JSON Schemas and .ecore files from metamodel/ and the Puppet grammar')
        .option('--check', 'only compare: exit 1 listing stale, missing or extra generated files')
        .action(async (opts: { check?: boolean }) => setExit(await generateAction(opts, io)));

    program.command('validate')
        .description('load a model (.json or .msgpack) and report every violation with its JSON path')
        .argument('<model>', 'model file')
        .option('--kind <name>', 'require a model of this package (bindings, catalog, ...)')
        .action((file: string, opts: { kind?: string }) => setExit(validateAction(file, opts, io)));

    program.command('convert')
        .description('convert a model to another format')
        .argument('<model>', 'model file')
        .addOption(new Option('--to <format>', 'target format').choices(MODEL_FORMATS).makeOptionMandatory())
        .option('-o, --output <file>', 'write here instead of stdout')
        .option('--kind <name>', 'require a model of this package')
        .action((file: string, opts: { to: (typeof MODEL_FORMATS)[number]; output?: string; kind?: string }) => setExit(convertAction(file, opts, io)));

    return program;
}

/** Runs the CLI; returns the exit code instead of exiting so tests can call it in-process. */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
    let code: number = ExitCode.OK;
    const program = buildProgram(io, c => { code = c; });
    try {
        await program.parseAsync([...argv]);
        return code;
    } catch (e) {
        if (e instanceof CommanderError) {
            return e.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
        }
        if (isUserError(e)) {
            for (const d of e.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
            return ExitCode.ERROR;
        }
        throw e;
    }
}
