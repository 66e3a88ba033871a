import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../common/index.js';

/** A node of a batch and the facts file it compiles with. */
export interface BatchNode {
    readonly node: string;
    readonly factsFile: string;
}

const FACT_FILE = /^(.+)\.(ya?ml|json)$/;

/**
 * The nodes of a facts directory: one per `<certname>.yaml|yml|json` file (Puppet's fact cache,
 * or `puppet facts` output), in name order; the first extension in that order wins for a name.
 */
export function nodesOfFactsDir(dir: string): BatchNode[] {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
        throw new UserError({ severity: 'error', code: 'BATCH_NO_FACTS_DIR', file: dir, message: 'the facts directory does not exist' });
    }
    const out = new Map<string, string>();
    for (const name of readdirSync(dir).sort()) {
        const m = FACT_FILE.exec(name);
        if (m && !out.has(m[1])) out.set(m[1], join(dir, name));
    }
    if (out.size === 0) {
        throw new UserError({ severity: 'error', code: 'BATCH_NO_NODES', file: dir, message: 'no <certname>.yaml|yml|json facts files in the facts directory' });
    }
    return [...out].map(([node, factsFile]) => ({ node, factsFile }));
}
