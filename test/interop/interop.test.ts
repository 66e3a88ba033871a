/**
 * Interop with the foreign tools our models are meant for: stock Java EMF (Debian
 * libeclipse-emf-ecore-java + libeclipse-emf-ecore-xmi-java) and Ruby RGen (Debian ruby-rgen).
 *
 * - every EMF-profile `generated/ecore/*.ecore` loads in EMF and its Diagnostician says OK;
 * - every RGen-profile `generated/ecore/*.rgen.ecore` loads with ECoreXMLInstantiator and
 *   ECoreToRuby builds its module (no eType silently nil, no lost supertype or opposite);
 * - each Bindings instance fixture (EMF-JSON v2) converted with `toXmi` loads in EMF, and with
 *   `toRgenJson` loads with RGen's JsonInstantiator; what each tool read back is printed and
 *   compared with the source: same classes, attribute values, containment, reference targets.
 * - the same on the hand-checked baseline in ../shared/research/interchange-examples/.
 *
 * The Debian packages are installed when missing (root + apt-get, as on every project machine and
 * CI); the suite is skipped, with a message, only when apt-get does not exist.
 *
 * Both foreign programs (java/EmfCheck.java, ruby/rgen_check.rb) print a dump of the same shape:
 * a JSON array of roots, each object `{class, attributes, defaults?, references, contents}`, with
 * references written as the target's EMF path fragment (`/`, `//@layers.0/@bindings.1`).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJson, toRgenJson, toXmi } from '../../src/model/index.js';
import { emfJars, ensurePackages, run, SKIP } from './debian-tools.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '../..');
const ECORE_DIR = join(ROOT, 'generated/ecore');
/** More Bindings instances can be checked with MODELC_INTEROP_BINDINGS=/some/dir (EMF-JSON v2 *.json). */
const BINDINGS_FIXTURES = process.env.MODELC_INTEROP_BINDINGS ?? join(ROOT, 'test/fixtures/model/valid/bindings');
const EXAMPLES = resolve(ROOT, '../shared/research/interchange-examples');
const JAVA_SOURCE = join(HERE, 'java/EmfCheck.java');
const RUBY_CHECK = join(HERE, 'ruby/rgen_check.rb');


interface ToolRun {
    readonly status: number | null;
    readonly stdout: string;
    readonly stderr: string;
}

let javaClasspath = '';
let workDir = '';

