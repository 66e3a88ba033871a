// modelc-batch.mjs IN.json OUT.json: modelc (the built dist/) over the same case list as
// ../oracle-batch.rb --cases, each compiled as `modelc compile DIR --node N` would, in one process.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// MODELC_DIST: another build's dist/src (e.g. main's, for a before/after count).
const dist = process.env.MODELC_DIST ?? join(import.meta.dirname, '..', '..', '..', 'dist', 'src');
const { createCatalogServices, jsonText, normalizedResult, BindingsCatalogModule } = await import(join(dist, 'catalog', 'index.js'));

const [inFile, outFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(inFile, 'utf8'));
const services = createCatalogServices(BindingsCatalogModule);
const out = [];
for (const c of cases) {
    const settings = new Map((c.settings ?? []).map(s => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)]));
    let text;
    try {
        text = jsonText(normalizedResult(services.compile(c.dir, 'production', { node: c.node ?? 'testnode.example.com', facts: new Map(), settings })));
    } catch (e) {
        text = JSON.stringify({ driver_error: String(e?.stack ?? e) });
    }
    out.push(`${JSON.stringify(c.id)}: ${text}`);
}
writeFileSync(outFile, `{\n${out.join(',\n')}\n}\n`);
