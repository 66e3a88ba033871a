// Builds the VS Code extension: compiles src/ into out/ (TypeScript from the repository) and
// packages modelc-puppet.vsix with vsce. Run by the repository's `npm run build`: it does nothing
// when this folder's tools are not installed (`npm run vscode:install` at the root), and packages
// only when an input is newer than the .vsix, so builds and `npm test` stay fast and offline.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const force = process.argv.includes('--force');
const vsix = join(here, 'modelc-puppet.vsix');
const vsce = join(here, 'node_modules', '@vscode', 'vsce', 'vsce');

if (!existsSync(vsce) || !existsSync(join(here, 'node_modules', 'vscode-languageclient'))) {
    if (force) {
        process.stderr.write('editors/vscode: error VSCODE_TOOLS: the packaging tools are not installed (run `npm run vscode:install`)\n');
        process.exit(1);
    }
    process.stdout.write('editors/vscode: packaging tools not installed (`npm run vscode:install`): the .vsix is not built\n');
    process.exit(0);
}

const inputs = ['package.json', 'language-configuration.json', 'README.md', '.vscodeignore', 'build.mjs',
    ...readdirSync(join(here, 'src')).map(f => join('src', f))];
const newest = Math.max(...inputs.map(f => statSync(join(here, f)).mtimeMs));
if (!force && existsSync(vsix) && statSync(vsix).mtimeMs >= newest) process.exit(0);

const tsc = join(here, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(here, 'tsconfig.json')], { stdio: 'inherit' });
execFileSync(process.execPath, [vsce, 'package', '--out', vsix, '--skip-license', '--allow-missing-repository'], { cwd: here, stdio: 'inherit' });
