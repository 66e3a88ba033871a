import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, test } from 'vitest';
import { createCatalogServices, jsonText, puppetCatalog } from '../../src/catalog/index.js';
import { readFactsFile } from '../../src/node/index.js';
import { conformanceCases } from './conformance-cases.js';

const SCHEMA = '/work/shared/schemas/puppet-catalog.schema.json';
const HAS_PUPPET = spawnSync('puppet', ['--version'], { encoding: 'utf8' }).status === 0;

/** Cases whose catalogs hold only notify and file resources, so `puppet apply --noop` can take them anywhere. */
const APPLICABLE = ['002-string-quotes-escapes', '004-heredoc', '028-undef-handling', '040-class-basics', '046-resource-defaults', '071-ducks-renamed-param'];

const cases = conformanceCases().filter(c => APPLICABLE.includes(c.name));
const services = createCatalogServices();

function compilePuppetFormat(name: string): string {
    const c = cases.find(x => x.name === name);
    if (!c) throw new Error(`no case ${name}`);
    const result = services.compile(c.dir, 'production', { node: c.node, facts: c.facts ? readFactsFile(c.facts).values : new Map() });
    expect(result.error).toBeUndefined();
    return jsonText(puppetCatalog(result));
}

/** Applies a catalog in noop mode with a private confdir; returns the Error lines. */
function puppetApplyNoop(catalogText: string): string[] {
    const conf = mkdtempSync(join(tmpdir(), 'modelc-catalog-apply-'));
    try {
        const file = join(conf, 'catalog.json');
        writeFileSync(file, catalogText);
        const node = 'testnode.example.com';
        mkdirSync(join(conf, 'vardir/client_data/facts'), { recursive: true });
        writeFileSync(join(conf, `vardir/client_data/facts/${node}.json`), JSON.stringify({ name: node, values: { clientcert: node } }));
        const args = ['apply', '--catalog', file, '--noop', '--color=false', '--facts_terminus=json', `--certname=${node}`,
            ...['confdir', 'vardir', 'rundir', 'logdir', 'publicdir', 'codedir'].map(d => `--${d}=${conf}/${d}`)];
        const res = spawnSync('puppet', args, { encoding: 'utf8', timeout: 120_000 });
        return `${res.stdout}\n${res.stderr}`.split('\n').filter(l => l.startsWith('Error:') && !l.startsWith('Error: Facter'));
    } finally {
        rmSync(conf, { recursive: true, force: true });
    }
}

describe.skipIf(cases.length === 0)('--format puppet is Puppet\'s catalog JSON', () => {
    const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as Record<string, unknown>;
    delete schema.$schema;
    // The schema's patterns are Ruby regexps (\A, \Z, POSIX classes); translate them for JavaScript.
    const rubyPattern = (p: string): string => p.replace(/\\A/g, '^').replace(/\\[zZ]/g, '$').replace(/\[:alnum:\]/g, 'a-zA-Z0-9').replace(/\[:alpha:\]/g, 'a-zA-Z');
    const regExp = Object.assign((pattern: string, flags: string) => new RegExp(rubyPattern(pattern), flags), { code: 'new RegExp' });
    const validate = new Ajv({ strict: false, allErrors: true, code: { regExp } }).compile(schema);

    test.each(APPLICABLE)('%s validates against the catalog schema', name => {
        const ok = validate(JSON.parse(compilePuppetFormat(name)));
        expect(validate.errors ?? []).toEqual([]);
        expect(ok).toBe(true);
    });

    test.skipIf(!HAS_PUPPET).each(APPLICABLE)('%s is applied by real Puppet (--noop) without errors', name => {
        expect(puppetApplyNoop(compilePuppetFormat(name))).toEqual([]);
    }, 120_000);
});
