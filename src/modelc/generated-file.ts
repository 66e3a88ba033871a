/** One output of a generator: a repository-relative path and its exact content. */
export interface GeneratedFile {
    readonly path: string;
    readonly content: string;
}

export const GENERATED_MARKER = 'DO NOT EDIT';

/** `EffectiveBindings` -> `effective-bindings`: file names for a package. */
export function fileStem(packageName: string): string {
    return packageName.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}
