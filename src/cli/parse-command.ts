import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { checkOutputDirectory, decodeUtf8, fileErrorOf, notAFile, formatDiagnostic, isUserError, UserError, type Diagnostic } from '../common/index.js';
import { asModelObject, encodeJson, encodeMsgpack, modelRegistry, writeFileAtomic, type Model } from '../model/index.js';
import { bundleEnvironment } from '../bundle/index.js';
import { parsePuppet, recordPositions, toPN } from '../parse/index.js';
import type { ParseFormat } from './choices.js';
import { ExitCode, type CliIo } from './io.js';


export interface ParseCommandOptions {
    readonly format: ParseFormat;
    readonly outDir?: string;
    /** Write the whole environment (the one input, a code directory) as one Environment model here. */
    readonly bundle?: string;
    readonly environment?: string;
    readonly basemodulepath?: string;
}

/**
 * Parses every FILE in one process. A file that fails gets its diagnostics on stderr and no
 * output; the others go on; the exit code is 1 if any failed.
 */
export function parseAction(inputs: readonly string[], options: ParseCommandOptions, io: CliIo): number {
    if (options.bundle !== undefined) return bundleAction(inputs, options.bundle, options);
    const files = inputs.flatMap(expandDirectory);
    if (options.format === 'msgpack' && files.length > 1 && options.outDir === undefined) {
        throw new UserError({ severity: 'error', code: 'PARSE_USAGE', message: 'msgpack output of several files needs --out-dir' });
    }
    if (options.outDir !== undefined) checkOutputDirectory(options.outDir, 'PARSE_BAD_OUTPUT');
    let failed = false;
    for (const file of files) {
        const outcome = parseOne(file, options.format);
        for (const d of outcome.diagnostics) io.err(`${formatDiagnostic(d)}\n`);
        if (outcome.output === undefined) {
            failed = true;
            continue;
        }
        if (options.outDir !== undefined) {
            const target = join(options.outDir, `${relativeTarget(file)}.${options.format}`);
            mkdirSync(dirname(target), { recursive: true });
            writeFileAtomic(target, outcome.output);
        } else {
            if (files.length > 1) io.out(`--- ${file}\n`);
            io.out(outcome.output);
        }
    }
    return failed ? ExitCode.ERROR : ExitCode.OK;
}

/**
 * `modelc parse CODEDIR --bundle FILE`: the environment as one Environment model, in msgpack when
 * asked (`--format msgpack`, or a FILE named *.msgpack), else JSON.
 */
function bundleAction(inputs: readonly string[], file: string, options: ParseCommandOptions): number {
    const codedir = inputs[0];
    if (inputs.length !== 1 || codedir === undefined) throw new UserError({ severity: 'error', code: 'PARSE_USAGE', message: '--bundle takes exactly one code directory' });
    if (options.outDir !== undefined) throw new UserError({ severity: 'error', code: 'PARSE_USAGE', message: '--bundle excludes --out-dir' });
    if (!existsSync(codedir) || !statSync(codedir).isDirectory()) throw new UserError({ severity: 'error', code: 'PARSE_FILE_NOT_FOUND', message: 'no such directory', file: codedir });
    const model = bundleEnvironment(codedir, {
        environment: options.environment ?? 'production',
        basemodulepath: options.basemodulepath ? options.basemodulepath.split(':') : []
    });
    const msgpack = options.format === 'msgpack' || (options.format !== 'json' && file.endsWith('.msgpack'));
    writeFileAtomic(file, msgpack ? encodeMsgpack(model) : encodeJson(model));
    return ExitCode.OK;
}

/** A directory stands for every `.pp` and `.epp` file below it, in sorted path order. */
function expandDirectory(input: string): string[] {
    if (!existsSync(input) || !statSync(input).isDirectory()) return [input];
    return readdirSync(input, { recursive: true, encoding: 'utf8' })
        .filter(f => f.endsWith('.pp') || f.endsWith('.epp'))
        .map(f => join(input, f))
        .filter(f => statSync(f).isFile())
        .sort();
}

function parseOne(file: string, format: ParseFormat): { output?: string | Uint8Array; diagnostics: Diagnostic[] } {
    let bytes: Buffer;
    const problem = notAFile(file);
    try {
        if (problem !== undefined) throw new Error(problem);
        bytes = readFileSync(file);
    } catch (e) {
        // Present but unreadable (EACCES) is not "no such file".
        return { diagnostics: [{ severity: 'error', code: 'PARSE_FILE_NOT_FOUND', message: problem ?? (fileErrorOf(e)?.reason ?? 'no such file'), file }] };
    }
    let text: string;
    try {
        text = decodeUtf8(bytes, file, 'PARSE_INVALID_ENCODING');
    } catch (e) {
        if (isUserError(e)) return { diagnostics: [...e.diagnostics] };
        throw e;
    }
    const result = parsePuppet(text, file, { epp: file.endsWith('.epp') });
    if (result.diagnostics.some(d => d.severity === 'error')) return { diagnostics: result.diagnostics };
    switch (format) {
        case 'pn': return { output: `${toPN(result.ast)}\n`, diagnostics: result.diagnostics };
        case 'json': return { output: encodeJson(astModel(recordPositions(result.ast))), diagnostics: result.diagnostics };
        case 'msgpack': return { output: encodeMsgpack(astModel(recordPositions(result.ast))), diagnostics: result.diagnostics };
    }
}

/** A Langium AST is a model of the Puppet package: codecs read only the metamodel's features. */
function astModel(ast: { readonly $type: string }): Model {
    const index = modelRegistry().byPackageName('Puppet');
    if (!index) throw new Error('the Puppet package is not generated');
    return { index, root: asModelObject(ast) };
}

/** `DIR/FILE.ext` keeps FILE's relative path; absolute and `..` paths are folded inside DIR. */
function relativeTarget(file: string): string {
    return normalize(file).replace(/^([a-zA-Z]:)?[\\/]+/, '').split(/[\\/]/).filter(s => s !== '..' && s !== '.').join('/');
}
