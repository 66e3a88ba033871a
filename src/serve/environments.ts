import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BindingsIssues, runEnc } from '../bindings/index.js';
import { formatDiagnostic, isUserError } from '../common/index.js';
import { chooseEnvironment, type Environment } from '../catalog/index.js';
import type { PuppetValue } from '../values/index.js';

/** An answer of the API other than 200: the status and Puppet's message for the agent. */
export class HttpFailure extends Error {
    constructor(readonly status: number, message: string, readonly issueKind = 'RUNTIME_ERROR') {
        super(message);
    }
}

/** What decides a request's environment (ARM-8 Request Sequence). */
export interface EnvironmentQuestion {
    readonly certname: string;
    /** The agent's environment (`configured_environment`, else `environment`); environments.pp sees it as `$agent_environment`. */
    readonly agentEnvironment?: string;
    readonly facts?: ReadonlyMap<string, PuppetValue>;
    readonly trusted?: ReadonlyMap<string, PuppetValue>;
    /** Ask the ENC of ROOT/bindings/providers.yaml first (false with --no-bindings: it is a bindings provider). */
    readonly askEnc?: boolean;
}

function isDir(p: string): boolean {
    try {
        return statSync(p).isDirectory();
    } catch {
        return false;
    }
}

/**
 * The environment a request is served in, chosen as `modelc compile --confdir` chooses it
 * (the catalog stage's chooseEnvironment, after the ENC): with `ROOT/environments.pp`,
 * environments.pp decides with the agent's wish as `$agent_environment`; without it, the ENC's
 * environment, else the agent's, else production. A name that is not there is a 404 as Puppet
 * Server answers it: without environments.pp an environment must be `ROOT/environments/NAME`,
 * or ROOT itself as production when ROOT is an environment.
 */
export function environmentFor(root: string, q: EnvironmentQuestion): Environment {
    const dir = resolve(root);
    try {
        const enc = q.askEnc === false ? undefined : runEnc(dir, q.certname);
        const chosen = chooseEnvironment(dir, {
            certname: q.certname, facts: q.facts ?? new Map(), ...(q.trusted ? { trusted: q.trusted } : {}),
            ...(q.agentEnvironment !== undefined ? { agentEnvironment: q.agentEnvironment } : {}), ...(enc ? { enc: enc.output } : {})
        });
        if (chosen.decidedBy !== 'environments.pp') {
            const name = chosen.name;
            const exists = isDir(join(dir, 'environments')) ? /^\w+$/.test(name) && isDir(join(dir, 'environments', name)) : name === 'production';
            if (!exists) throw new HttpFailure(404, `Could not find environment '${name}'`);
        }
        return chosen.environment;
    } catch (e) {
        if (!isUserError(e)) throw e;
        const d = e.diagnostics[0];
        if (d?.code === BindingsIssues.BIND_UNKNOWN_ENVIRONMENT) throw new HttpFailure(404, `Could not find environment '${/'([^']*)'/.exec(d.message)?.[1] ?? ''}'`);
        throw new HttpFailure(500, `Server Error: ${e.diagnostics.map(formatDiagnostic).join('; ')}`);
    }
}
