/**
 * The layering of src/, checked by dependency-cruiser in `npm test` (test/architecture.test.ts).
 * src/ARCHITECTURE.md explains the stages; this file is the enforced form of its arrows.
 *
 * LAYERS lists the folders of src/ from the ground floor up: a folder may import only folders
 * listed before it. The order follows the real imports: `types` parses type strings with the
 * Puppet parser, so `parse` sits below it; `store` answers the injector's queries; `bindings` builds
 * on the injector; `catalog` compiles with bindings and ERB; `apply` consumes catalogs; `graph` draws
 * models (DOT/SVG); `review` compiles and diffs catalogs at two git revisions; `serve` answers Puppet agents
 * over HTTPS with catalogs and files; `lsp` serves editors
 * over all of them; `cli` adapts every
 * stage to the command line.
 */
const LAYERS = [
    'common',
    'parse',
    'values',
    'types',
    'model',
    'graph',
    'resource-types',
    'node',
    'ruby',
    'erb',
    'injector',
    'store',
    'bindings',
    'catalog',
    'bundle',
    'apply',
    'review',
    'batch',
    'serve',
    'lsp',
    'modelc',
    'cli'
];

const stageOrder = LAYERS.map((folder, i) => ({
    name: `stage-order-${folder}`,
    comment: `src/${folder} may import only the folders below it: ${LAYERS.slice(0, i).join(', ') || '(none)'}`,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: { path: `^src/(?!(?:${[folder, ...LAYERS.slice(0, i)].join('|')})/)[^/]+/` }
}));

module.exports = {
    forbidden: [
        ...stageOrder,
        {
            name: 'unknown-stage-folder',
            comment: 'every folder of src/ has a place in LAYERS (.dependency-cruiser.cjs)',
            severity: 'error',
            from: { path: `^src/(?!(?:${LAYERS.join('|')})/)[^/]+/` },
            to: {}
        },
        {
            name: 'index-only',
            comment: "a folder of src/ reaches another only through that folder's index.ts",
            severity: 'error',
            from: { path: '^src/([^/]+)/' },
            to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] }
        },
        {
            name: 'no-circular-between-folders',
            comment: 'an import cycle may not leave its folder',
            severity: 'error',
            from: { path: '^src/([^/]+)/' },
            to: { circular: true, viaSomeNot: '^src/$1/' }
        },
        {
            name: 'no-circular-in-catalog',
            comment: 'files of src/catalog hold separate concerns, so none may need another that needs it back ' +
                '(type-only imports are ignored: they vanish from the emitted JavaScript)',
            severity: 'error',
            from: { path: '^src/catalog/' },
            to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { dependencyTypesNot: ['type-only'] } }
        }
    ],
    options: {
        doNotFollow: { path: 'node_modules' },
        exclude: { path: '^(node_modules|dist|generated)/' },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: 'tsconfig.json' },
        enhancedResolveOptions: { extensions: ['.ts', '.js'] }
    }
};
