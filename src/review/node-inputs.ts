import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../common/index.js';
import { ReviewIssues } from './issues.js';

/** A node to review and the facts file it compiles with (none: no facts). */
export interface NodeInput {
    readonly node: string;
    readonly factsFile?: string;
}

const FACT_FILE = /^(.+)\.(ya?ml|json)$/;

/** `<certname>.yaml|yml|json` files of a facts directory (Puppet's fact cache or `puppet facts` output). */
function factsFiles(dir: string): Map<string, string> {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
        throw new UserError({ severity: 'error', code: ReviewIssues.NO_FACTS, file: dir, message: 'the facts directory does not exist' });
    }
    const out = new Map<string, string>();
    for (const name of readdirSync(dir).sort()) {
        const m = FACT_FILE.exec(name);
        if (m && !out.has(m[1])) out.set(m[1], join(dir, name));
    }
    return out;
}

/**
 * The nodes of a review: those named (`--node`), with their facts from the facts directory when
 * one is given; without names, every node of the facts directory.
 */
export function nodeInputs(names: readonly string[], factsDir: string | undefined): NodeInput[] {
    const files = factsDir !== undefined ? factsFiles(factsDir) : new Map<string, string>();
    if (names.length === 0) {
        if (files.size === 0) {
            throw new UserError({ severity: 'error', code: ReviewIssues.NO_NODES, file: factsDir ?? '<command line>', message: 'no nodes to review: give --node NAME or --nodes-dir with <certname>.yaml|json facts files' });
        }
        return [...files].map(([node, factsFile]) => ({ node, factsFile }));
    }
    return [...new Set(names)].map(node => {
        const factsFile = files.get(node);
        if (factsDir !== undefined && factsFile === undefined) {
            throw new UserError({ severity: 'error', code: ReviewIssues.NO_FACTS, file: factsDir, message: `no facts file for node '${node}' (expected ${node}.yaml or ${node}.json)` });
        }
        return factsFile ? { node, factsFile } : { node };
    });
}
