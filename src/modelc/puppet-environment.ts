import type { MClass, MClassifier, MEnum, MFeature, MPackage } from '../model/index.js';

/**
 * What the Puppet package adds to the classes derived from the grammar. The grammar knows the
 * shape of the AST; a model of it also has to say where each node was written (so a compile from
 * a bundle locates its errors and its resources' `file`/`line` exactly as a compile from source),
 * and how a whole parsed environment travels as one model file (the Environment bundle). These
 * classes cannot live in a `metamodel/*.emfatic` package: they contain the grammar's `Program`,
 * and a package does not reference another package's classes.
 */
export function withPuppetExtensions(pkg: MPackage): MPackage {
    const roots = new Set(pkg.classifiers.filter((c): c is MClass => c.kind === 'class' && c.superTypes.length === 0).map(c => c.name));
    const located = pkg.classifiers.map((c): MClassifier => c.kind === 'class' && roots.has(c.name) ? { ...c, superTypes: [LOCATED.name] } : c);
    const classifiers = [...located, LOCATED, ENVIRONMENT, SOURCE_FILE, SOURCE_KIND].sort((a, b) => a.name.localeCompare(b.name, 'en'));
    return { ...pkg, classifiers };
}

const int = (name: string, doc: string): MFeature => ({ kind: 'attribute', name, type: 'Int', lower: 0, upper: 1, doc });
const str = (name: string, lower: number, doc: string): MFeature => ({ kind: 'attribute', name, type: 'String', lower, upper: 1, doc });

const LOCATED: MClass = {
    kind: 'class',
    name: 'Located',
    abstract: true,
    interface: false,
    superTypes: [],
    doc: 'Where a node was written in its source file (every AST class is Located).',
    features: [
        int('offset', 'The 0-based offset of the node\'s first character in the file\'s text.'),
        int('length', 'The number of characters the node spans.'),
        int('line', 'The 1-based line of the node\'s first character.'),
        int('column', 'The 1-based column of the node\'s first character.'),
        int('operatorOffset', 'For an operator expression (and a method call), the 0-based offset of its operator (or of \'(\' / \'.\'), where Puppet locates it.')
    ]
};

const ENVIRONMENT: MClass = {
    kind: 'class',
    name: 'Environment',
    abstract: false,
    interface: false,
    superTypes: [],
    doc: 'A parsed Puppet environment as one model file (`modelc parse CODEDIR --bundle FILE`): every file the compile stages read, manifests as parsed ASTs. `modelc compile BUNDLE` compiles from it without reading the code directory.',
    features: [
        str('name', 1, 'The environment\'s name, e.g. "production".'),
        str('root', 1, 'The absolute directory the environment was read from; files are placed below it again, so paths in catalogs and messages are the same as from source.'),
        { kind: 'attribute', name: 'basemodulepath', type: 'String', lower: 0, upper: -1, doc: 'The base module path the environment was read with (what `$basemodulepath` in environment.conf, or the default module path, adds).' },
        { kind: 'containment', name: 'files', type: 'SourceFile', lower: 0, upper: -1, doc: 'Every file, sorted by path.' }
    ]
};

const SOURCE_FILE: MClass = {
    kind: 'class',
    name: 'SourceFile',
    abstract: false,
    interface: false,
    superTypes: [],
    doc: 'One file of an environment bundle.',
    features: [
        str('path', 1, 'The path relative to the environment\'s root (`/`-separated).'),
        { kind: 'attribute', name: 'kind', type: 'SourceKind', lower: 1, upper: 1, doc: 'What the file is to the compile.' },
        str('text', 0, 'The content of a UTF-8 text file.'),
        str('base64', 0, 'The content of any other file, base64-encoded.'),
        { kind: 'containment', name: 'ast', type: 'Program', lower: 0, upper: 1, doc: 'A manifest\'s (or EPP template\'s) parsed AST; unset when the file does not parse (the compile reports the error when it loads the file, as from source).' }
    ]
};

const SOURCE_KIND: MEnum = {
    kind: 'enum',
    name: 'SourceKind',
    doc: 'The role of a file in an environment.',
    literals: [
        { name: 'manifest', value: 0 },
        { name: 'template', value: 1 },
        { name: 'data', value: 2 },
        { name: 'config', value: 3 },
        { name: 'metadata', value: 4 },
        { name: 'ruby', value: 5 },
        { name: 'file', value: 6 },
        { name: 'bindings', value: 7 }
    ]
};
