import { describe, expect, it } from 'vitest';
import { readModelFile } from '../../src/model/index.js';
import { createInjector } from '../../src/injector/index.js';

describe('the foundation ARM-8 fixture', () => {
    it('builds for kermit with the one unbound rename reported', () => {
        const m = readModelFile('test/fixtures/model/valid/bindings/arm8-site.json');
        const inj = createInjector(m, { node: 'kermit.example.com', facts: { fqdn: 'kermit.example.com' } }, { lenient: true });
        expect(inj.issues.filter(i => i.severity === 'error').map(i => i.code)).toEqual(['INJECT_REBIND_MISSING']);
        expect(inj.lookup('ntp::servers')).toEqual(['ntp1.kermit.example.com']);
    });
});
