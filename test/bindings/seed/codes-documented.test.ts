import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BindingsIssues } from '../../../src/bindings/issues.js';
import { InjectIssues } from '../../../src/injector/index.js';
import { ParseIssues } from '../../../src/parse/index.js';
import { StoreIssues } from '../../../src/store/index.js';

/** Every BIND_/INJECT_/STORE_/QUERY_ code, and every ARM-8 syntax rule, has its row in docs/arm8/codes.md. */
const PAGE = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'arm8', 'codes.md'), 'utf8');
const WILDCARDS = [...PAGE.matchAll(/\b([A-Z]+_[A-Z_]*)\*/g)].map(m => m[1] as string);
const documented = (code: string): boolean => new RegExp(`\\b${code}\\b`).test(PAGE) || WILDCARDS.some(w => code.startsWith(w));
// The ARM-8 rules of the parser: from the site and layer rules to the query rule (src/parse/issues.ts keeps them together).
const parseCodes = Object.keys(ParseIssues);
const arm8Rules = parseCodes.slice(parseCodes.indexOf('VALIDATE_SITE_DUPLICATE_CATEGORIES'), parseCodes.indexOf('VALIDATE_QUERY_NOT_ON_TYPE') + 1);

describe('docs/arm8/codes.md lists every code', () => {
    const codes = [
        ...Object.keys(BindingsIssues).filter(c => c.startsWith('BIND_')), ...Object.keys(InjectIssues), ...Object.keys(StoreIssues), ...arm8Rules
    ];
    test('the catalogues are not empty', () => expect(arm8Rules.length).toBeGreaterThan(30));
    test.each(codes)('%s', code => expect(documented(code)).toBe(true));
});
