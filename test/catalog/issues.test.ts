import { describe, expect, test } from 'vitest';
import { CatalogIssues, type CatalogIssueCode } from '../../src/catalog/index.js';

const entries = Object.entries(CatalogIssues) as Array<[CatalogIssueCode, (typeof CatalogIssues)[CatalogIssueCode]]>;

describe('catalog issue catalogue', () => {
    test.each(entries)('%s is an EVAL_ code', (code, issue) => {
        expect(issue.code).toBe(code);
        expect(code).toMatch(/^EVAL_[A-Z0-9_]+$/);
    });

    test.each(entries.filter(([, i]) => 'reportedAs' in i))('%s is reported under a code errors are reported as', (_code, issue) => {
        const reportedAs = (issue as { reportedAs: CatalogIssueCode }).reportedAs;
        expect('puppet' in CatalogIssues[reportedAs]).toBe(true);
    });

    test.each([
        [CatalogIssues.EVAL_DUPLICATE_DECLARATION.message({ ref: 'Class[A]', previous: undefined, file: 'site.pp', line: 3 }),
            'Duplicate declaration: Class[A] is already declared; cannot redeclare (file: site.pp, line: 3)'],
        [CatalogIssues.EVAL_DUPLICATE_DECLARATION.message({ ref: 'File[/x]', previous: { file: 'a.pp', line: 1 }, file: 'b.pp', line: 2 }),
            'Duplicate declaration: File[/x] is already declared at (file: a.pp, line: 1); cannot redeclare (file: b.pp, line: 2)'],
        [CatalogIssues.EVAL_PARAMETER_PROBLEMS.message({ ref: 'Foo[x]', problems: ['a', 'b'] }), 'Foo[x]:\n  a\n  b'],
        [CatalogIssues.EVAL_FUNCTION_ARITY.message({ name: 'f', min: 1, max: Infinity, count: 0 }), "'f' expects at least 1 argument, got none"],
        [CatalogIssues.EVAL_BLOCK_ARITY.message({ fname: 'each', min: 1, max: 2, count: 3 }), "'each' block expects between 1 and 2 arguments, got 3"]
    ])('%s', (message, expected) => {
        expect(message).toBe(expected);
    });
});
