import { UserError } from '../common/index.js';
import { readModelOrPuppetCatalog } from '../apply/index.js';
import { asModelObject, encodeJson, ModelIssues, modelRegistry, type Model } from '../model/index.js';
import { diffModels, diffProfileFor, formatDiffMarkdown, formatDiffText, toDiffModel } from '../model/index.js';
import type { CliIo } from './io.js';

export type DiffFormat = 'text' | 'json' | 'markdown';
export const DIFF_FORMATS: readonly DiffFormat[] = ['text', 'json', 'markdown'];

/** Exit codes as octocatalog-diff: 0 equal, 2 different, 1 error. */
export function diffAction(oldFile: string, newFile: string, options: { format: DiffFormat }, io: CliIo): number {
    // Puppet's catalog JSON is read as a Catalog model, so a catalog of real Puppet compares with ours.
    const a = readModelOrPuppetCatalog(oldFile);
    const b = readModelOrPuppetCatalog(newFile);
    if (a.index !== b.index) {
        throw new UserError({ severity: 'error', code: ModelIssues.KIND_MISMATCH, file: newFile, path: '/$type', message: `cannot compare a ${a.index.pkg.name} model with a ${b.index.pkg.name} model` });
    }
    const result = diffModels(a, b, diffProfileFor(a.index.pkg.name));
    const diff = toDiffModel(result, { model: a, file: oldFile }, { model: b, file: newFile });
    switch (options.format) {
        case 'text': io.out(formatDiffText(diff)); break;
        case 'markdown': io.out(formatDiffMarkdown(diff)); break;
        case 'json': io.out(encodeJson(diffAsModel(diff))); break;
    }
    return diff.equal ? 0 : 2;
}

function diffAsModel(root: { readonly $type: string }): Model {
    const index = modelRegistry().byPackageName('Diff');
    if (!index) throw new Error('the Diff package is not generated');
    return { index, root: asModelObject(root) };
}
