import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { composeBindings, createHieraLookup, createTypeSupport, type ComposeOptions, type Composition } from '../../src/bindings/index.js';
import { trustedFor } from '../../src/node/index.js';
import { isUserError } from '../../src/common/index.js';
import { createInjector, type Injector } from '../../src/injector/index.js';
import { fromRichData, type RichData } from '../../src/model/index.js';
import type { PuppetValue } from '../../src/values/index.js';
import { writeEnv } from './hiera/fixture.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'bindings', 'providers');
const ENC = `enc: [sh, ${JSON.stringify(join(FIXTURES, 'enc.sh'))}]\n`;
const EXT = `schemes:\n  ext: [python3, ${JSON.stringify(join(FIXTURES, 'external.py'))}]\n`;

const site = (...layers: string[]): string => `site {\n  bindings => [\n${layers.map(l => `    layer { ${l} },\n`).join('')}  ]\n}\n`;
const named = (name: string, body = ''): string => `bindings ${name} {\n${body}}\n`;

function compose(files: Record<string, string>, o: Partial<ComposeOptions> = {}): Composition {
    return composeBindings({ codedir: writeEnv(files), node: 'n1.example.com', facts: new Map<string, PuppetValue>([['os', 'Debian']]), ...o });
}

/** `layer: named bindings...` per layer, the shape tests compare. */
function summary(c: Composition): string[] {
    return (c.layered.layers ?? []).map(l => `${l.name}: ${(l.bindings ?? []).map(b => b.name ?? '?').join(', ')}`);
}

function failure(run: () => unknown): { codes: string[]; text: string } {
    try {
        run();
    } catch (e) {
        if (!isUserError(e)) throw e;
        return { codes: e.diagnostics.map(d => d.code), text: e.message };
    }
    throw new Error('expected a failure');
}

interface LayerCase {
    readonly files: Record<string, string>;
    readonly layers: readonly string[];
}

/** What the composer puts in each layer (ARM-8 Layering and the binder's scheme handlers). */
const LAYER_CASES: Record<string, LayerCase> = {
    'default layers: site = confdir:/default, modules = module:/*::default': {
        files: { 'bindings/default.pp': named('default'), 'modules/ntp/bindings/default.pp': named('ntp::default'), 'modules/apache/bindings/default.pp': named('apache::default') },
        layers: ['site: default', 'modules: apache::default, ntp::default']
    },
    'default site reference is optional (binder 3.5+)': {
        files: { 'modules/ntp/bindings/default.pp': named('ntp::default') },
        layers: ['site: ', 'modules: ntp::default']
    },
    '* matches one segment': {
        files: { 'bindings/site.pp': site("'s': include => 'confdir:/*'"), 'bindings/a.pp': named('a'), 'bindings/b.pp': named('b'), 'bindings/sub/c.pp': named('sub::c') },
        layers: ['s: a, b']
    },
    '** matches any number of segments': {
        files: { 'bindings/site.pp': site("'s': include => 'confdir:/**'"), 'bindings/a.pp': named('a'), 'bindings/sub/deeper/c.pp': named('sub::deeper::c') },
        layers: ['s: a, sub::deeper::c']
    },
    'a path below confdir/bindings: confdir:/windows::default': {
        files: { 'bindings/site.pp': site("'s': include => 'confdir:/windows::default'"), 'bindings/windows/default.pp': named('windows::default') },
        layers: ['s: windows::default']
    },
    '?optional: a missing file is no error': {
        files: { 'bindings/site.pp': site("'s': include => 'confdir:/nothing?optional'") },
        layers: ['s: ']
    },
    'exclude removes expanded includes; names compare case-insensitively': {
        files: {
            'bindings/site.pp': site("'m': include => ['module:/*::default', 'module:/MySpecial::load_balanced'], exclude => 'module:/myspecial::default'"),
            'modules/myspecial/bindings/default.pp': named('myspecial::default'), 'modules/myspecial/bindings/load_balanced.pp': named('myspecial::load_balanced'),
            'modules/ntp/bindings/default.pp': named('ntp::default')
        },
        layers: ['m: ntp::default, myspecial::load_balanced']
    },
    'a URI included twice is loaded once': {
        files: { 'bindings/site.pp': site("'s': include => ['confdir:/a', 'confdir:/*']"), 'bindings/a.pp': named('a') },
        layers: ['s: a']
    },
    'module wildcard in the name part: module:/ntp::*': {
        files: { 'bindings/site.pp': site("'m': include => 'module:/ntp::*'"), 'modules/ntp/bindings/default.pp': named('ntp::default'), 'modules/ntp/bindings/extra.pp': named('ntp::extra') },
        layers: ['m: ntp::default, ntp::extra']
    },
    'enc: is classes, parameters and variables': {
        files: { 'bindings/site.pp': site("'enc': include => 'enc:'"), 'bindings/providers.yaml': ENC },
        layers: ['enc: enc::classes, enc::parameters, enc::variables']
    },
    'enc:/classes only': {
        files: { 'bindings/site.pp': site("'enc': include => 'enc:/classes'"), 'bindings/providers.yaml': ENC },
        layers: ['enc: enc::classes']
    },
    'external scheme: a ContributedBindings': {
        files: { 'bindings/site.pp': site("'x': include => 'ext:/good'"), 'bindings/providers.yaml': EXT },
        layers: ['x: ext::good']
    },
    'external scheme: a bare NamedBindings': {
        files: { 'bindings/site.pp': site("'x': include => 'ext:/named'"), 'bindings/providers.yaml': EXT },
        layers: ['x: ext::named']
    },
    'external scheme printing nothing, optional': {
        files: { 'bindings/site.pp': site("'x': include => 'ext:/empty?optional'"), 'bindings/providers.yaml': EXT },
        layers: ['x: ']
    }
};

