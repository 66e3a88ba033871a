import { readModelFile } from '../model/index.js';
import { ExitCode, type CliIo } from './io.js';

export function validateAction(file: string, options: { kind?: string }, io: CliIo): number {
    const model = readModelFile(file, options.kind !== undefined ? { kind: options.kind } : {});
    io.out(`${file}: valid ${model.index.pkg.name} model (${model.root.$type})\n`);
    return ExitCode.OK;
}
