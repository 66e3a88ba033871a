/**
 * Issue catalogues, as Puppet's issues.rb keeps them: every issue a stage reports has a stable
 * prefixed code (`EVAL_UNKNOWN_VARIABLE`) and a message made from named arguments
 * (`({ name }) => ...`), so the wording lives in one place per stage and tools match on codes.
 * An issue may carry more fields (the Puppet issue code it corresponds to, the code it is
 * reported under).
 */

/** What a catalogue entry gives: its message over named arguments, and any fields of the stage's own. */
export interface IssueSpec {
    readonly message: (args: never) => string;
}

/** A catalogue entry with its code. */
export type Issue<Code extends string, Spec extends IssueSpec> = Spec & { readonly code: Code };

/** A catalogue: each entry under its code. */
export type IssueCatalogue<Specs> = { readonly [Code in keyof Specs & string]: Specs[Code] extends IssueSpec ? Issue<Code, Specs[Code]> : never };

/**
 * Defines a stage's catalogue: every code starts with `PREFIX_`; each entry gets its code as
 * `code`. A code outside the prefix is a programming error, reported when the module loads.
 */
export function defineIssues<const Prefix extends string, const Specs extends { readonly [Code in `${Prefix}_${string}`]: IssueSpec }>(
    prefix: Prefix, specs: Specs
): IssueCatalogue<Specs> {
    const out: Record<string, IssueSpec & { code: string }> = {};
    for (const [code, spec] of Object.entries(specs) as Array<[string, IssueSpec]>) {
        if (!code.startsWith(`${prefix}_`)) throw new Error(`issue code ${code} does not start with ${prefix}_`);
        out[code] = Object.freeze({ ...spec, code });
    }
    return Object.freeze(out) as IssueCatalogue<Specs>;
}
