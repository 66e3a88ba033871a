/**
 * A seeded Puppet program: a few scenes drawn by weight (declaring scenes first, then those
 * that refer to what was declared: overrides, relationships), sometimes one error, spread over
 * the top scope, holder classes and define instances and the node definition.
 */
import { Rng } from '../hiera-fuzz/rng.ts';
import { Program } from './program.ts';
import * as cat from './scenes-catalog.ts';
import { errors } from './scenes-errors.ts';
import * as ex from './scenes-expr.ts';
import * as more from './scenes-more.ts';
import * as lang from './scenes-lang.ts';
import * as wide from './scenes-wide.ts';

type Scene = (p: Program) => unknown;

const PRODUCERS: ReadonlyArray<[Scene, number]> = [
    [cat.classParams, 3], [cat.inherits, 2], [cat.defines, 3], [cat.defaults, 2], [cat.virtuals, 2], [cat.stagesAndContainment, 2], [cat.tags, 1.5],
    [cat.moduleLayout, 1], [cat.resourceForms, 2], [ex.conditionals, 2], [ex.iteration, 2], [ex.heredocs, 1], [ex.interpolation, 2], [ex.types, 3],
    [ex.numbers, 2], [ex.sensitive, 1], [ex.undefs, 1.5], [ex.scopes, 1], [ex.collections, 1.5], [ex.functions, 1], [ex.valueDump, 1],
    [more.destructure, 1], [more.slices, 1], [more.syntaxHeredoc, 0.7], [more.defaultsTwice, 0.5],
    [wide.storedRefs, 1.5], [wide.typeAccess, 1.5], [wide.collectorOverrides, 1.5], [wide.containment, 1.5], [wide.formats, 2], [wide.iteratedTitles, 1.5],
    [wide.definedKinds, 1], [wide.regexScopes, 1]
];
/** Seeds from 40 on also draw these (seeds below keep the programs recorded before they existed). */
const LANG: ReadonlyArray<[Scene, number]> = [
    [lang.moduleFunctions, 3], [lang.lambdaFlow, 3], [lang.typeCases, 3], [lang.collectionOps, 4], [lang.heredocsNested, 2], [lang.unlessElsif, 2], [lang.multiRefs, 3],
    [lang.assertTypes, 2], [lang.newForms, 5]
];
const CONSUMERS: ReadonlyArray<[Scene, number]> = [[cat.overrides, 1], [cat.relationships, 1.5]];

export interface Generated {
    readonly id: string;
    readonly files: Map<string, string>;
    readonly features: string[];
    readonly settings: string[];
    readonly node: string;
}

/** Each program has its own seed, so one can be regenerated alone (`--only`). */
export function programSeed(seed: number, index: number): number {
    return (Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
}

function pick(r: Rng, list: ReadonlyArray<[Scene, number]>): Scene {
    const total = list.reduce((a, [, w]) => a + w, 0);
    let x = r.next() * total;
    for (const [s, w] of list) if ((x -= w) < 0) return s;
    return list[list.length - 1][0];
}

export function generate(seed: number, index: number, errorRate = 0.25): Generated {
    const r = new Rng(programSeed(seed, index));
    const p = new Program(r);
    const n = r.int(1, 4);
    const producers = seed >= 40 ? [...PRODUCERS, ...LANG] : PRODUCERS;
    for (let i = 0; i < n; i++) pick(r, producers)(p);
    const c = r.int(0, 2);
    for (let i = 0; i < c; i++) pick(r, CONSUMERS)(p);
    if (r.chance(errorRate)) errors(p);
    const files = p.assemble();
    const site = files.get('manifests/site.pp') ?? '';
    if ([...files.values()].some(t => /(?<!::)\bPort\b/.test(t))) files.set('manifests/site.pp', `type Port = Integer[1, 65535]\n${site}`);
    return { id: `s${seed}-${index}`, files, features: [...p.features].sort(), settings: [...new Set(p.settings)], node: p.node };
}
