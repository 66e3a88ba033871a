import { checkOutputFile } from '../common/index.js';
import { encodeModel, ModelIssues, readModelFile, writeFileAtomic, type ModelFormat } from '../model/index.js';
import { ExitCode, type CliIo } from './io.js';

export interface ConvertOptions {
    readonly to: ModelFormat;
    readonly output?: string;
    readonly kind?: string;
}

export function convertAction(file: string, options: ConvertOptions, io: CliIo): number {
    if (options.output) checkOutputFile(options.output, ModelIssues.WRITE_FAILED);
    const model = readModelFile(file, options.kind !== undefined ? { kind: options.kind } : {});
    const content = encodeModel(model, options.to);
    if (options.output) writeFileAtomic(options.output, content);
    else io.out(content);
    return ExitCode.OK;
}