function runJava(args: readonly string[]): ToolRun {
    const r = run('java', ['-cp', javaClasspath, 'EmfCheck', ...args]);
    if (r.error) throw r.error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function runRuby(args: readonly string[]): ToolRun {
    const r = run('ruby', [RUBY_CHECK, ...args]);
    if (r.error) throw r.error;
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function show(tool: string, what: string, r: ToolRun): void {
    const parts = [`[interop] ${tool} ${what} -> exit ${r.status}`];
    if (r.stdout.trim()) parts.push(r.stdout.trimEnd());
    if (r.stderr.trim()) parts.push(`(stderr)\n${r.stderr.trimEnd()}`);
    console.log(parts.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// The canonical dump, from the source side, and the comparison

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface DumpObject {
    readonly class: string;
    readonly attributes: Record<string, Json>;
    readonly defaults?: Record<string, Json>;
    readonly references: Record<string, string | string[]>;
    readonly contents: Record<string, DumpObject | DumpObject[]>;
}

type Obj = { readonly [key: string]: unknown };

function isObj(v: unknown): v is Obj {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isWireObject(v: unknown): v is Obj & { $type: string } {
    return isObj(v) && typeof v.$type === 'string' && typeof v.$ref !== 'string';
}

function isWireRef(v: unknown): v is Obj & { $ref: string } {
    return isObj(v) && typeof v.$ref === 'string';
}

function shortType(t: string): string {
    const i = t.indexOf('#//');
    return i >= 0 ? t.slice(i + 3) : t;
}

/**
 * The canonical dump of an EMF-JSON v2 document, made from the wire JSON alone (no project code):
 * objects with `$type` are containment, `{ $ref }` are cross references (resolved by EMF path or
 * by `$id`), everything else is an attribute value.
 */
function dumpWire(root: Obj, dataFeatures: ReadonlySet<string> = new Set()): DumpObject[] {
    const byPath = new Map<string, Obj>();
    const byId = new Map<string, Obj>();
    const pathOf = new Map<Obj, string>();
    const index = (o: Obj, path: string): void => {
        byPath.set(path, o);
        pathOf.set(o, path);
        if (typeof o.$id === 'string') byId.set(o.$id, o);
        const base = path === '/' ? '//' : `${path}/`;
        for (const [k, v] of Object.entries(o)) {
            if (Array.isArray(v) && v.length > 0 && v.every(isWireObject)) {
                v.forEach((c, i) => index(c, `${base}@${k}.${i}`));
            } else if (isWireObject(v)) {
                index(v, `${base}@${k}`);
            }
        }
    };
    index(root, '/');
    const target = (ref: string): string => {
        const t = ref.startsWith('/') ? byPath.get(ref) : byId.get(ref);
        return t ? pathOf.get(t) ?? 'UNRESOLVED' : `UNRESOLVED ${ref}`;
    };
    const dump = (o: Obj & { $type: string }): DumpObject => {
        const attributes: Record<string, Json> = {};
        const references: Record<string, string | string[]> = {};
        const contents: Record<string, DumpObject | DumpObject[]> = {};
        const className = shortType(o.$type);
        for (const k of Object.keys(o).sort()) {
            const v = o[k];
            if (k.startsWith('$') || v === undefined) continue;
            // A rich-data value (Puppet Data) is kept whatever it is: null (undef), [] and {} are values.
            if (dataFeatures.has(`${className}.${k}`)) attributes[k] = v as Json;
            else if (v === null || (Array.isArray(v) && v.length === 0)) continue;
            else if (Array.isArray(v) && v.every(isWireObject)) contents[k] = v.map(dump);
            else if (isWireObject(v)) contents[k] = dump(v);
            else if (Array.isArray(v) && v.every(isWireRef)) references[k] = v.map(r => target(r.$ref));
            else if (isWireRef(v)) references[k] = target(v.$ref);
            else attributes[k] = v as Json;
        }
        return { class: className, attributes, references, contents };
    };
    if (!isWireObject(root)) throw new Error('not an EMF-JSON v2 document (no $type on the root)');
    return [dump(root)];
}

/**
 * Rich data as a writer may have to spell it for a foreign parser that has no `null` and no empty
 * object (RGen's JSON lexer): `{"__ptype":"Undef"}` is undef (null), and a `Hash` whose
 * `__pvalue` is an empty key/value list is `{}`. Both are turned back into plain JSON.
 */
function canonicalRichData(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(canonicalRichData);
    if (!isObj(v)) return v;
    const keys = Object.keys(v);
    if (keys.length === 1 && v.__ptype === 'Undef') return null;
    if (keys.length === 2 && v.__ptype === 'Hash' && Array.isArray(v.__pvalue) && v.__pvalue.length === 0) return {};
    if (keys.length === 2 && v.__ptype === 'Array' && Array.isArray(v.__pvalue) && v.__pvalue.length === 0) return [];
    return Object.fromEntries(keys.map(k => [k, canonicalRichData(v[k])]));
}

function sameJson(a: unknown, b: unknown): boolean {
    if (Array.isArray(a) || Array.isArray(b)) {
        return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
    }
    if (isObj(a) || isObj(b)) {
        if (!isObj(a) || !isObj(b)) return false;
        const ka = Object.keys(a).sort();
        const kb = Object.keys(b).sort();
        return sameJson(ka, kb) && ka.every(k => sameJson(a[k], b[k]));
    }
    return a === b;
}

interface CompareOptions {
    /** Attributes whose values are Puppet rich data (EDataType `Data`): "Class.feature". */
    readonly dataFeatures?: ReadonlySet<string>;
    /** The tool holds every `Data` value as JSON text (EMF and RGen), also inside many-valued features. */
    readonly dataAsJsonText?: boolean;
}

function parseJsonText(v: unknown): unknown {
    if (typeof v !== 'string') return v;
    try {
        return JSON.parse(v) as unknown;
    } catch {
        return v;
    }
}

/**
 * Differences between the source dump and what a foreign tool read back, one line each.
 * An attribute missing from the tool's dump is fine when the tool reports the same value as the
 * feature's default (EMF and RGen keep an explicitly written default as "unset").
 * A `Data` value that the tool holds as a string (XMI carries rich data as JSON text) is parsed.
 */
function compareDumps(source: DumpObject[], read: DumpObject[], options: CompareOptions = {}): string[] {
    const diffs: string[] = [];
    const cmpObject = (s: DumpObject, r: DumpObject, at: string): void => {
        if (s.class !== r.class) {
            diffs.push(`${at}: class ${s.class} was read as ${r.class}`);
            return;
        }
        for (const k of new Set([...Object.keys(s.attributes), ...Object.keys(r.attributes)])) {
            const sv = s.attributes[k];
            let rv: unknown = r.attributes[k];
            if (sv === undefined) {
                diffs.push(`${at}: ${s.class}.${k} is not in the source but was read as ${JSON.stringify(rv)}`);
                continue;
            }
            if (rv === undefined) {
                const d = r.defaults?.[k];
                if (d === undefined || !sameJson(sv, d)) {
                    diffs.push(`${at}: ${s.class}.${k} = ${JSON.stringify(sv)} was lost (read back: unset`
                        + `${d === undefined ? '' : `, default ${JSON.stringify(d)}`})`);
                }
                continue;
            }
            if (options.dataFeatures?.has(`${s.class}.${k}`) && typeof rv === 'string') {
                rv = parseJsonText(rv);
            } else if (options.dataAsJsonText && options.dataFeatures?.has(`${s.class}.${k}`) && Array.isArray(rv)) {
                rv = rv.map(parseJsonText);
            }
            if (options.dataFeatures?.has(`${s.class}.${k}`)) rv = canonicalRichData(rv);
            if (!sameJson(sv, rv)) diffs.push(`${at}: ${s.class}.${k} = ${JSON.stringify(sv)} was read as ${JSON.stringify(rv)}`);
        }
        for (const k of new Set([...Object.keys(s.references), ...Object.keys(r.references)])) {
            if (!sameJson(s.references[k], r.references[k])) {
                diffs.push(`${at}: reference ${s.class}.${k} -> ${JSON.stringify(s.references[k])} was read as ${JSON.stringify(r.references[k])}`);
            }
        }
        for (const k of new Set([...Object.keys(s.contents), ...Object.keys(r.contents)])) {
            const sc = s.contents[k];
            const rc = r.contents[k];
            const base = at === '/' ? '//' : `${at}/`;
            if (sc === undefined || rc === undefined) {
                diffs.push(`${at}: containment ${s.class}.${k} is ${sc === undefined ? 'not in the source' : 'missing'} in what was read`);
            } else if (Array.isArray(sc) && Array.isArray(rc)) {
                if (sc.length !== rc.length) diffs.push(`${at}: containment ${s.class}.${k} has ${sc.length} objects, ${rc.length} were read`);
                sc.slice(0, rc.length).forEach((c, i) => cmpObject(c, rc[i], `${base}@${k}.${i}`));
            } else if (!Array.isArray(sc) && !Array.isArray(rc)) {
                cmpObject(sc, rc, `${base}@${k}`);
            } else {
                diffs.push(`${at}: containment ${s.class}.${k} multiplicity differs`);
            }
        }
    };
    if (source.length !== read.length) diffs.push(`${source.length} root(s) in the source, ${read.length} read`);
    source.slice(0, read.length).forEach((s, i) => cmpObject(s, read[i], i === 0 ? '/' : `/${i}`));
    return diffs;
}

function parseDump(tool: string, r: ToolRun): DumpObject[] {
    try {
        return JSON.parse(r.stdout) as DumpObject[];
    } catch {
        throw new Error(`${tool} printed no dump (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    }
}

function countObjects(d: DumpObject[]): number {
    return d.reduce((n, o) => n + 1 + Object.values(o.contents).reduce<number>(
        (m, c) => m + countObjects(Array.isArray(c) ? c : [c]), 0), 0);
}

// ---------------------------------------------------------------------------------------------
// Files under test

function listFiles(dir: string, keep: (name: string) => boolean): string[] {
    return existsSync(dir) ? readdirSync(dir).filter(keep).sort().map(n => join(dir, n)) : [];
}

const EMF_ECORES = listFiles(ECORE_DIR, n => n.endsWith('.ecore') && !n.endsWith('.rgen.ecore'));
const RGEN_ECORES = listFiles(ECORE_DIR, n => n.endsWith('.rgen.ecore'));
const BINDINGS_INSTANCES = listFiles(BINDINGS_FIXTURES, n => n.endsWith('.json'));
const HAVE_EXAMPLES = existsSync(join(EXAMPLES, 'Bindings.emf-profile.ecore'));

function nsUriOf(ecoreFile: string): string | undefined {
    return /<ecore:EPackage\b[^>]*\bnsURI="([^"]+)"/.exec(readFileSync(ecoreFile, 'utf8'))?.[1];
}

const BINDINGS_NS = EMF_ECORES.map(f => readFileSync(f, 'utf8'))
    .map(x => /<ecore:EPackage\b[^>]*\bname="Bindings"[^>]*\bnsURI="([^"]+)"/.exec(x)?.[1])
    .find(ns => ns !== undefined);

/**
 * A Bindings instance with the values that trip the foreign readers; every one of them has a
 * faithful spelling in XMI and in RGen JSON, so a correct writer gets it through:
 * - rich data `null`, `[]`, `{}` (at the top and nested), floats, a 2^40 integer, non-ASCII text;
 *   (EMF: a `Data` EDataType whose instanceClassName is not on the classpath, e.g. Jackson's
 *   JsonNode, makes XMI loading drop every value silently; `java.lang.String` keeps the JSON text.
 *   RGen's JSON lexer turns `{}` into nil and has no null, so the RGen profile's `Data` is an
 *   EString holding the JSON text, as in XMI.)
 * - control characters (ESC, BEL): XML 1.0 cannot hold them at all, not even as `&#x1B;`; XML 1.1
 *   (`<?xml version="1.1"?>`) can, as character references. RGen's lexer does not decode `\u001b`
 *   but accepts the raw character inside a string.
 * - quotes, `<&>`, newline, tab and a backslash not followed by n/r/t/f/b.
 *   (Not included: a backslash followed by n, r, t, f or b, e.g. `C:\new` or the regex `\t`,
 *   has no spelling RGen 0.9's lexer reads back: it un-escapes `\\` first and `\n` after, so
 *   `"C:\\new"` reads as "C:" + newline + "ew". An RGen writer can only refuse such strings.)
 */
function edgeCaseBindings(ns: string): string {
    const t = (c: string): string => `${ns}#//${c}`;
    const arg = (name: string, value: unknown): Record<string, unknown> => ({ $type: t('NamedArgument'), name, value });
    return JSON.stringify({
        $type: t('LayeredBindings'),
        environment: 'tab\there "quoted" <&> back\\slash\nnew line é ✓ 😀 esc\u001b[0m bell\u0007',
        layers: [{
            $type: t('NamedLayer'),
            $id: 'site',
            name: 'site',
            include: ['hiera:/*'],
            bindings: [{
                $type: t('NamedBindings'),
                name: 'common.yaml',
                location: { $type: t('SourceLocation'), file: 'data/common.yaml', line: 3, column: 1 },
                bindings: [
                    {
                        $type: t('Multibinding'), name: 'ntp::servers', id: 'mb-ntp', type: 'Array[String]',
                        producer: { $type: t('HashMultibindProducerDescriptor'), conflictResolution: 'merge', uniq: true, flatten: 2 }
                    },
                    {
                        $type: t('Binding'), name: 'ntp::servers', multibindId: 'mb-ntp', override: true, final: false,
                        producer: {
                            $type: t('ConstantProducerDescriptor'),
                            value: { servers: ['0.pool.ntp.org', { __ptype: 'Sensitive', __pvalue: 'x' }], n: 42, f: 0.5, 'café': 'naïve' }
                        },
                        producerArgs: [
                            arg('emptyArray', []),
                            arg('emptyHash', {}),
                            arg('nested', { a: {}, b: [], c: null, d: [1, 2.5, -0.5, 1e-7, 1099511627776, true, false] }),
                            arg('undef', null),
                            arg('string', 'a"b\\c\nd é'),
                            arg('control', 'esc\u001b[0m bell\u0007')
                        ]
                    },
                    { $type: t('DependencyBinding'), sources: ['Package[ntp]'], targets: ['Service[ntp]', 'File[/etc/ntp.conf]'], arrow: 'notify' }
                ]
            }]
        }]
    }, null, 2);
}

interface Instance {
    readonly name: string;
    readonly text: () => string;
}

const INSTANCES: Instance[] = [
    ...BINDINGS_INSTANCES.map(f => ({ name: basename(f), text: () => readFileSync(f, 'utf8') })),
    ...(BINDINGS_NS ? [{ name: 'edge-cases.json (inline)', text: () => edgeCaseBindings(BINDINGS_NS) }] : [])
];

// ---------------------------------------------------------------------------------------------

describe.skipIf(SKIP)('interop with Java EMF and Ruby RGen (Debian packages)', () => {
    beforeAll(() => {
        ensurePackages();
        workDir = mkdtempSync(join(tmpdir(), 'modelc-interop-'));
        const classes = join(workDir, 'classes');
        const jars = emfJars();
        const javac = run('javac', ['-nowarn', '-encoding', 'UTF-8', '-d', classes, '-cp', jars.join(':'), JAVA_SOURCE]);
        if (javac.status !== 0) throw new Error(`javac EmfCheck.java failed:\n${javac.stdout}${javac.stderr}`);
        javaClasspath = [classes, ...jars].join(':');
        console.log(`[interop] compiled EmfCheck.java against ${jars.map(j => basename(j)).join(', ')}`);
    });

    afterAll(() => {
        if (!workDir) return;
        if (process.env.MODELC_INTEROP_KEEP) console.log(`[interop] kept the converted files in ${workDir}`);
        else rmSync(workDir, { recursive: true, force: true });
    });

    describe.skipIf(!HAVE_EXAMPLES)('baseline: the hand-checked fixtures in shared/research/interchange-examples', () => {
        const source = (): DumpObject[] => dumpWire(JSON.parse(readFileSync(join(EXAMPLES, 'bindings.instance.emf-v2.json'), 'utf8')) as Obj);

        it('EMF loads Bindings.emf-profile.ecore and bindings.instance.xmi', () => {
            const ecore = join(EXAMPLES, 'Bindings.emf-profile.ecore');
            const check = runJava(['ecore', ecore]);
            show('EMF', 'ecore Bindings.emf-profile.ecore', check);
            expect(check.status, check.stderr).toBe(0);
            const load = runJava(['xmi', ecore, join(EXAMPLES, 'bindings.instance.xmi')]);
            show('EMF', 'xmi bindings.instance.xmi', load);
            expect(load.status, load.stderr).toBe(0);
            expect(compareDumps(source(), parseDump('EMF', load))).toEqual([]);
        });

        it('RGen loads Bindings.rgen-profile.ecore and bindings.instance.rgen.json', () => {
            const ecore = join(EXAMPLES, 'Bindings.rgen-profile.ecore');
            const check = runRuby(['ecore', ecore]);
            show('RGen', 'ecore Bindings.rgen-profile.ecore', check);
            expect(check.status, check.stderr).toBe(0);
            const load = runRuby(['json', ecore, join(EXAMPLES, 'bindings.instance.rgen.json')]);
            show('RGen', 'json bindings.instance.rgen.json', load);
            expect(load.status, load.stderr).toBe(0);
            // The RGen fixture names the multibinding "ntpmb": RGen references are name paths,
            // and "ntp::servers" is also the name of its sibling contribution.
            const expected = source();
            const ntp = expected[0].contents.layers as DumpObject[];
            const mb = ((ntp[0].contents.bindings as DumpObject[])[0].contents.bindings as DumpObject[])[0];
            mb.attributes.name = 'ntpmb';
            expect(compareDumps(expected, parseDump('RGen', load))).toEqual([]);
        });

        it('the foreign tools reject what they must (the checks are not vacuous)', () => {
            const rgenEcore = readFileSync(join(EXAMPLES, 'Bindings.rgen-profile.ecore'), 'utf8');
            const edouble = join(workDir, 'Edouble.rgen.ecore');
            writeFileSync(edouble, rgenEcore.replace('#//EInt"', '#//EDouble"'));
            const r1 = runRuby(['ecore', edouble]);
            show('RGen', 'ecore (EDouble instead of EInt)', r1);
            expect(r1.status).toBe(1);
            expect(r1.stderr).toMatch(/eType nil/);

            const lower = join(workDir, 'lower.rgen.ecore');
            writeFileSync(lower, rgenEcore.replace('name="Bindings"', 'name="bindings"'));
            const r2 = runRuby(['ecore', lower]);
            show('RGen', 'ecore (lower-case package name)', r2);
            expect(r2.status).toBe(1);

            const xmi = join(workDir, 'dangling.xmi');
            writeFileSync(xmi, readFileSync(join(EXAMPLES, 'bindings.instance.xmi'), 'utf8').replace('contributesTo="mb-ntp"', 'contributesTo="nope"'));
            const r3 = runJava(['xmi', join(EXAMPLES, 'Bindings.emf-profile.ecore'), xmi]);
            show('EMF', 'xmi (dangling reference)', r3);
            expect(r3.status).toBe(1);
            expect(r3.stderr).toMatch(/Unresolved reference 'nope'/);

            const json = join(workDir, 'dangling.rgen.json');
            writeFileSync(json, readFileSync(join(EXAMPLES, 'bindings.instance.rgen.json'), 'utf8').replace('/site/common.yaml/ntpmb', '/site/nope'));
            const r4 = runRuby(['json', join(EXAMPLES, 'Bindings.rgen-profile.ecore'), json]);
            show('RGen', 'json (dangling reference)', r4);
            expect(r4.status).toBe(1);
            expect(r4.stderr).toMatch(/unresolved reference Binding.contributesTo/);
        });
    });

    it('EMF loads every EMF-profile generated/ecore/*.ecore and its Diagnostician says OK', () => {
        expect(EMF_ECORES.length, `no EMF-profile .ecore in ${ECORE_DIR}: run \`node bin/modelc.js generate\``).toBeGreaterThan(0);
        // One ResourceSet for all, so that references between packages resolve.
        const r = runJava(['ecore', ...EMF_ECORES]);
        show('EMF', `ecore ${EMF_ECORES.map(f => basename(f)).join(' ')}`, r);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        expect(r.stdout.split('\n').filter(l => l.startsWith('OK ')).length).toBe(EMF_ECORES.length);
    });

    it('RGen loads every RGen-profile generated/ecore/*.rgen.ecore and builds its Ruby module', () => {
        expect(RGEN_ECORES.length, `no .rgen.ecore in ${ECORE_DIR}: run \`node bin/modelc.js generate\``).toBeGreaterThan(0);
        const r = runRuby(['ecore', ...RGEN_ECORES]);
        show('RGen', `ecore ${RGEN_ECORES.map(f => basename(f)).join(' ')}`, r);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        expect(r.stdout.split('\n').filter(l => l.startsWith('OK ')).length).toBe(RGEN_ECORES.length);
    });

    describe('Bindings instance fixtures converted by modelc', () => {
        it('there is at least one Bindings instance fixture', () => {
            expect(BINDINGS_INSTANCES.length, `no *.json in ${BINDINGS_FIXTURES}`).toBeGreaterThan(0);
        });

        for (const instance of INSTANCES) {
            const name = instance.name;
            const stem = name.replace(/\.json.*$/, '');
            const load = (): { source: DumpObject[]; dataFeatures: Set<string>; nsURI: string; xmi: string; rgen: string } => {
                const text = instance.text();
                const model = decodeJson(text, name);
                const dataFeatures = new Set<string>();
                for (const c of model.index.classes) {
                    for (const f of model.index.allFeatures(c.name)) {
                        if (f.kind === 'attribute' && model.index.primitiveOf(f.type) === 'Data') dataFeatures.add(`${c.name}.${f.name}`);
                    }
                }
                return {
                    source: dumpWire(JSON.parse(text) as Obj, dataFeatures),
                    dataFeatures,
                    nsURI: model.index.pkg.nsURI,
                    xmi: toXmi(model),
                    rgen: toRgenJson(model)
                };
            };

            it(`EMF reads toXmi(${name}) back as the source`, () => {
                const { source, dataFeatures, nsURI, xmi } = load();
                const xmiFile = join(workDir, `${stem}.xmi`);
                writeFileSync(xmiFile, xmi);
                expect(EMF_ECORES.some(f => nsUriOf(f) === nsURI), `no EMF-profile .ecore with nsURI ${nsURI}`).toBe(true);
                const r = runJava(['xmi', ...EMF_ECORES, xmiFile]);
                show('EMF', `xmi ${basename(xmiFile)}`, r);
                expect(r.status, r.stderr).toBe(0);
                const read = parseDump('EMF', r);
                const diffs = compareDumps(source, read, { dataFeatures, dataAsJsonText: true });
                console.log(`[interop] EMF read ${countObjects(read)} objects of ${countObjects(source)}; `
                    + `${diffs.length === 0 ? 'same as the source' : `differences:\n  ${diffs.join('\n  ')}`}`);
                expect(diffs).toEqual([]);
            });

            it(`RGen reads toRgenJson(${name}) back as the source`, () => {
                const { source, dataFeatures, nsURI, rgen } = load();
                const jsonFile = join(workDir, `${stem}.rgen.json`);
                writeFileSync(jsonFile, rgen);
                const ecore = RGEN_ECORES.find(f => nsUriOf(f) === nsURI);
                expect(ecore, `no .rgen.ecore with nsURI ${nsURI}`).toBeDefined();
                const r = runRuby(['json', ecore ?? '', jsonFile]);
                show('RGen', `json ${basename(jsonFile)}`, r);
                expect(r.status, r.stderr).toBe(0);
                const read = parseDump('RGen', r);
                // The RGen profile's Data is EString: RGen holds every Data value as its JSON text.
                const diffs = compareDumps(source, read, { dataFeatures, dataAsJsonText: true });
                console.log(`[interop] RGen read ${countObjects(read)} objects of ${countObjects(source)}; `
                    + `${diffs.length === 0 ? 'same as the source' : `differences:\n  ${diffs.join('\n  ')}`}`);
                expect(diffs).toEqual([]);
            });
        }
    });
});
