import { existsSync, readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { fileErrorOf, formatDiagnostic, isUserError } from '../common/index.js';
import type { ApplyCommandOptions } from './apply-command.js';
import type { BindingsCommandOptions } from './bindings-command.js';
import {
    COMPILE_FORMATS, DIFF_FORMATS, MERGE_STRATEGIES, MODEL_FORMATS, PARSE_FORMATS, REVIEW_FORMATS, STRICT_MODES, type ParseFormat
} from './choices.js';
import type { CompileBatchOptions } from './compile-batch-command.js';
import type { DiffCommandOptions } from './diff-command.js';
import type { EffectiveCommandOptions } from './effective-command.js';
import type { LookupCommandOptions } from './lookup-command.js';
import type { LspCommandOptions } from './lsp-command.js';
import { ExitCode, processIo, type CliIo } from './io.js';
import type { ResourceCommandOptions } from './resource-command.js';
import type { ReviewCommandOptions } from './review-command.js';
import type { ServeCommandOptions } from './serve-command.js';

// Every command's code is imported when the command runs, not when the program is built: a
// compile then loads neither the apply stage nor the review, the schema validator or the
// generator (cold start is most of a one-node compile).

/** The version in modelc's package.json, the nearest above this module (src/cli/, or dist/src/cli/ whose URL the bundles keep). */
function packageVersion(): string {
    for (let up = '../'; up.length <= 12; up += '../') {
        const file = new URL(`${up}package.json`, import.meta.url);
        if (!existsSync(file)) continue;
        const json = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
        if (json.name === 'modelc') return String(json.version);
    }
    return 'unknown';
}

function buildProgram(io: CliIo, setExit: (code: number) => void): Command {
    const program = new Command('modelc')
        .description('A model-driven Puppet compile pipeline: parse, bindings, injector, catalog, apply, diff.')
        .exitOverride()
        .configureOutput({ writeOut: s => io.out(s), writeErr: s => io.err(s) })
        .option('-V, --version', "print modelc's version");
    // Read when asked, not at every start (commander's .version() wants the text up front).
    program.on('option:version', () => {
        io.out(`${packageVersion()}\n`);
        throw new CommanderError(0, 'commander.version', 'version printed');
    });

    program.command('generate')
        .description('emit TypeScript model code, JSON Schemas and .ecore files from metamodel/ and the Puppet grammar')
        .option('--check', 'only compare: exit 1 listing stale, missing or extra generated files')
        .action(async (opts: { check?: boolean }) => setExit(await (await import('./generate-command.js')).generateAction(opts, io)));

    program.command('parse')
        .description('parse Puppet manifests (.pp) and EPP templates (.epp); print PN, or the AST as a JSON/msgpack model')
        .argument('<file...>', 'files to parse; a directory means every .pp and .epp file below it')
        .addOption(new Option('--format <format>', 'output format').choices(PARSE_FORMATS).default('pn'))
        .option('--out-dir <dir>', 'write DIR/FILE.<format> for every input instead of printing')
        .option('--bundle <file>', 'write the environment CODEDIR (every manifest as a parsed AST, templates, Hiera configs and data, module metadata and Ruby) as one Environment model (msgpack for --format msgpack or *.msgpack, else JSON)')
        .option('--environment <name>', 'with --bundle: the environment name', 'production')
        .option('--basemodulepath <dirs>', 'with --bundle: colon-separated base module path')
        .action(async (files: string[], opts: { format: ParseFormat; outDir?: string; bundle?: string; environment?: string; basemodulepath?: string }) => setExit((await import('./parse-command.js')).parseAction(files, opts, io)));

    program.command('validate')
        .description('load a model (.json or .msgpack) and report every violation with its JSON path')
        .argument('<model>', 'model file')
        .option('--kind <name>', 'require a model of this package (bindings, catalog, ...)')
        .action(async (file: string, opts: { kind?: string }) => setExit((await import('./validate-command.js')).validateAction(file, opts, io)));

    program.command('convert')
        .description('convert a model to another format')
        .argument('<model>', 'model file')
        .addOption(new Option('--to <format>', 'target format').choices(MODEL_FORMATS).makeOptionMandatory())
        .option('-o, --output <file>', 'write here instead of stdout')
        .option('--kind <name>', 'require a model of this package')
        .action(async (file: string, opts: { to: (typeof MODEL_FORMATS)[number]; output?: string; kind?: string }) => setExit((await import('./convert-command.js')).convertAction(file, opts, io)));

    program.command('diff')
        .description('compare two models of the same kind; exit 0 when equal, 2 when different, 1 on error')
        .argument('<old>', 'old model file')
        .argument('<new>', 'new model file')
        .addOption(new Option('--format <format>', 'output format').choices(DIFF_FORMATS).default('text'))
        .option('--ignore <rule>', 'ignore changes of Type[Title] or Type[Title]::attribute (* is a wildcard); repeatable', (v: string, acc: string[]) => [...acc, v], [] as string[])
        .option('--filters <list>', 'equivalence filters: absent-file,single-item-array,json,yaml (default all) or none')
        .action(async (a: string, b: string, opts: DiffCommandOptions) => setExit((await import('./diff-command.js')).diffAction(a, b, opts, io)));

    const repeat = (v: string, acc: string[]): string[] => [...acc, v];
    program.command('review')
        .description('compile nodes at two git revisions and report what changed, with where each new value came from; exit 0 no change, 2 changes, 1 error')
        .argument('<repo>', 'git repository holding the environment')
        .option('--base <rev>', 'the old revision', 'HEAD')
        .option('--head <rev>', 'the new revision (default: the working tree)')
        .option('--worktree', 'compare with the working tree, uncommitted changes included (the default)')
        .option('--node <name>', 'node to compile; repeatable (default: every node of --nodes-dir)', repeat, [] as string[])
        .option('--nodes-dir <dir>', 'facts directory of <certname>.yaml|json files (Puppet\'s fact cache or `puppet facts` output)')
        .option('--environment <name>', 'environment name', 'production')
        .option('--path <dir>', 'the environment directory inside the repository (default: where <repo> points)')
        .addOption(new Option('--format <format>', 'report format').choices(REVIEW_FORMATS).default('text'))
        .option('--out <file>', 'write the report here instead of stdout')
        .option('--json-out <file>', 'also write the full JSON report here (the markdown points to it when cut)')
        .option('--max-size <chars>', 'markdown: leave node sections out beyond this size (default 60000)')
        .option('--jobs <n>', 'parallel compiles (default: one per core)')
        .option('--ignore <rule>', 'ignore changes of Type[Title] or Type[Title]::attribute (* is a wildcard); repeatable', repeat, [] as string[])
        .option('--filters <list>', 'equivalence filters: absent-file,single-item-array,json,yaml (default all) or none')
        .option('--include-tags', 'also report changed tags')
        .option('--no-bindings', 'leave ARM-8 bindings out (Hiera 5 alone), as compile --no-bindings')
        .action(async (repo: string, opts: ReviewCommandOptions) => setExit(await (await import('./review-command.js')).reviewAction(repo, opts, io)));

    program.command('bindings')
        .description('compose the layered Bindings model of an environment (site layers, bindings providers, Hiera 5 data) and print it')
        .argument('<codedir>', 'environment directory (bindings/, modules/, hiera.yaml), a directory holding environments/<name>, or a confdir with environments.pp')
        .option('--environment <name>', 'environment name (default production); with environments.pp it is $agent_environment')
        .option('--node <name>', 'node (certificate) name; default from the facts, else testnode.example.com')
        .option('--facts <file>', 'facts file (YAML or JSON); default CODEDIR/facts.{yaml,yml,json}')
        .option('--trusted <file>', 'trusted data overrides (YAML or JSON): authenticated, certname, extensions, external')
        .option('--no-hiera', 'leave Hiera 5 data out of the layers')
        .option('--graph <file>', 'also write a picture of the layers × categories (.dot, or .svg with Graphviz installed)')
        .addOption(new Option('--format <format>', 'output format').choices(['json', 'msgpack']).default('json'))
        .action(async (dir: string, opts: BindingsCommandOptions) => setExit((await import('./bindings-command.js')).bindingsAction(dir, opts, io)));

    program.command('effective')
        .description('build the injector of a request from a Bindings model (LayeredBindings JSON/msgpack); print its EffectiveBindings model')
        .argument('<bindings>', 'Bindings model file (e.g. what `modelc bindings` prints)')
        .requiredOption('--node <name>', 'node (certificate) name')
        .option('--facts <file>', 'facts file (YAML or JSON)')
        .option('--trusted <file>', 'trusted data overrides (YAML or JSON): authenticated, certname, extensions, external')
        .option('--environment <name>', 'environment (default: the model\'s, else production)')
        .option('--confdir <dir>', 'choose the environment as a server would: DIR/environments.pp (--environment is then $agent_environment) or DIR\'s ENC')
        .addOption(new Option('--format <format>', 'output format').choices(['json', 'msgpack']).default('json'))
        .option('--values', 'look up every winning binding so the model carries the produced values')
        .option('--explain <name...>', 'print how these names are resolved instead of the model')
        .action(async (file: string, opts: EffectiveCommandOptions) => setExit((await import('./effective-command.js')).effectiveAction(file, opts, io)));

    program.command('lookup')
        .description('look up KEY in the Hiera 5 data of environment CODEDIR for a node; print the value (or error) as JSON')
        .argument('<codedir>', 'environment directory (hiera.yaml, data/, modules/)')
        .argument('<key>', 'the key, dotted to dig into values')
        .option('--node <name>', 'node (certificate) name')
        .option('--facts <file>', 'facts file (YAML or JSON)')
        .option('--trusted <file>', 'trusted data overrides (YAML or JSON)')
        .option('--environment <name>', 'environment name (default production); with environments.pp it is $agent_environment, undef when not given')
        .addOption(new Option('--merge <strategy>', 'merge strategy').choices(MERGE_STRATEGIES))
        .option('--knock-out-prefix <prefix>', 'deep merge knockout prefix')
        .option('--sort-merged-arrays', 'deep merge: sort merged arrays')
        .option('--merge-hash-arrays', 'deep merge: merge arrays of hashes')
        .option('--type <type>', 'assert the value has this Puppet type')
        .option('--default <json>', 'default value (JSON; a bare word is a string)')
        .option('--compile', 'evaluate the manifests first, so %{::var} sees their top-scope variables')
        .option('--explain', 'print how the value was found instead of the value')
        .option('--store [url]', 'catalog store answering Type[?? query] bindings: sqlite:PATH or puppetdb:URL (bare: ENVDIR/var/catalogs.sqlite)')
        .action(async (codedir: string, key: string, opts: LookupCommandOptions) => setExit((await import('./lookup-command.js')).lookupAction(codedir, key, opts, io)));

    program.command('apply')
        .description('apply a catalog (Puppet catalog JSON or a Catalog model) under a root directory; print Puppet-style logs')
        .argument('<catalog>', 'catalog file')
        .option('--noop', 'only report what would change')
        .option('--root <dir>', 'the directory standing for / (files, exec cwd and creates)', '/')
        .option('--report <file>', 'write the Report model here')
        .addOption(new Option('--report-format <format>', 'format of the Report model').choices(['json', 'msgpack']).default('json'))
        .addOption(new Option('--strict <mode>', 'Resource API strictness').choices(STRICT_MODES).default('warning'))
        .option('--debug', 'also print debug and info messages')
        .option('--verbose', 'also print info messages')
        .option('--graph <file>', 'write the resource relationship graph, dependency cycles in red (.dot, or .svg with Graphviz installed)')
        .option('--modulepath <dirs>', 'colon-separated module directories whose lib/ types and providers apply the catalog\'s module types (Resource API and classic), as an agent has them after pluginsync')
        .option('--detailed-exitcodes', 'exit 2 when resources changed, 4 when some failed, 6 for both (otherwise only an aborted run exits 1)')
        .action(async (file: string, opts: ApplyCommandOptions) => setExit((await import('./apply-command.js')).applyAction(file, opts, io)));

    program.command('resource')
        .description('list, show or set resources of a type as `puppet resource` does (core types under --root, module types and providers of --modulepath, device targets with --target)')
        .argument('<type>', 'the resource type')
        .argument('[title]', 'one resource to show (or to set)')
        .argument('[attr=value...]', 'attributes to set on that resource, applied as a one-resource run')
        .option('--root <dir>', 'the directory standing for / (files, the account and package databases)', '/')
        .option('--modulepath <dirs>', 'colon-separated module directories whose lib/ types, providers and transports are loaded')
        .option('--environment <name>', 'environment name', 'production')
        .option('-y, --to_yaml', 'print the resources as Hiera YAML (suitable for create_resources)')
        .option('--to_json', 'print the resources as JSON ({"title": {"attr": value}})')
        .addOption(new Option('--strict <mode>', 'Resource API strictness').choices(STRICT_MODES).default('warning'))
        .option('--noop', 'only report what setting attributes would change')
        .option('--target <name>', 'a device of --deviceconfig, as `puppet device --target NAME --resource TYPE`: providers reach it through its transport')
        .option('--deviceconfig <file>', 'the device.conf naming the targets', '/etc/puppet/device.conf')
        .option('-d, --debug', 'also print debug and info messages')
        .option('-v, --verbose', 'also print info messages')
        .action(async (type: string, title: string | undefined, settings: string[], opts: ResourceCommandOptions) =>
            setExit((await import('./resource-command.js')).resourceAction(type, [...(title !== undefined ? [title] : []), ...settings], opts, io)));

    program.command('compile')
        .description('compile a catalog for a node from an environment (or a codedir with environments/)')
        .argument('<codedir>', 'environment directory, or a directory holding environments/<name>')
        .option('--node <name>', 'node (certificate) name')
        .option('--facts <file>', 'facts (YAML or JSON); default CODEDIR/facts.{yaml,yml,json}')
        .option('--environment <name>', 'environment name (default production); with environments.pp it is $agent_environment, undef when not given')
        .option('--trusted <file>', 'trusted data overrides (YAML or JSON)')
        .option('--class <name>', 'classifier (ENC) class; repeatable', (v: string, acc: string[]) => [...acc, v], [] as string[])
        .option('--setting <name=value>', 'a Puppet setting; repeatable', (v: string, acc: string[]) => [...acc, v], [] as string[])
        .option('--basemodulepath <dirs>', 'colon-separated module directories searched after the environment\'s')
        .option('--store [url]', 'catalog store: sqlite:PATH or puppetdb:http://host:8080 (bare: ENVDIR/var/catalogs.sqlite); stores the catalog, collects other nodes\' exports, answers ?? queries')
        .option('--bindings-model <file>', 'a Bindings model (modelc bindings, or any tool) used instead of the bindings the environment\'s providers compose')
        .option('--effective <file>', 'an EffectiveBindings model made for this node (modelc effective --values): lookups answer from it')
        .option('--no-bindings', 'leave the environment\'s ARM-8 bindings (bindings/, site { }, module bindings/, providers.yaml) out: Hiera 5 alone, as Puppet 7')
        .addOption(new Option('--format <format>', 'output format').choices(COMPILE_FORMATS).default('normalized'))
        .option('--graph <file>', 'also write the resource relationship graph, cycles in red (.dot, or .svg with Graphviz installed)')
        .option('--explain <class::param...>', 'print where these class parameters got their values instead of the catalog')
        .option('--nodes-dir <dir>', 'compile every node of this facts directory (<certname>.yaml|yml|json) from one parsed environment; needs --out-dir')
        .option('--out-dir <dir>', 'with --nodes-dir: write OUT/<certname>.json (.msgpack) per node')
        .option('--jobs <n>', 'with --nodes-dir: parallel compiles (default: one per core)')
        .action(async (dir: string, opts: CompileBatchOptions) => setExit(opts.nodesDir !== undefined || opts.outDir !== undefined
            ? await (await import('./compile-batch-command.js')).compileBatchAction(dir, opts, io)
            : await (await import('./compile-command.js')).compileAction(dir, opts, io)));

    program.command('serve')
        .description('serve catalogs to Puppet agents over HTTPS (Puppet Server\'s v3 API: node, catalog, file serving, report) until SIGTERM/SIGINT')
        .argument('<root>', 'a CONFDIR with environments.pp, a directory holding environments/<name>, or an environment directory')
        .option('--ssl-dir <dir>', 'Puppet\'s ssl dir: certs/<certname>.pem, private_keys/<certname>.pem, certs/ca.pem (or ca.pem), crl.pem')
        .option('--certname <name>', 'the server\'s certificate name in the ssl dir (default: its only private key, else the host name)')
        .option('--port <port>', 'TCP port (0: any free port)', '8140')
        .option('--bind <address>', 'address to listen on (default: all)')
        .option('--workers <n>', 'compile threads (0: compile in the server thread)', '1')
        .option('--store <url>', 'catalog store shared by several servers: sqlite:PATH or puppetdb:http://host:8080')
        .option('--reportdir <dir>', 'where agents\' reports are written (default ROOT/var/reports)')
        .option('--environment-timeout <seconds>', 'how long parsed environments are trusted before files are checked for changes (0: every compile; unlimited)', '0')
        .option('--no-bindings', 'leave the environments\' ARM-8 bindings out: Hiera 5 alone, as Puppet 7 (as compile --no-bindings)')
        .option('--verbose', 'log every request on stderr')
        .action(async (root: string, opts: ServeCommandOptions) => setExit(await (await import('./serve-command.js')).serveAction(root, opts, io)));

    program.command('lsp')
        .description('run the language server (diagnostics, navigation, hover with node values, completion) for editors')
        .option('--stdio', 'speak LSP over stdin/stdout')
        .action(async (opts: LspCommandOptions) => setExit(await (await import('./lsp-command.js')).lspAction(opts, io)));

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
        // Whatever escaped the stages still ends as one line and exit 1, never a stack trace
        // (MODELC_DEBUG=1 prints the trace for a bug report).
        if (process.env.MODELC_DEBUG) io.err(`${e instanceof Error ? e.stack : String(e)}\n`);
        io.err(`${internalErrorLine(argv, e)}\n`);
        return ExitCode.ERROR;
    }
}

/** The one-line form of an unexpected failure, named by the command's input file. */
function internalErrorLine(argv: readonly string[], e: unknown): string {
    const subject = argv.slice(3).find(a => !a.startsWith('-')) ?? 'modelc';
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
        return `${subject}: error CLI_TOO_DEEP: the input is nested too deeply to process (${e.message})`;
    }
    // A file the command had to read and could not, met where no stage checked first: the file is named, not modelc.
    const unreadable = fileErrorOf(e);
    if (unreadable) return `${unreadable.path}: error CLI_UNREADABLE: cannot be read: ${unreadable.reason} (${unreadable.errno})`;
    const message = e instanceof Error ? e.message : String(e);
    return `${subject}: error CLI_INTERNAL: ${message.split('\n')[0]} (an internal error: please report it with MODELC_DEBUG=1 output)`;
}
