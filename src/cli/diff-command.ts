import { UserError } from '../common/index.js';
import { readModelOrPuppetCatalog } from '../apply/index.js';
import { asModelObject, encodeJson, ModelIssues, modelRegistry, type Model } from '../model/index.js';
import {
    CHANGE_FILTERS, diffModels, diffProfileFor, filterChanges, formatDiffMarkdown, formatDiffText, parseIgnoreRule, toDiffModel,
    type ChangeFilterName, type IgnoreRule
} from '../model/index.js';
import type { DiffFormat } from './choices.js';
import type { CliIo } from './io.js';


export interface DiffCommandOptions {
    readonly format: DiffFormat;
    /** `Type[Title]` or `Type[Title]::attr` rules; `*` is a wildcard. */
    readonly ignore?: readonly string[];
    /** Comma-separated equivalence filters; 'none' for none. */
    readonly filters?: string;
}

/** `--ignore` texts as rules; a malformed one is a usage error naming it. */
export function ignoreRules(texts: readonly string[] = []): IgnoreRule[] {
    return texts.map(t => {
        const rule = parseIgnoreRule(t);
        if (!rule) throw new UserError({ severity: 'error', code: 'DIFF_IGNORE_SYNTAX', message: `--ignore expects Type[Title] or Type[Title]::attribute, got '${t}'` });
        return rule;
    });
}

/** `--filters a,b` (default: all of octocatalog-diff's equivalence filters; `none` for none). */
export function changeFilters(text: string | undefined): Set<ChangeFilterName> {
    if (text === undefined) return new Set(CHANGE_FILTERS);
    if (text.trim() === 'none' || text.trim() === '') return new Set();
    const names = text.split(',').map(s => s.trim());
    for (const n of names) {
        if (!(CHANGE_FILTERS as readonly string[]).includes(n)) {
            throw new UserError({ severity: 'error', code: 'DIFF_FILTER_UNKNOWN', message: `unknown filter '${n}' (known: ${CHANGE_FILTERS.join(', ')}, none)` });
        }
    }
    return new Set(names as ChangeFilterName[]);
}

/** Exit codes as octocatalog-diff: 0 equal, 2 different, 1 error. */
export function diffAction(oldFile: string, newFile: string, options: DiffCommandOptions, io: CliIo): number {
    const ignores = ignoreRules(options.ignore);
    const filters = changeFilters(options.filters);
    // Puppet's catalog JSON is read as a Catalog model, so a catalog of real Puppet compares with ours.
    const a = readModelOrPuppetCatalog(oldFile);
    const b = readModelOrPuppetCatalog(newFile);
    if (a.index !== b.index) {
        throw new UserError({ severity: 'error', code: ModelIssues.KIND_MISMATCH, file: newFile, path: '/$type', message: `cannot compare a ${a.index.pkg.name} model with a ${b.index.pkg.name} model` });
    }
    const raw = diffModels(a, b, diffProfileFor(a.index.pkg.name));
    const result = filterChanges(raw, a.root, b.root, { filters, ignores });
    const diff = toDiffModel(result, { model: a, file: oldFile }, { model: b, file: newFile });
    const withIgnores = ignores.length > 0 ? { ...diff, ignores: ignores.map(r => r.text) } : diff;
    switch (options.format) {
        case 'text': io.out(formatDiffText(withIgnores)); break;
        case 'markdown': io.out(formatDiffMarkdown(withIgnores)); break;
        case 'json': io.out(encodeJson(diffAsModel(withIgnores))); break;
    }
    return diff.equal ? 0 : 2;
}

function diffAsModel(root: { readonly $type: string }): Model {
    const index = modelRegistry().byPackageName('Diff');
    if (!index) throw new Error('the Diff package is not generated');
    return { index, root: asModelObject(root) };
}