describe('composition: layers from providers', () => {
    test.each(Object.entries(LAYER_CASES))('%s', (_name, c) => {
        expect(summary(compose(c.files))).toEqual(c.layers);
    });
});

/** Composition errors: code and a fragment of the message (with its place). */
const ERROR_CASES: Record<string, [Record<string, string>, string, string]> = {
    'explicit URI with nothing behind it (binder message)': [
        { 'bindings/site.pp': site("'s': include => 'confdir:/missing'") }, 'BIND_NOT_FOUND', "Cannot load bindings 'confdir:/missing' - no bindings found."],
    'unknown scheme (binder message)': [
        { 'bindings/site.pp': site("'s': include => 'ldap:/x'") }, 'BIND_UNKNOWN_SCHEME', "bindings/site.pp:3:5: error BIND_UNKNOWN_SCHEME: Unknown bindings provider scheme: 'ldap'"],
    'a URI without a scheme': [
        { 'bindings/site.pp': site("'s': include => 'default'") }, 'BIND_BAD_URI', "'default' is not a bindings URI"],
    'module URI without a module': [
        { 'bindings/site.pp': site("'s': include => 'module:/default'") }, 'BIND_BAD_URI', 'use module:/MODULE::NAME'],
    'file name and bindings name differ': [
        { 'bindings/default.pp': named('other') }, 'BIND_WRONG_NAME', "bindings/default.pp:1:1: error BIND_WRONG_NAME: bindings 'other' in bindings/default.pp: a file found as 'default' must define 'bindings default'"],
    'a module bindings name must be qualified': [
        { 'modules/ntp/bindings/default.pp': named('default') }, 'BIND_WRONG_NAME', "must define 'bindings ntp::default'"],
    'bindings file that does not parse': [
        { 'bindings/default.pp': 'bindings default {\n  bind to\n}\n' }, 'BIND_PARSE', 'bindings/default.pp:'],
    'a transform error in a loaded file': [
        { 'bindings/default.pp': 'bindings default {\n  when node $n { }\n}\n' }, 'BIND_CATEGORY_VALUE', 'bindings/default.pp:2:13'],
    'bindings in site.pp': [
        { 'bindings/site.pp': named('other') }, 'BIND_WRONG_NAME', 'bindings/site.pp holds the site definition'],
    'enc: without a configured program': [
        { 'bindings/site.pp': site("'e': include => 'enc:'") }, 'BIND_NOT_FOUND', 'no enc program'],
    'enc: bad URI': [
        { 'bindings/site.pp': site("'e': include => 'enc:/other'"), 'bindings/providers.yaml': ENC }, 'BIND_BAD_URI', 'use enc:, enc:/classes'],
    'external program failing: its stderr': [
        { 'bindings/site.pp': site("'x': include => 'ext:/fail'"), 'bindings/providers.yaml': EXT }, 'BIND_EXTERNAL_FAILED', 'exited with status 3: inventory unreachable'],
    'external program printing nothing for an explicit URI': [
        { 'bindings/site.pp': site("'x': include => 'ext:/empty'"), 'bindings/providers.yaml': EXT }, 'BIND_NOT_FOUND', "Cannot load bindings 'ext:/empty'"],
    'providers.yaml may not take over a built-in scheme': [
        { 'bindings/providers.yaml': 'schemes:\n  module: [x]\n' }, 'BIND_PROVIDERS_CONFIG', "'module' cannot name an external scheme"],
    'providers.yaml with an unknown key': [
        { 'bindings/providers.yaml': 'encs: [x]\n' }, 'BIND_PROVIDERS_CONFIG', "unknown key 'encs'"],
    'a command that is not a string or list': [
        { 'bindings/providers.yaml': 'enc: {a: 1}\n' }, 'BIND_PROVIDERS_CONFIG', 'a command is a string or a non-empty array'],
    'errors of several URIs are reported together': [
        { 'bindings/site.pp': site("'s': include => ['confdir:/x', 'confdir:/y']") }, 'BIND_NOT_FOUND', "'confdir:/y'"]
};

describe('composition errors', () => {
    test.each(Object.entries(ERROR_CASES))('%s', (_name, [files, code, fragment]) => {
        const f = failure(() => compose(files));
        expect(f.codes[0], f.text).toBe(code);
        expect(f.text).toContain(fragment);
    });
});

