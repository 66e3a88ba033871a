import {
    createBinding, createConstantProducerDescriptor, createContributedBindings, createContributionSource,
    createHieraInterpolationProducerDescriptor, createHieraLevelBindings, createSourceLocation,
    type Binding, type ContributedBindings, type HieraLevelBindings
} from '../../../generated/model/bindings.js';
import { modelRegistry, toRichData, type Model } from '../../model/index.js';
import type { PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import type { FileSystemProvider, SourcePoint } from '../../common/index.js';
import { LookupError } from './errors.js';
import { Invocation } from './invocation.js';
import type { DataLayer, ResolvedLevel } from './layer.js';
import type { HieraLookup } from './service.js';

const SCHEME = 'hiera';

/**
 * The `hiera:` bindings provider: Hiera 5 data of an environment as Bindings models, one
 * ContributedBindings per Hiera layer. URIs: `hiera:/` (environment layer), `hiera:/global`
 * (the confdir's hiera.yaml), `hiera:/modules/NAME` (one module), `hiera:/modules/*` (every
 * module on the module path with a hiera.yaml). Each
 * level becomes a HieraLevelBindings (levels highest precedence first) holding one binding per
 * data key, with the key's file:line:col; values with `%{}` keep their template.
 */
export function provideHieraBindings(lookup: HieraLookup, uri: string): ContributedBindings[] {
    const engine = lookup.engine;
    if (/^hiera:\/global\/?$/.test(uri)) {
        const global = engine.globalLayer();
        return global ? [contribute(global, `${SCHEME}:/global`, uri)] : [];
    }
    const m = /^hiera:\/(?:modules\/([^/]+))?\/?$/.exec(uri);
    if (!m) throw new LookupError(`Unsupported hiera bindings URI '${uri}': use hiera:/, hiera:/global or hiera:/modules/NAME`, { code: BindingsIssues.BIND_NOT_AN_ENVIRONMENT, keyPath: uri });
    const modules = m[1] === undefined ? [] : m[1] === '*' ? moduleNames(lookup) : [m[1]];
    if (m[1] === undefined) {
        const env = engine.environmentLayer();
        return env ? [contribute(env, `${SCHEME}:/`, uri)] : [];
    }
    return modules.flatMap(name => {
        const layer = engine.moduleLayer(name);
        return layer ? [contribute(layer, `${SCHEME}:/modules/${name}`, uri)] : [];
    });
}

/** The bindings as a model document (package Bindings, root ContributedBindings). */
export function hieraBindingsModel(contribution: ContributedBindings): Model {
    const index = modelRegistry().byPackageName('bindings');
    if (!index) throw new Error('the Bindings package is not registered');
    return { index, root: contribution as unknown as Model['root'] };
}

function moduleNames(lookup: HieraLookup): string[] {
    const seen = new Set<string>();
    for (const base of lookup.engine.environment.modulePath) {
        for (const name of listDir(lookup.engine.files, base)) if (lookup.engine.moduleDir(name) !== undefined) seen.add(name);
    }
    return [...seen].sort();
}

function listDir(fs: FileSystemProvider, dir: string): string[] {
    try {
        return fs.readdir(dir);
    } catch {
        return [];
    }
}

function contribute(layer: DataLayer, name: string, pattern: string): ContributedBindings {
    const inv = new Invocation();
    const levels = [
        ...layer.levels(inv, false).map((rl, i) => levelBindings(layer, rl, i, false)),
        ...layer.levels(inv, true).map((rl, i) => levelBindings(layer, rl, i, true))
    ];
    return createContributedBindings({
        name,
        location: createSourceLocation({ file: layer.config.displayPath }),
        source: createContributionSource({ scheme: SCHEME, uri: name, pattern, provider: 'hiera 5 (yaml_data, json_data)' }),
        bindings: levels
    });
}

function levelBindings(layer: DataLayer, rl: ResolvedLevel, index: number, isDefault: boolean): HieraLevelBindings {
    const files = (rl.locations ?? []).filter(l => l.exists);
    const bindings: Binding[] = [];
    for (const loc of files) {
        const data = layer.dataFile(rl, loc);
        for (const [key, value] of data.hash) {
            bindings.push(createBinding({
                name: String(key),
                location: location(data.positions.get(String(key)) ?? { file: loc.display, line: 1, column: 1 }),
                producer: hasInterpolation(value)
                    ? createHieraInterpolationProducerDescriptor({ template: toRichData(value) })
                    : createConstantProducerDescriptor({ value: toRichData(value) })
            }));
        }
    }
    return createHieraLevelBindings({
        name: `${layer.moduleName ?? layer.kind}::${rl.level.name}`,
        location: createSourceLocation({ file: layer.config.displayPath, line: rl.level.line }),
        hieraLayer: layer.kind,
        moduleName: layer.moduleName,
        levelIndex: index,
        levelName: rl.level.name,
        defaultHierarchy: isDefault,
        dataFiles: files.map(f => f.display),
        bindings
    });
}

function location(p: SourcePoint): ReturnType<typeof createSourceLocation> {
    return createSourceLocation({ file: p.file, line: p.line, column: p.column });
}

function hasInterpolation(v: PuppetValue): boolean {
    if (typeof v === 'string') return v.includes('%{');
    if (Array.isArray(v)) return v.some(hasInterpolation);
    if (v instanceof Map) return [...v].some(([k, x]) => hasInterpolation(k) || hasInterpolation(x));
    return false;
}
