import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * `npm run build` packages editors/vscode into a .vsix when the extension's tools are installed
 * (`npm run vscode:install`). The package must hold the compiled client, its manifest and the
 * language client library it loads at run time.
 */
const DIR = join(import.meta.dirname, '..', '..', 'editors', 'vscode');
const VSIX = join(DIR, 'modelc-puppet.vsix');
const tools = existsSync(join(DIR, 'node_modules', '@vscode', 'vsce'));

describe.skipIf(!tools)(`the VS Code extension package${tools ? '' : ' (skipped: run `npm run vscode:install` to install vsce)'}`, () => {
    test('npm run build made a .vsix holding the client, its manifest and vscode-languageclient', () => {
        expect(existsSync(VSIX)).toBe(true);
        const zip = readFileSync(VSIX);
        expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
        // Entry names are stored as plain text in a zip's directory.
        const names = zip.toString('latin1');
        for (const entry of ['extension.vsixmanifest', 'extension/package.json', 'extension/out/extension.js', 'extension/node_modules/vscode-languageclient/package.json']) {
            expect(names).toContain(entry);
        }
    });

    test('the manifest starts `modelc lsp --stdio` for Puppet files and declares the modelc.node setting', () => {
        const manifest = JSON.parse(readFileSync(join(DIR, 'package.json'), 'utf8')) as { contributes: { languages: { extensions: string[] }[]; configuration: { properties: Record<string, unknown> } } };
        expect(manifest.contributes.languages[0].extensions).toEqual(['.pp', '.epp']);
        expect(Object.keys(manifest.contributes.configuration.properties)).toEqual(['modelc.path', 'modelc.node']);
        expect(readFileSync(join(DIR, 'src', 'extension.ts'), 'utf8')).toContain("'lsp', '--stdio'");
    });
});
