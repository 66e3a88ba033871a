import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openStore, type CatalogStore, type StoredReport } from '../store/index.js';
import { HttpFailure } from './environments.js';

/**
 * Where agents' reports go: the store when the server has one (every server of a fleet writes to
 * the same PuppetDB), else `REPORTDIR/CERTNAME/TIMESTAMP-ID.json` (Puppet's `store` report
 * processor keeps one file per run in a directory per node), the body as the agent sent it.
 */
export class ReportSink {
    private readonly dir: string;
    private store: CatalogStore | undefined;

    constructor(reportDir: string, private readonly storeUrl?: string) {
        this.dir = resolve(reportDir);
    }

    /** Keeps a report; answers the processors that ran, as Puppet Server does. */
    save(certname: string, environment: string | undefined, body: Buffer): string[] {
        if (this.storeUrl === undefined) {
            const nodeDir = join(this.dir, certname);
            mkdirSync(nodeDir, { recursive: true });
            const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
            writeFileSync(join(nodeDir, `${stamp}-${randomUUID().slice(0, 8)}.json`), body);
            return ['store'];
        }
        let report: unknown;
        try {
            report = JSON.parse(body.toString('utf8'));
        } catch {
            throw new HttpFailure(400, 'Bad Request: the report is not JSON');
        }
        if (report === null || typeof report !== 'object' || Array.isArray(report)) throw new HttpFailure(400, 'Bad Request: the report is not a JSON object');
        const r = report as StoredReport['report'];
        this.store ??= openStore(this.storeUrl);
        this.store.storeReport({
            node: certname, environment: environment ?? (typeof r.environment === 'string' ? r.environment : 'production'), receivedAt: new Date().toISOString(), report: r
        });
        return ['puppetdb'];
    }

    close(): void {
        this.store?.close();
    }
}
