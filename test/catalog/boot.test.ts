import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bootEnvironment } from '../../src/catalog/index.js';

function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'modelc-boot-'));
    for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, path, '..'), { recursive: true });
        writeFileSync(join(root, path), text);
    }
    return root;
}

describe('environment boot', () => {
    test('a manifests directory is every .pp below it, sorted byte-wise by path', () => {
        const root = tree(Object.fromEntries(['9-nine.pp', '10-ten.pp', 'Zeta.pp', 'alpha.pp', 'alpha-beta.pp', 'alpha/nested.pp', 'README.txt']
            .map(f => [`manifests/${f}`, ''])));
        const env = bootEnvironment(root, 'production');
        expect(env.manifests.map(m => relative(join(root, 'manifests'), m))).toEqual(
            ['10-ten.pp', '9-nine.pp', 'Zeta.pp', 'alpha-beta.pp', 'alpha.pp', 'alpha/nested.pp']);
        expect(env.modulepath).toEqual([join(root, 'modules')]);
    });

    test.each<[string, string, string[], string[]]>([
        ['a manifest file (default module path: modules, then basemodulepath)', 'manifest = site/main.pp', ['site/main.pp'], ['modules', '/base']],
        ['a manifest directory and a module path', 'manifest = code\nmodulepath = site:modules:$basemodulepath', ['code/a.pp'], ['site', 'modules', '/base']],
        ['comments and blank lines', '# comment\n\nmodulepath = other  # trailing\n', ['manifests/x.pp'], ['other']]
    ])('environment.conf: %s', (_name, conf, manifests, modulepath) => {
        const root = tree({ 'environment.conf': conf, 'site/main.pp': '', 'site/other.pp': '', 'code/a.pp': '', 'manifests/x.pp': '' });
        const env = bootEnvironment(root, 'production', ['/base']);
        expect(env.manifests.map(m => relative(root, m))).toEqual(manifests);
        expect(env.modulepath.map(m => m.startsWith(root) ? relative(root, m) : m)).toEqual(modulepath);
    });

    test('a codedir with environments/<name> selects that environment', () => {
        const root = tree({ 'environments/dev/manifests/site.pp': '', 'environments/production/manifests/site.pp': '' });
        const env = bootEnvironment(root, 'dev');
        expect(relative(root, env.dir)).toBe('environments/dev');
        expect(env.name).toBe('dev');
    });
});
