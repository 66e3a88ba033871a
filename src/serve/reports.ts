import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Where agents' reports go: `REPORTDIR/CERTNAME/TIMESTAMP-ID.json` (Puppet's `store` report
 * processor keeps one file per run in a directory per node), the body as the agent sent it.
 */
export class ReportSink {
    private readonly dir: string;

    constructor(reportDir: string, readonly storeUrl?: string) {
        this.dir = resolve(reportDir);
    }

    /** Keeps a report; answers the processors that ran, as Puppet Server does. */
    save(certname: string, body: Buffer): string[] {
        const nodeDir = join(this.dir, certname);
        mkdirSync(nodeDir, { recursive: true });
        const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
        writeFileSync(join(nodeDir, `${stamp}-${randomUUID().slice(0, 8)}.json`), body);
        return ['store'];
    }

    close(): void {
        // Files are written synchronously: nothing is pending.
    }
}
