import { describe, expect, test } from 'vitest';
import { defineIssues } from '../../src/common/index.js';

describe('defineIssues', () => {
    const issues = defineIssues('DEMO', {
        DEMO_UNKNOWN: { message: (a: { name: string }) => `Unknown thing: '${a.name}'.` },
        DEMO_EMPTY: { level: 'warning', message: () => 'Nothing here' }
    });

    test.each([
        ['DEMO_UNKNOWN', issues.DEMO_UNKNOWN.code, issues.DEMO_UNKNOWN.message({ name: 'x' }), "Unknown thing: 'x'."],
        ['DEMO_EMPTY', issues.DEMO_EMPTY.code, issues.DEMO_EMPTY.message(), 'Nothing here']
    ])('%s has its code and its message over named arguments', (code, actualCode, message, expected) => {
        expect(actualCode).toBe(code);
        expect(message).toBe(expected);
    });

    test('keeps the fields of the stage', () => {
        expect(issues.DEMO_EMPTY.level).toBe('warning');
    });

    test('refuses a code outside the prefix', () => {
        const specs: Record<string, { message: () => string }> = { OTHER_THING: { message: () => '' } };
        expect(() => defineIssues('DEMO', specs)).toThrow('issue code OTHER_THING does not start with DEMO_');
    });

    test('is frozen', () => {
        expect(Object.isFrozen(issues)).toBe(true);
        expect(Object.isFrozen(issues.DEMO_UNKNOWN)).toBe(true);
    });
});
