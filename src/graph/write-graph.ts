import { spawnSync } from 'node:child_process';
import { extname } from 'node:path';
import { UserError } from '../common/index.js';
import { writeFileAtomic } from '../model/index.js';

export const GraphIssues = {
    FORMAT: 'GRAPH_FORMAT',
    NO_GRAPHVIZ: 'GRAPH_NO_GRAPHVIZ',
    RENDER_FAILED: 'GRAPH_RENDER_FAILED'
} as const;

/** Checks the file name before any work is done: .dot or .svg. */
export function graphFormat(file: string): 'dot' | 'svg' {
    const ext = extname(file).toLowerCase();
    if (ext === '.dot' || ext === '.gv') return 'dot';
    if (ext === '.svg') return 'svg';
    throw new UserError({ severity: 'error', code: GraphIssues.FORMAT, file, message: `--graph writes .dot or .svg files, not '${ext || file}'` });
}

/**
 * Writes DOT text as FILE.dot, or as FILE.svg through Graphviz's `dot` (Debian package
 * graphviz); without it the error says so and suggests the .dot file.
 */
export function writeGraph(file: string, dotText: string): void {
    if (graphFormat(file) === 'dot') {
        writeFileAtomic(file, dotText);
        return;
    }
    const run = spawnSync('dot', ['-Tsvg'], { input: dotText, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const missing = (run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
    if (missing) {
        throw new UserError({ severity: 'error', code: GraphIssues.NO_GRAPHVIZ, file, message: "writing SVG needs Graphviz's 'dot' command (Debian/Ubuntu: apt-get install graphviz); write a .dot file instead to render it elsewhere" });
    }
    if (run.error || run.status !== 0) {
        throw new UserError({ severity: 'error', code: GraphIssues.RENDER_FAILED, file, message: `Graphviz 'dot' failed: ${(run.stderr || run.error?.message || '').trim().split('\n')[0]}` });
    }
    writeFileAtomic(file, run.stdout);
}