function injectorOf(c: Composition, node = 'n1.example.com'): Injector {
    const injector = createInjector(c.model, { node, facts: { fqdn: node } }, { lenient: true });
    expect(injector.issues.filter(i => i.severity === 'error')).toEqual([]);
    return injector;
}

const value = (d: RichData): PuppetValue => fromRichData(d);

describe('the enc: provider', () => {
    const files = { 'bindings/site.pp': site("'enc': include => 'enc:'"), 'bindings/providers.yaml': ENC };

    test.each<[string, string, RichData]>([
        ['classes (enc:/classes → /classes)', '/classes', ['ntp', 'apache']],
        ['class parameters (enc:/parameters)', '/param/Class[ntp]/servers', ['ntp1.example.com']],
        ['top-scope parameters (enc:/variables)', '/var/dc', 'fra1'],
        ['the node is passed to the program', '/var/owner', 'n1.example.com']
    ])('%s', (_name, key, expected) => {
        expect(injectorOf(compose(files)).lookup(key)).toEqual(value(expected));
    });

    test('the ENC bindings apply to the classified node only (when node)', () => {
        const c = compose(files);
        const injector = createInjector(c.model, { node: 'other.example.com', facts: { fqdn: 'other.example.com' } }, { lenient: true });
        expect(injector.optionallyLookup('/var/dc')).toBeNull();
    });

    test.each<[string, string, string]>([
        ['output that is not a hash', 'bad.example.com', 'BIND_ENC_OUTPUT'],
        ['a failing ENC', 'fail.example.com', 'BIND_ENC_FAILED']
    ])('%s', (_name, node, code) => {
        const f = failure(() => compose(files, { node }));
        expect(f.codes).toEqual([code]);
        if (code === 'BIND_ENC_FAILED') expect(f.text).toContain('exited with status 2: no such node');
    });
});

describe('external providers (a Python program printing a Bindings model)', () => {
    const files = (uri: string): Record<string, string> => ({ 'bindings/site.pp': site(`'x': include => '${uri}'`), 'bindings/providers.yaml': EXT });

    test('its bindings are used: the request (node, facts) reaches the program', () => {
        const injector = injectorOf(compose(files('ext:/good')));
        expect(injector.lookup('ext::node')).toBe('n1.example.com');
        expect(injector.lookup('ext::os')).toBe('Debian');
        const x = injector.explain('ext::node');
        expect(x.candidates[0]).toMatchObject({ status: 'winner', layer: 'x', namedBindings: 'ext::good', location: { file: 'ext.db', line: 1 } });
    });

    test('its contribution is stamped with the scheme and URI', () => {
        const layer = compose(files('ext:/good')).layered.layers?.[0];
        expect(layer?.bindings?.[0].contributedBy).toMatchObject({ scheme: 'ext', uri: 'ext:/good', pattern: 'ext:/good' });
    });

    test('an invalid model is rejected with the JSON path of the problem', () => {
        const f = failure(() => compose(files('ext:/bad')));
        expect(f.codes).toEqual(['BIND_EXTERNAL_MODEL']);
        expect(f.text).toContain('(at /bindings/1/producer');
        expect(f.text).toContain('valu');
    });
});

describe('Hiera 5 data as one provider among the layers', () => {
    const env = {
        'hiera.yaml': 'version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n',
        'data/common.yaml': 'shared: from hiera\nonly_hiera: 1\n',
        'bindings/default.pp': named('default', "  bind 'shared' to 'from bindings'\n")
    };

    function withHiera(files: Record<string, string>): Composition {
        const codedir = writeEnv(files);
        const hiera = createHieraLookup({ environment: codedir, context: { environment: 'production', facts: new Map(), trusted: trustedFor('n1.example.com') }, types: createTypeSupport() });
        return composeBindings({ codedir, node: 'n1.example.com', hiera });
    }

    test('without a site, Hiera is the lowest layer', () => {
        const c = withHiera(env);
        expect(summary(c)).toEqual(['site: default', 'modules: ', 'hiera: environment::common']);
        expect(c.hieraLayer).toBe('hiera');
    });

    test('a binding shadows the Hiera value; Hiera answers what nothing else binds', () => {
        const injector = injectorOf(withHiera(env));
        expect(injector.lookup('shared')).toBe('from bindings');
        expect(injector.lookup('only_hiera')).toEqual(value(1));
        const x = injector.explain('shared');
        expect(x.candidates.map(c => [c.status, c.layer, c.reason ?? ''])).toEqual([['winner', 'site', ''], ['shadowed', 'hiera', 'lowerLayer']]);
        expect(x.candidates[1].location).toMatchObject({ file: 'data/common.yaml', line: 1 });
    });

    test('a site that places hiera: decides its layer', () => {
        const c = withHiera({ ...env, 'bindings/site.pp': site("'data': include => 'hiera:/'", "'site': include => 'confdir:/default'") });
        expect(summary(c)).toEqual(['data: environment::common', 'site: default']);
        expect(injectorOf(c).lookup('shared')).toBe('from hiera');
    });
});
