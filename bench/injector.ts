import { performance } from 'node:perf_hooks';
import type { AbstractBinding, CategoryPredicate, LayeredBindings, NamedLayer } from '../generated/model/bindings.js';
import { createInjector, type Injector } from '../src/injector/index.js';
import { modelRegistry, type Model, type ModelObject } from '../src/model/index.js';

const BINDINGS = 100_000;
const LAYERS = ['site', 'environment', 'modules'];
/** The four categories of the request: node, virtual, environment and common (top-level bindings). */
const PREDICATES: (CategoryPredicate | undefined)[] = [
    { $type: 'Category', categorization: 'node', value: 'kermit.example.com' },
    { $type: 'Category', categorization: 'virtual', value: 'true' },
    { $type: 'Category', categorization: 'environment', value: 'production' },
    undefined
];

/**
 * 100,000 bindings over 3 layers x 4 categories: every key is bound in each category of its
 * layer (so each layer resolves four candidates per key) and the layers overlap by half (so
 * a third of the keys are shadowed across layers), with Data and typed keys mixed.
 */
function buildModel(): Model {
    const perLayer = Math.ceil(BINDINGS / LAYERS.length);
    const layers: NamedLayer[] = LAYERS.map((name, li) => {
        const blocks: AbstractBinding[][] = PREDICATES.map(() => []);
        for (let j = 0; j < perLayer; j++) {
            const key = `mod${(j >> 2) % 500}::key${(j >> 2) + li * (perLayer >> 3)}`;
            blocks[j % 4].push({
                $type: 'Binding', name: key, ...(j % 3 === 0 ? { type: 'Integer' } : {}),
                location: { $type: 'SourceLocation', file: `${name}/bindings.pp`, line: j + 1 },
                producer: { $type: 'ConstantProducerDescriptor', value: j }
            });
        }
        const bindings: AbstractBinding[] = PREDICATES.flatMap((p, i) => (p
            ? [{ $type: 'CategorizedBindings', predicates: [p], bindings: blocks[i] } as AbstractBinding]
            : blocks[i]));
        return { $type: 'NamedLayer', name, bindings: [{ $type: 'NamedBindings', name: `${name}::default`, bindings }] };
    });
    const root: LayeredBindings = {
        $type: 'LayeredBindings', layers,
        categorization: { $type: 'SiteCategorization', categories: [
            { $type: 'CategoryDefinition', categorization: 'node' },
            { $type: 'CategoryDefinition', categorization: 'virtual', valueExpression: { $type: 'PuppetExpression', source: '$::is_virtual' } },
            { $type: 'CategoryDefinition', categorization: 'environment' }
        ] }
    };
    const index = modelRegistry().byPackageName('bindings');
    if (!index) throw new Error('no bindings package');
    return { index, root: root as unknown as ModelObject };
}

function keyNames(model: Model): string[] {
    const names = new Set<string>();
    const visit = (bs: readonly AbstractBinding[]): void => {
        for (const b of bs) {
            if (b.$type === 'CategorizedBindings' || b.$type === 'NamedBindings') visit(b.bindings ?? []);
            else if (b.$type === 'Binding' && b.name !== undefined) names.add(b.name);
        }
    };
    for (const l of (model.root as unknown as LayeredBindings).layers ?? []) visit(l.bindings ?? []);
    return [...names];
}

function create(model: Model): Injector {
    return createInjector(model, { node: 'kermit.example.com', environment: 'production', facts: { fqdn: 'kermit.example.com', is_virtual: true } });
}

/** `npm run bench`: injector creation time and warm lookups per second (targets: < 1 s, >= 1,000,000/s). */
export function runInjectorBench(): void {
    const model = buildModel();
    const times: number[] = [];
    const cpu: number[] = [];
    let injector: Injector | undefined;
    for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        injector = create(model);
        const c = process.cpuUsage(c0);
        times.push((performance.now() - t0) / 1000);
        cpu.push((c.user + c.system) / 1e6);
    }
    if (!injector) return;
    const cold = times[0];
    const warm = Math.min(...times.slice(1));
    const names = keyNames(model);
    for (const n of names) injector.lookup(n);
    const sample = names.slice(0, 10_000);
    const rounds = 200;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    let found = 0;
    for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < sample.length; i++) if (injector.lookup(sample[i]) !== null) found++;
    }
    const seconds = (performance.now() - t0) / 1000;
    const c1 = process.cpuUsage(c0);
    const cpuSeconds = (c1.user + c1.system) / 1e6;
    const perSecond = Math.round(found / seconds);
    console.log(`injector (${BINDINGS} bindings, ${LAYERS.length} layers x ${PREDICATES.length} categories, ${names.length} keys):`);
    // CPU time beside wall time: on a loaded machine the wall clock also counts other processes.
    console.log(`  creation: ${cold.toFixed(3)} s cold, ${warm.toFixed(3)} s warm (best of 4; CPU ${cpu[0].toFixed(3)} s cold, ${Math.min(...cpu.slice(1)).toFixed(3)} s warm) (target < 1 s)`);
    console.log(`  lookups warm: ${perSecond} /s wall, ${Math.round(found / cpuSeconds)} /s CPU, over ${sample.length} keys x ${rounds} (target >= 1,000,000/s)`);
}
