import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BindingsIssues } from '../bindings/index.js';
import { formatDiagnostic, isUserError } from '../common/index.js';
import { bootEnvironment, environmentOf, selectEnvironment, type Environment } from '../catalog/index.js';
import type { PuppetValue } from '../values/index.js';

/** An answer of the API other than 200: the status and Puppet's message for the agent. */
export class HttpFailure extends Error {
    constructor(readonly status: number, message: string, readonly issueKind = 'RUNTIME_ERROR') {
        super(message);
    }
}

/** What decides a request's environment (ARM-8 Request Sequence). */
export interface EnvironmentQuestion {
    /** The agent's --environment (`environment` of the request); environments.pp sees it as `$agent_environment`. */
    readonly agentEnvironment?: string;
    readonly facts?: ReadonlyMap<string, PuppetValue>;
    readonly certname?: string;
    readonly trusted?: ReadonlyMap<string, PuppetValue>;
}

function isDir(p: string): boolean {
    try {
        return statSync(p).isDirectory();
    } catch {
        return false;
    }
}

/**
 * The environment a request is served in. With `ROOT/environments.pp` (a CONFDIR), environments.pp
 * decides with the agent's wish as `$agent_environment` and the facts as variables; an unknown
 * name is a 404 as Puppet Server answers it. Without it, a ROOT holding `environments/NAME`
 * (Puppet's environmentpath) serves the agent's environment (404 when absent), and a ROOT that is
 * itself an environment is `production` whatever the agent asked (the seed: no entry point
 * manifest means production).
 */
export function environmentFor(root: string, q: EnvironmentQuestion): Environment {
    const dir = resolve(root);
    if (existsSync(join(dir, 'environments.pp'))) {
        try {
            const sel = selectEnvironment(dir, {
                certname: q.certname ?? '', facts: q.facts ?? new Map(), ...(q.trusted ? { trusted: q.trusted } : {}),
                ...(q.agentEnvironment !== undefined ? { agentEnvironment: q.agentEnvironment } : {})
            });
            return environmentOf(sel);
        } catch (e) {
            if (!isUserError(e)) throw e;
            const d = e.diagnostics[0];
            if (d?.code === BindingsIssues.BIND_UNKNOWN_ENVIRONMENT) throw new HttpFailure(404, `Could not find environment '${/'([^']*)'/.exec(d.message)?.[1] ?? ''}'`);
            throw new HttpFailure(500, `Server Error: ${e.diagnostics.map(formatDiagnostic).join('; ')}`);
        }
    }
    if (isDir(join(dir, 'environments'))) {
        const name = q.agentEnvironment ?? 'production';
        if (!/^\w+$/.test(name) || !isDir(join(dir, 'environments', name))) throw new HttpFailure(404, `Could not find environment '${name}'`);
        return bootEnvironment(dir, name);
    }
    return bootEnvironment(dir, 'production');
}
