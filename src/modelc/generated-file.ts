/** One output of a generator: a repository-relative path and its exact content. */
export interface GeneratedFile {
    readonly path: string;
    readonly content: string;
}

export const GENERATED_MARKER = 'DO NOT EDIT';

export { fileStem } from '../model/index.js';
