/**
 * The Debian packages the interop checks use (Java EMF, Ruby RGen, a JDK): installed when missing
 * and apt-get exists (root, as on every project machine and CI); otherwise the checks are skipped
 * with a message saying so.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const APT_PACKAGES = ['ruby-rgen', 'libeclipse-emf-ecore-java', 'libeclipse-emf-ecore-xmi-java'];
const JDK_PACKAGE = 'default-jdk-headless';
const LOCK_RE = /Could not get lock|Unable to lock|Unable to acquire the dpkg frontend lock|is held by process|dpkg was interrupted/i;

export function run(cmd: string, args: readonly string[], env?: NodeJS.ProcessEnv): SpawnSyncReturns<string> {
    return spawnSync(cmd, args, { encoding: 'utf8', env: env ?? process.env, maxBuffer: 64 * 1024 * 1024 });
}

export function onPath(cmd: string): boolean {
    return run('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

function debInstalled(pkg: string): boolean {
    const r = run('dpkg-query', ['-W', '-f=${Status}', pkg]);
    return r.status === 0 && r.stdout.includes('install ok installed');
}

function sleep(ms: number): void {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs apt-get, waiting and retrying while another apt/dpkg holds its lock (up to 15 minutes). */
function aptGet(args: readonly string[]): void {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const deadline = Date.now() + 15 * 60_000;
    for (;;) {
        const r = run('apt-get', ['-o', 'DPkg::Lock::Timeout=120', ...args], env);
        if (r.status === 0) return;
        const output = `${r.stdout}\n${r.stderr}`;
        if (LOCK_RE.test(output) && Date.now() < deadline) {
            console.log(`[interop] apt-get ${args.join(' ')}: the apt/dpkg lock is held by another process, retrying in 10 s`);
            sleep(10_000);
            continue;
        }
        throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status}):\n${output.slice(-4000)}`);
    }
}

/** The Debian packages the interop checks need that are not installed yet. */
function missingPackages(): string[] {
    const missing = APT_PACKAGES.filter(p => !debInstalled(p));
    if (!onPath('javac')) missing.push(JDK_PACKAGE);
    return missing;
}

export function ensurePackages(): void {
    const missing = missingPackages();
    if (missing.length === 0) {
        console.log(`[interop] Debian packages present: ${APT_PACKAGES.join(', ')}, and javac`);
        return;
    }
    console.log(`[interop] installing missing Debian packages: ${missing.join(', ')}`);
    aptGet(['update']);
    aptGet(['install', '-y', '--no-install-recommends', ...missing]);
    const still = missingPackages();
    if (still.length > 0) throw new Error(`still missing after apt-get install: ${still.join(', ')}`);
}

export const TOOLS_PRESENT = APT_PACKAGES.every(debInstalled) && onPath('javac');
export const SKIP = !TOOLS_PRESENT && !onPath('apt-get');
if (SKIP) {
    console.log(`[interop] SKIPPED: apt-get is not available here, so the Debian packages ${APT_PACKAGES.join(', ')} `
        + 'and a JDK cannot be installed; the Java EMF and Ruby RGen interop checks did not run.');
}

// ---------------------------------------------------------------------------------------------
// The foreign tools

/** The EMF jars of the Debian packages (common, ecore, ecore.xmi), unversioned names preferred. */
export function emfJars(): string[] {
    const dir = '/usr/share/java';
    const names = existsSync(dir) ? readdirSync(dir).filter(n => n.endsWith('.jar')) : [];
    return ['common', 'ecore', 'ecore[.-]xmi'].map(part => {
        const unversioned = new RegExp(`^(org\\.)?eclipse[.-]emf[.-]${part}\\.jar$`);
        const versioned = new RegExp(`^(org\\.)?eclipse[.-]emf[.-]${part}[-_]\\d[\\w.+~-]*\\.jar$`);
        const found = names.find(n => unversioned.test(n)) ?? names.find(n => versioned.test(n));
        if (!found) throw new Error(`no EMF ${part} jar in ${dir} (have: ${names.filter(n => n.includes('emf')).join(', ')})`);
        return join(dir, found);
    });
}
