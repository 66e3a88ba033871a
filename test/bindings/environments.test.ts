import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { selectEnvironment } from '../../src/bindings/index.js';
import { isUserError } from '../../src/common/index.js';
import { writeEnv } from './hiera/fixture.js';

const SEED_EXAMPLE = `site {
  Environment {
    modulepath => 'modules/dist:modules/site',
  }
  dynamic_environments { "$confdir/environments":
  }
  environment { 'production':
    envdir     => "$confdir/master",
    modulepath => '$confdir/modules:modules/site',
  }
  environment { ['test', 'staging']: envdir => "$confdir/static" }
}
$environment = $agent_environment ? { undef => 'production', default => $agent_environment }
`;

interface Case {
    readonly file?: string;
    readonly agent?: string;
    readonly dirs?: readonly string[];
    /** [name, envdir, modulepath, manifest, kind] relative to the confdir, or an error [code, fragment]. */
    readonly expect: readonly [string, string, string[], string, string] | readonly [string, string];
}

/** The seed's rules for environments.pp, one case each. */
const CASES: Record<string, Case> = {
    'no environments.pp: production in $confdir': { expect: ['production', '.', ['modules'], 'manifests/site.pp', 'default'] },
    'no $environment: production': { file: 'site { }\n', expect: ['production', '.', ['modules'], 'manifests/site.pp', 'default'] },
    'static production with its own envdir; $confdir expands in paths': { file: SEED_EXAMPLE, expect: ['production', 'master', ['modules', 'master/modules/site'], 'master/manifests/site.pp', 'static'] },
    '$agent_environment picks a static environment': { file: SEED_EXAMPLE, agent: 'staging', expect: ['staging', 'static', ['static/modules/dist', 'static/modules/site'], 'static/manifests/site.pp', 'static'] },
    'a dynamic environment: a subdirectory; envdir is automatic': { file: SEED_EXAMPLE, agent: 'test36', dirs: ['environments/test36'], expect: ['test36', 'environments/test36', ['environments/test36/modules/dist', 'environments/test36/modules/site'], 'environments/test36/manifests/site.pp', 'dynamic'] },
    'unknown environment': { file: SEED_EXAMPLE, agent: 'nope', expect: ['BIND_UNKNOWN_ENVIRONMENT', "unknown environment 'nope'"] },
    'a name with a path is never a dynamic environment': { file: SEED_EXAMPLE, agent: '../master', dirs: ['environments'], expect: ['BIND_UNKNOWN_ENVIRONMENT', "unknown environment '../master'"] },
    'production is defined when not declared': { file: "site { dynamic_environments { \"$confdir/envs\": } }\n", expect: ['production', '.', ['modules'], 'manifests/site.pp', 'default'] },
    'manifest relative to manifestdir': { file: "site { environment { 'production': manifestdir => 'm', manifest => 'main.pp' } }\n", expect: ['production', '.', ['modules'], 'm/main.pp', 'static'] },
    '$environment from a fact': { file: "site { environment { 'x': } }\n$environment = $facts_env\n", expect: ['x', '.', ['modules'], 'manifests/site.pp', 'static'] },
    'envdir on dynamic environments is an error (the parser already says so)': { file: "site { dynamic_environments { '/tmp': envdir => '/x' } }\n", expect: ['BIND_PARSE', 'envdir'] },
    'an environment declared twice': { file: "site { environment { 'a': } environment { 'a': } }\n", expect: ['BIND_ENVIRONMENT_DUPLICATE', "'a' is declared twice"] },
    'unknown parameter': { file: "site { environment { 'a': color => 'red' } }\n", expect: ['BIND_ENVIRONMENTS_EVAL', 'only the parameters'] },
    'no injection': { file: "$environment = inject('env')\n", expect: ['BIND_ENVIRONMENTS_INJECT', 'may not use injection'] },
    'code that needs the evaluator': { file: '$environment = "a" + "b"\n', expect: ['BIND_ENVIRONMENTS_EVAL', 'cannot evaluate'] }
};

describe('environments.pp selects the environment', () => {
    test.each(Object.entries(CASES))('%s', (_name, c) => {
        const confdir = writeEnv(c.file !== undefined ? { 'environments.pp': c.file } : { 'README': '' });
        for (const d of c.dirs ?? []) mkdirSync(join(confdir, d), { recursive: true });
        const run = (): ReturnType<typeof selectEnvironment> => selectEnvironment({ confdir, facts: new Map([['facts_env', 'x']]), ...(c.agent !== undefined ? { agentEnvironment: c.agent } : {}) });
        if (c.expect.length === 2) {
            let error: unknown;
            try { run(); } catch (e) { error = e; }
            expect(isUserError(error), String(error)).toBe(true);
            if (!isUserError(error)) return;
            expect(error.diagnostics[0].code).toBe(c.expect[0]);
            expect(error.message).toContain(c.expect[1]);
            return;
        }
        const [name, envdir, modulepath, manifest, kind] = c.expect;
        const rel = (p: string): string => (p === confdir ? '.' : p.startsWith(`${confdir}/`) ? p.slice(confdir.length + 1) : p);
        const s = run();
        expect([s.name, rel(s.envdir), s.modulepath.map(rel), rel(s.manifest), s.kind]).toEqual([name, envdir, modulepath, manifest, kind]);
    });
});
