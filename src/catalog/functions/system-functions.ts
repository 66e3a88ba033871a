import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, isAbsolute } from 'node:path';
import { pathExists } from '../../common/index.js';
import { formatFloat, hashGet, PBinary, PTimespan, PTimestamp, type PuppetValue } from '../../values/index.js';
import { EvalIssue, PuppetFailure, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import { describe as describeRuby, MersenneTwister } from '../../ruby/index.js';
import type { PuppetFunction } from './function.js';
import { hexDigest } from './string-functions.js';

/** Ruby's String#to_i / Float#to_i of a 3.x function argument. */
function rubyToI(v: PuppetValue): bigint {
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number') return BigInt(Math.trunc(v));
    if (typeof v === 'string') {
        const m = /^\s*([-+]?\d[\d_]*)/.exec(v);
        return m ? BigInt(m[1].replace(/_/g, '')) : 0n;
    }
    if (v === null) return 0n;
    // Timestamp and Timespan count whole seconds (Ruby's Integer division rounds down).
    if (v instanceof PTimestamp || v instanceof PTimespan) return v.nanos >= 0n ? v.nanos / NS_PER_S : -((-v.nanos + NS_PER_S - 1n) / NS_PER_S);
    // Any other object has no to_i; did_you_mean offers the conversions it does have.
    const suggestions = Array.isArray(v) || v instanceof Map ? ['to_s', 'to_a', 'to_h'] : ['to_s'];
    throw new RuntimeFailure(CatalogIssues.EVAL_RUBY_NO_METHOD.message({ method: 'to_i', receiver: describeRuby(v), suggestions }));
}

const NS_PER_S = 1_000_000_000n;

/** Ruby's Array#join(':') of 3.x function values (undef is the empty string, arrays are joined in place). */
function rubyJoin(values: readonly PuppetValue[]): string {
    return values.map(v => {
        if (v === null) return '';
        if (Array.isArray(v)) return rubyJoin(v);
        if (typeof v === 'number') return formatFloat(v);
        return String(v);
    }).join(':');
}

/** The host setting that lets generate() run commands at compile time (off unless given). */
export const ALLOW_GENERATE_SETTING = 'allow_generate';

export const systemFunctions: Record<string, PuppetFunction> = {
    /** A number in 0...max, the same for a node (its fqdn fact) and seed on every run: Ruby's Random over an MD5 seed. */
    fqdn_rand: (call, args) => {
        const max = rubyToI(args[0]);
        const facts = call.runtime.lookupVariable('facts', call.scope);
        const networking = facts instanceof Map ? hashGet(facts, 'networking') : undefined;
        let fqdn = networking instanceof Map ? hashGet(networking, 'fqdn') ?? null : null;
        const downcase = args.length > 2 && args[2] !== false;
        if (downcase) {
            if (typeof fqdn !== 'string') throw new RuntimeFailure(CatalogIssues.EVAL_FQDN_NIL_DOWNCASE.message());
            fqdn = fqdn.toLowerCase();
        }
        if (max <= 0n) throw new RuntimeFailure(CatalogIssues.EVAL_RAND_INVALID.message({ max: String(max) }));
        const seed = BigInt(`0x${createHash('md5').update(rubyJoin([fqdn, max, args.length > 1 ? args[1] : null])).digest('hex')}`);
        // Ruby's Random.new(seed).rand(max), as Puppet's fqdn_rand draws it.
        return new MersenneTwister(seed).below(max);
    },
    /** Puppet's digest_algorithm (sha256 by default) of a string. */
    digest: (_call, [s]) => hexDigest('sha256', s),
    binary_file: (call, [path]) => {
        const name = String(path);
        let file: string | undefined;
        if (isAbsolute(name)) file = name;
        else {
            const [module, ...rest] = name.split('/');
            file = rest.length > 0 ? call.runtime.loader.moduleFile(module, 'files', rest.join('/')) : undefined;
        }
        if (file === undefined || !pathExists(call.runtime.loader.fs, file)) throw new RuntimeFailure(CatalogIssues.EVAL_BINARY_FILE_MISSING.message({ path: name }));
        return new PBinary(new Uint8Array(call.runtime.loader.fs.readFile(file)));
    },
    /**
     * Runs a command at compile time, as Puppet does, once the host allows it; Puppet's checks on
     * the command path come first.
     */
    generate: (call, args) => {
        const command = String(args[0]);
        if (!isAbsolute(command)) throw new RuntimeFailure(CatalogIssues.EVAL_GENERATOR_NOT_QUALIFIED.message());
        if (!/^[-/\w.+]+$/.test(command)) throw new RuntimeFailure(CatalogIssues.EVAL_GENERATOR_CHARACTERS.message());
        if (command.includes('..')) throw new RuntimeFailure(CatalogIssues.EVAL_GENERATOR_DOTS.message());
        if (call.runtime.setting(ALLOW_GENERATE_SETTING) !== 'true') {
            throw new RuntimeFailure(CatalogIssues.EVAL_GENERATOR_REFUSED.message({ command, setting: ALLOW_GENERATE_SETTING }));
        }
        try {
            return execFileSync(command, args.slice(1).map(a => String(a)), { cwd: dirname(command), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        } catch (e) {
            const status = (e as { status?: number | null }).status;
            throw new RuntimeFailure(CatalogIssues.EVAL_GENERATOR_FAILED.message({ command, line: args.map(a => String(a)).join(' '), status: status ?? 1, output: String((e as { stdout?: string }).stdout ?? '') }));
        }
    },
    /** Debian's Ruby 3.1 lacks the scanf library Puppet's scanf requires: it fails as Puppet does there. */
    scanf: () => {
        throw new PuppetFailure(CatalogIssues.EVAL_SCANF_MISSING.message(), undefined, 'LoadError');
    },
    import: () => {
        throw EvalIssue.of(CatalogIssues.EVAL_DISCONTINUED_IMPORT, {});
    }
};
