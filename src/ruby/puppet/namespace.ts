import { resolve } from 'node:path';
import { describeMismatch, formatMismatches, inferSetType, inferType, isInstance, PAnyType, PClassType, PResourceType } from '../../types/index.js';
import { capitalizeTypeName, versioncmp, type PuppetValue } from '../../values/index.js';
import { classOf, Exceptions, ObjectClass, RClass, REnumerator, RObject, RProc, RRange, RSymbol, rubyError, sym, type Method, type RValue } from '../objects.js';
import { resourceRefs, to3x, toPuppet } from './convert.js';
import { digestConstants } from './digest.js';
import { jsonModules, yamlModules } from '../methods/serialize.js';
import { hoconModules } from '../methods/hocon.js';
import { MersenneTwister } from '../methods/random.js';
import { rangeItems } from '../methods/support.js';
import { isCatching, ThrowSignal } from '../methods/kernel.js';

const UNDEFINED_VARIABLE = RSymbol.of('undefined_variable');
import { defineResourceApi, type ResourceApiClasses } from './resource-api.js';

const toInt = (v: RValue): bigint => (typeof v === 'bigint' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? BigInt(v) : 0n);
import type { PuppetBlock, ScopeHost } from './host.js';
import type { PluginRuntime } from './runtime.js';

/** The `Puppet::...` constants one runtime gives its plugin code, and the scope objects it hands out. */
export interface PuppetNamespace {
    readonly constants: Map<string, RValue>;
    /** `File` class methods for this runtime: reads inside the environment only, writes refused. */
    readonly fileStatics: Readonly<Record<string, Method>>;
    readonly classes: Readonly<Record<'Puppet' | 'Type' | 'Parameter' | 'Property' | 'Function' | 'Scope', RClass>>;
    dynamic(obj: RObject, name: string, args: RValue[]): RValue | undefined;
    scopeObject(scope: ScopeHost): RObject;
    /** `Puppet::ResourceApi`'s base classes (SimpleProvider, Transport::Wrapper) and the device shims made. */
    readonly resourceApi: ResourceApiClasses;
    /** A catalog resource (or a reference) as a Puppet::Resource. */
    resourceObject(info: { type: string; title: string; params: ReadonlyMap<string, PuppetValue> }): RObject;
    /** Puppet's own file `feature` (`puppet/type/file`, `puppet/parameter/boolean`) is now loaded: what it defines appears. */
    puppetFileLoaded(feature: string): void;
    /** A class of Puppet's that exists only once a file of Puppet's defines it, and none has yet. */
    notYetLoaded(path: string): boolean;
}

/**
 * Puppet::Parameter::Boolean exists once `puppet/parameter/boolean` is required: by the core types
 * file, package, user, group, tidy and resources when they load, or by plugin code itself. A
 * module type naming it before any of that fails as in Puppet (corosync's cs_shadow).
 */
const DEFINES_BOOLEAN = /^puppet\/(parameter\/boolean|type\/(file|package|user|tidy|group|resources)(\/.*)?)$/;

const nameOf = (v: RValue): string => (v instanceof RSymbol ? v.name : typeof v === 'string' ? v : String(v));

/** Puppet's exception classes, shared (they hold no state): Puppet::Error and its family. */
export const PuppetErrors = (() => {
    const error = new RClass('Puppet::Error', Exceptions.RuntimeError);
    Exceptions.ParseError.superclass = error;
    return {
        Error: error,
        ParseError: Exceptions.ParseError,
        DevError: new RClass('Puppet::DevError', error),
        ResourceError: new RClass('Puppet::ResourceError', error),
        ExecutionFailure: new RClass('Puppet::ExecutionFailure', error),
        ParseErrorWithIssue: new RClass('Puppet::ParseErrorWithIssue', Exceptions.ParseError),
        LookupError: new RClass('Puppet::DataBinding::LookupError', error)
    };
})();

export function puppetNamespace(rt: PluginRuntime): PuppetNamespace {
    const constants = new Map<string, RValue>();
    const mod = (path: string, isModule = true, superclass: RClass | null = null): RClass => {
        const existing = constants.get(path);
        if (existing instanceof RClass) return existing;
        const c = new RClass(path, isModule ? null : superclass ?? ObjectClass, [], isModule);
        place(path, c);
        return c;
    };
    const place = (path: string, v: RValue): void => {
        constants.set(path, v);
        const i = path.lastIndexOf('::');
        if (i >= 0) {
            const parent = mod(path.slice(0, i));
            parent.constants.set(path.slice(i + 2), v);
        }
    };
    const statics = (c: RClass, table: Record<string, Method>): void => { for (const [n, m] of Object.entries(table)) c.defineStatic(n, m); };
    const host = rt.host;
    const log = (level: 'debug' | 'info' | 'notice' | 'warning' | 'err'): Method => (_s, args) => { host.log(level, rt.interp.toS(args[0] ?? null)); return null; };

    // Settings plugin code reads: what the compilation was given, else Puppet's default (symbols for the enumerated ones).
    const settingDefaults: Record<string, RValue> = { strict: RSymbol.of('warning'), strict_variables: false, disable_warnings: [], trace: false };
    const setting = (name: RValue): RValue => {
        const n = nameOf(name);
        const v = host.setting(n);
        if (v === undefined) return settingDefaults[n] ?? null;
        if (n === 'strict' && typeof v === 'string') return RSymbol.of(v);
        if (typeof v === 'string' && typeof settingDefaults[n] === 'boolean') return v === 'true';
        return v;
    };
    const settings = new RObject(ObjectClass, 'Puppet.settings');
    for (const [path, v] of digestConstants()) constants.set(path, v);
    const json = jsonModules();
    place('JSON', json.json);
    place('JSON::ParserError', json.parserError);
    place('Puppet::Util::Json', json.puppetJson);
    place('Puppet::Util::Json::ParseError', json.parseError);
    const yaml = yamlModules(json.json);
    place('YAML', yaml.yaml);
    place('Psych', yaml.yaml);
    place('Psych::SyntaxError', yaml.syntaxError);
    place('PSON', yaml.pson);
    // ruby-hocon opens a file() include against the working directory: for plugin code, the environment's.
    const hoconFiles = { cwd: rt.envDir, read: (path: string): string | undefined => rt.fileExists(path) || !rt.isInside(path) ? rt.readFile(path) : undefined };
    for (const [path, cls] of hoconModules(hoconFiles)) place(path, cls);
    const puppet = mod('Puppet');
    const features = new RObject(ObjectClass, 'Puppet.features');
    statics(puppet, {
        debug: log('debug'), info: log('info'), notice: log('notice'), warning: log('warning'), err: log('err'),
        crit: log('err'), alert: log('err'), emerg: log('err'),
        // Once per key; the location is the Ruby code that called (Puppet's get_deprecation_offender).
        deprecation_warning: (_s, args) => {
            const message = rt.interp.toS(args[0] ?? null);
            const file = rt.interp.file ?? '';
            const location = `${file.startsWith(`${rt.envDir}/`) ? file.slice(rt.envDir.length + 1) : file}:${rt.interp.line}:in \`${rt.interp.callerMethod ?? '<top (required)>'}'`;
            const key = args[1] === undefined || args[1] === null ? location : rt.interp.toS(args[1]);
            host.warnOnce(`deprecation:${key}`, `${message}\n   (location: ${location})`);
            return null;
        },
        // warn_once(kind, key, message, file = nil, line = nil, level = :warning): Puppet's error_location of file and line.
        warn_once: (_s, args) => {
            const [file, line] = [args[3] ?? null, args[4] ?? null];
            const fileS = file === null ? '' : rt.interp.toS(file);
            const lineS = line === null ? '' : rt.interp.toS(line);
            const known = (v: RValue, s: string): boolean => v !== null && s !== '' && !(v instanceof RSymbol && v.name === 'default');
            const trace = file instanceof RSymbol && file.name === 'default' && line instanceof RSymbol && line.name === 'default' ? ''
                : known(file, fileS) && known(line, lineS) ? `\n   (file: ${fileS}, line: ${lineS})`
                    : known(file, fileS) ? `\n   (file: ${fileS})`
                        : known(line, lineS) ? `\n   (line: ${lineS})` : '\n   (file & line not available)';
            host.warnOnce(`once:${rt.interp.toS(args[1] ?? null)}`, `${rt.interp.toS(args[2] ?? null)}${trace}`);
            return null;
        },
        '[]': (_s, args) => setting(args[0] ?? null),
        settings: () => settings,
        version: () => '7.23.0',
        features: () => features,
        lookup: () => null,
        'run_mode': () => null
    });
    puppet.constants.set('PUPPETVERSION', '7.23.0');
    puppet.constants.set('OLDEST_RECOMMENDED_RUBY_VERSION', '2.5.0');
    // Plugin code sees no process environment: ENV is an empty hash.
    constants.set('ENV', new Map<RValue, RValue>());
    // Facter answers with the node's facts: modelc never asks the host it runs on.
    const fact = (args: RValue[]): RValue => host.fact(nameOf(args[0] ?? null)) ?? null;
    const factObject = new RObject(ObjectClass, 'Facter::Util::Fact');
    const factNames = new WeakMap<RObject, RValue[]>();
    statics(mod('Facter', false), {
        value: (_s, args) => fact(args),
        '[]': (_s, args) => { const o = new RObject(factObject.cls, `#<Facter::Util::Fact ${nameOf(args[0] ?? null)}>`); factNames.set(o, args); return o; },
        version: () => '4.3.0'
    });
    for (const [name, cls] of Object.entries(PuppetErrors)) if (name !== 'LookupError') place(`Puppet::${name}`, cls);
    place('Puppet::DataBinding::LookupError', PuppetErrors.LookupError);

    // Puppet::Util and friends: pure helpers; anything reaching the host is refused.
    const util = mod('Puppet::Util');
    statics(util, {
        'absolute_path?': (_s, args) => {
            const path = args[0] ?? null;
            if (typeof path !== 'string') {
                host.log('warning', `Cannot check if ${rt.interp.toS(path)} is an absolute path because it is a '${classOf(path).name}' and not a String'`);
                return false;
            }
            const p = path;
            const platform = args[1] instanceof RSymbol ? args[1].name : 'posix';
            return platform === 'windows' ? /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/]+[\\/][^\\/]+|[\\/]{2}\?[\\/])/.test(p) : p.startsWith('/');
        },
        which: () => null,
        symbolizehash: (_s, args) => new Map([...(args[0] as Map<RValue, RValue>)].map(([k, v]) => [typeof k === 'string' ? RSymbol.of(k) : k, v])),
        deterministic_rand: (_s, args) => String(new MersenneTwister(toInt(args[0] ?? null)).below(toInt(args[1] ?? null))),
        deterministic_rand_int: (_s, args) => new MersenneTwister(toInt(args[0] ?? null)).below(toInt(args[1] ?? null))
    });
    const refuse = (what: string): Method => () => {
        const e = rubyError('SecurityError', `${what} is not allowed in plugin code (modelc runs module Ruby without access to the host)`);
        e.unsupported = what;
        throw e;
    };
    statics(mod('Puppet::Util::Execution'), { execute: refuse('Puppet::Util::Execution.execute'), execpipe: refuse('Puppet::Util::Execution.execpipe') });
    statics(mod('Puppet::Util::Package'), {
        versioncmp: (_s, args) => BigInt(versioncmp(rt.interp.toS(args[0] ?? null), rt.interp.toS(args[1] ?? null)))
    });
    mod('Puppet::Util::Warnings');
    const resourceApi = defineResourceApi(rt, mod, PuppetErrors);
    mod('Puppet::Util::Errors');
    // Types of the Puppet type system, parsed by the compiler.
    const typeParser = new RObject(ObjectClass, '#<Puppet::Pops::Types::TypeParser>');
    const typeParserClass = mod('Puppet::Pops::Types::TypeParser', false);
    statics(typeParserClass, { singleton: () => typeParser, new: () => typeParser });
    const calculator = mod('Puppet::Pops::Types::TypeCalculator', false);
    // The value each inferred type came from: the describer words a mismatch from the value.
    const inferredFrom = new WeakMap<PAnyType, PuppetValue>();
    const inferred = (v: PuppetValue, t: PAnyType): PAnyType => { inferredFrom.set(t, v); return t; };
    statics(calculator, {
        'instance?': (_s, args) => args[0] instanceof PAnyType && isInstance(args[0], toPuppet(args[1] ?? null)),
        infer: (_s, args) => { const v = toPuppet(args[0] ?? null); return inferred(v, inferType(v)); },
        infer_set: (_s, args) => { const v = toPuppet(args[0] ?? null); return inferred(v, inferSetType(v)); },
        singleton: () => calculator
    });
    // TypeMismatchDescriber#describe_mismatch(name, expected, inferred type): "name expects ..., got ...".
    const describerClass = mod('Puppet::Pops::Types::TypeMismatchDescriber', false);
    const describer = new RObject(describerClass, '#<Puppet::Pops::Types::TypeMismatchDescriber>');
    statics(describerClass, { new: () => describer, singleton: () => describer });
    describerClass.define('describe_mismatch', (_s, args) => {
        const [name, expected, actual] = [rt.interp.toS(args[0] ?? null), args[1], args[2]];
        if (!(expected instanceof PAnyType) || !(actual instanceof PAnyType) || !inferredFrom.has(actual)) {
            const e = rubyError('NotImplementedError', 'describe_mismatch of a type not inferred from a value');
            e.unsupported = 'TypeMismatchDescriber#describe_mismatch of a type TypeCalculator did not infer from a value';
            throw e;
        }
        const lines = formatMismatches(name, describeMismatch(expected, inferredFrom.get(actual) as PuppetValue));
        return lines.length === 1 ? lines[0].trim() : lines.join('\n ');
    });
    calculator.define('instance?', (_s, args) => args[0] instanceof PAnyType && isInstance(args[0], toPuppet(args[1] ?? null)));
    const factory = mod('Puppet::Pops::Types::TypeFactory', false);
    const named = (text: string): Method => () => host.parseType(text);
    statics(factory, {
        any: named('Any'), string: named('String'), integer: named('Integer'), boolean: named('Boolean'), float: named('Float'),
        numeric: named('Numeric'), scalar: named('Scalar'), undef: named('Undef'), data: named('Data'), hash: named('Hash'), array: named('Array'),
        optional: (_s, args) => host.parseType(`Optional[${args[0] instanceof PAnyType ? String(args[0]) : rt.interp.toS(args[0] ?? 'Any')}]`)
    });
    // Iterable.on: what Puppet's iteration functions walk (characters, elements, [key, value]
    // pairs, 0...n, a range's values); nil for anything else.
    const iterableOn = (o: RValue): REnumerator | null => {
        const over = (items: RValue[], hashStyle = false): REnumerator => new REnumerator(items, 'each', (_r, items) => items, hashStyle);
        if (o instanceof REnumerator) return o;
        if (typeof o === 'string') return over([...o]);
        if (Array.isArray(o)) return over(o);
        if (o instanceof Map) return over([...o].map(([k, v]) => [k, v]), true);
        if (typeof o === 'bigint') return over(o > 0n ? Array.from({ length: Number(o) }, (_x, i) => BigInt(i)) : []);
        if (o instanceof RRange) return over(rangeItems(o));
        return null;
    };
    statics(mod('Puppet::Pops::Types::Iterable'), {
        on: (_s, args) => iterableOn(args[0] ?? null),
        asserted_iterable: (_s, args) => {
            const iter = iterableOn(args[1] ?? null);
            if (iter === null) throw rubyError('ArgumentError', `${classOf(args[0] ?? null).name}(): wrong argument type (${classOf(args[1] ?? null).name}; is not Iterable.`);
            return iter;
        }
    });
    statics(mod('Puppet::Pops::PuppetStack'), {
        stacktrace: () => host.puppetStack().map(([f, l]) => [f, BigInt(l)]),
        top_of_stack: () => { const t = host.puppetStack()[0]; return t ? [t[0], BigInt(t[1])] : []; }
    });

    // The 3.x and 4.x function APIs.
    const functions = mod('Puppet::Functions');
    const fnBase = mod('Puppet::Pops::Functions::Function', false);
    place('Puppet::Functions::Function', fnBase);
    const internal = mod('Puppet::Functions::InternalFunction', false, fnBase);
    place('Puppet::Pops::Functions::InternalFunction', internal);
    statics(functions, {
        create_function: (_s, args, block) => rt.functions4.create(nameOf(args[0] ?? null), args[1] instanceof RClass ? args[1] : fnBase, block),
        create_loaded_function: (_s, args, block) => rt.functions4.create(nameOf(args[0] ?? null), fnBase, block)
    });
    statics(fnBase, {
        dispatch: (self, args, block) => rt.functions4.dispatch(self, args, block, false),
        argument_mismatch: (self, args, block) => rt.functions4.dispatch(self, args, block, true),
        local_types: (self, _a, block) => rt.functions4.localTypes(self, block),
        dispatcher: self => rt.functions4.dispatcherOf(self)
    });
    fnBase.define('call_function', (_self, args, block) => {
        const name = nameOf(args[0] ?? null);
        const pblock: PuppetBlock | undefined = block ? { min: Math.max(0, block.arity < 0 ? -block.arity - 1 : block.arity), max: block.arity < 0 ? null : block.arity, call: a => toPuppet(block.call(a)) } : undefined;
        return host.callFunction(name, args.slice(1).map(toPuppet), pblock, rt.currentScope().global());
    });
    // A Ruby 4.x function is created without a closure scope: Puppet gives it the global scope, so
    // what its call_function declares (create_resources ...) is declared at top scope, not the caller's.
    fnBase.define('closure_scope', () => scopeObject(rt.currentScope().global()));
    fnBase.define('loader', () => null);
    fnBase.define('scope', () => scopeObject(rt.currentScope()));

    const parserFunctions = mod('Puppet::Parser::Functions');
    statics(parserFunctions, {
        newfunction: (_s, args, block) => rt.functions3.define(args, block),
        function: (_s, args) => { const n = nameOf(args[0] ?? null); return rt.findFunction(n) ? `function_${n}` : false; },
        'functiondocs': () => '',
        autoloader: () => functionAutoloader
    });
    // Puppet::Parser::Functions.autoloader: loads a 3.x function's file by name (stdlib's has_ip_address loads has_interface_with).
    const autoloadClass = mod('Puppet::Util::Autoload', false);
    const functionAutoloader = new RObject(autoloadClass, '#<Puppet::Util::Autoload>');
    // Each use is deprecated (once per name), unless strict is off.
    const deprecated = (method: string, name: string): void => {
        if (host.setting('strict') === 'off') return;
        const key = method === 'load' ? `Puppet::Parser::Functions#load('${name}')` : `Puppet::Parser::Functions.loaded?('${name}')`;
        host.warnOnce(`deprecations:${key}`, `The method 'Puppet::Parser::Functions.autoloader#${method}("${name}")' is deprecated in favor of using 'Scope#call_function'.\n   (file & line not available)`);
    };
    // It knows only what it loaded itself: Puppet loads functions through its loaders, not this.
    const autoloaded = new Set<string>();
    autoloadClass.define('load', (_self, args) => {
        const name = nameOf(args[0] ?? null);
        deprecated('load', name);
        const found = rt.findFunction3(name) !== undefined;
        if (found) autoloaded.add(name.toLowerCase());
        return found;
    });
    autoloadClass.define('loaded?', (_self, args) => {
        const name = nameOf(args[0] ?? null);
        deprecated('loaded?', name);
        return autoloaded.has(name.toLowerCase());
    });
    // Puppet::Parser::Files.find_template: `mod/file` is the module's templates/file when it exists.
    statics(mod('Puppet::Parser::Files'), {
        find_template: (_s, args) => {
            const template = rt.interp.toS(args[0] ?? null);
            if (template.startsWith('/')) return template;
            const slash = template.indexOf('/');
            if (slash < 0) return null;
            const m = rt.modules.find(x => x.name === template.slice(0, slash));
            const path = m ? resolve(m.dir, 'templates', template.slice(slash + 1)) : undefined;
            return path && rt.fileExists(path) ? path : null;
        }
    });
    const scopeClass = mod('Puppet::Parser::Scope', false);
    const resourceClass = mod('Puppet::Resource', false);
    const typeClass = mod('Puppet::Resource::Type', false);
    const definitionTypes = new WeakMap<RObject, { name: string; type: RSymbol }>();
    typeClass.define('name', self => definitionTypes.get(self as RObject)?.name ?? null);
    typeClass.define('type', self => definitionTypes.get(self as RObject)?.type ?? null);
    const resources = new WeakMap<RObject, { type: string; title: string; params: ReadonlyMap<string, PuppetValue> }>();
    const resourceObject = (info: { type: string; title: string; params: ReadonlyMap<string, PuppetValue> }): RObject => {
        const o = new RObject(resourceClass, `${info.type}[${info.title}]`, `${info.type}[${info.title}]`);
        resources.set(o, info);
        resourceRefs.set(o, info);
        return o;
    };
    const infoOf = (self: RValue): { type: string; title: string; params: ReadonlyMap<string, PuppetValue> } => {
        const i = self instanceof RObject ? resources.get(self) : undefined;
        if (!i) throw rubyError('TypeError', 'not a Puppet::Resource');
        return i;
    };
    const refParts = (ref: string): [string, string] | undefined => {
        const m = /^([^[\]]+)\[([\s\S]*)\]$/.exec(ref.trim());
        return m ? [m[1], m[2]] : undefined;
    };
    const typeName = (t: string): string => capitalizeTypeName(t.toLowerCase());
    statics(resourceClass, {
        type_and_title: (_s, args) => {
            const ref = rt.interp.toS(args[0] ?? null);
            if (args[1] !== undefined && args[1] !== null) return [ref, rt.interp.toS(args[1])];
            const parts = refParts(ref);
            if (!parts) throw rubyError('ArgumentError', `Puppet::Resource.type_and_title could not split '${ref}'`);
            return [parts[0], parts[1]];
        },
        new: (_s, args) => {
            const type = rt.interp.toS(args[0] ?? null);
            const title = args[1] === undefined || args[1] === null ? undefined : rt.interp.toS(args[1]);
            const parts = title === undefined ? refParts(type) : undefined;
            return resourceObject({ type: typeName(parts ? parts[0] : type), title: parts ? parts[1] : title ?? '', params: new Map() });
        }
    });
    resourceClass.define('type', self => infoOf(self).type);
    resourceClass.define('title', self => infoOf(self).title);
    resourceClass.define('name', self => infoOf(self).title);
    resourceClass.define(['to_s', 'ref', 'inspect'], self => `${infoOf(self).type}[${infoOf(self).title}]`);
    // Parameter values as Puppet's 3.x runtime holds them: references are Puppet::Resource objects
    // (so `res[:require] == [Class['c']]` compares references), undef is nil.
    const referenceObject = (t: PResourceType | PClassType): RValue => t instanceof PClassType
        ? resourceObject({ type: 'Class', title: capitalizeTypeName(t.className ?? ''), params: new Map() })
        : resourceObject({ type: typeName(t.typeName ?? ''), title: t.title ?? '', params: new Map() });
    const paramValue = (v: PuppetValue | undefined): RValue => v === undefined ? null : to3x(v, true, referenceObject);
    resourceClass.define('[]', (self, args) => paramValue(infoOf(self).params.get(nameOf(args[0] ?? null))));
    resourceClass.define('to_hash', self => new Map<RValue, RValue>([...infoOf(self).params].map(([k, v]) => [RSymbol.of(k), paramValue(v)])));
    resourceClass.define(['==', 'eql?'], (self, args) => args[0] instanceof RObject && resources.has(args[0]) && `${infoOf(self).type}[${infoOf(self).title}]` === `${infoOf(args[0]).type}[${infoOf(args[0]).title}]`);
    statics(mod('Puppet::Pops::Evaluator::Runtime3ResourceSupport', false), {
        find_resource_type_or_class: (_s, args) => typeName(nameOf(args[1] ?? null)),
        find_resource_type: (_s, args) => typeName(nameOf(args[1] ?? null))
    });

    // Puppet::Module.find: the environment's modules, first on the modulepath winning.
    const moduleClass = mod('Puppet::Module', false);
    const moduleDirs = new WeakMap<RObject, { name: string; dir: string }>();
    const moduleOf = (self: RValue): { name: string; dir: string } => {
        const m = self instanceof RObject ? moduleDirs.get(self) : undefined;
        if (!m) throw rubyError('TypeError', 'not a Puppet::Module');
        return m;
    };
    statics(moduleClass, {
        find: (_s, args) => {
            const name = rt.interp.toS(args[0] ?? null);
            const found = rt.modules.find(m => m.name === name);
            if (!found) return null;
            const o = new RObject(moduleClass, `#<Puppet::Module ${name}>`);
            moduleDirs.set(o, { name: found.name, dir: found.dir });
            return o;
        }
    });
    moduleClass.define('path', self => moduleOf(self).dir);
    moduleClass.define('name', self => moduleOf(self).name);
    moduleClass.define(['to_s', 'inspect'], self => `Module ${moduleOf(self).name}(${moduleOf(self).dir})`);

    // Dir: globbing and tests inside the environment only (see PluginRuntime.glob).
    const patternsOf = (v: RValue | undefined): string[] => (Array.isArray(v) ? v.map(x => rt.interp.toS(x)) : [rt.interp.toS(v ?? null)]);
    const glob: Method = (_s, args) => patternsOf(args[0]).flatMap(p => rt.glob(p));
    statics(mod('Dir', false), {
        glob, '[]': glob,
        'exist?': (_s, args) => rt.dirExists(rt.interp.toS(args[0] ?? null))
    });

    const type = mod('Puppet::Type', false);
    const parameter = mod('Puppet::Parameter', false);
    const property = mod('Puppet::Property', false, parameter);
    for (const sub of ['Path', 'Value', 'ValueCollection']) mod(`Puppet::Parameter::${sub}`, false, parameter);
    const parameterBoolean = new RClass('Puppet::Parameter::Boolean', parameter);
    for (const sub of ['Boolean', 'Ensure', 'List', 'OrderedList', 'KeyValue']) mod(`Puppet::Property::${sub}`, false, property);

    const scopes = new WeakMap<RObject, ScopeHost>();
    const scopeObjects = new Map<ScopeHost, RObject>();
    const scopeObject = (scope: ScopeHost): RObject => {
        let o = scopeObjects.get(scope);
        if (!o) {
            o = new RObject(scopeClass, `${scope.name}:Puppet::Parser::Scope`, scope.name);
            scopes.set(o, scope);
            scopeObjects.set(scope, o);
        }
        return o;
    };
    const environment = new RObject(ObjectClass, host.environment, host.environment);

    const scopeMethod = (scope: ScopeHost, name: string, args: RValue[]): RValue | undefined => {
        switch (name) {
            case '[]': case 'lookupvar': {
                const n = nameOf(args[0] ?? null);
                // Puppet's variable_not_found throws :undefined_variable; only when nothing catches it is it a warning.
                if (isCatching(UNDEFINED_VARIABLE)) {
                    const v = scope.lookupvar(n, true);
                    if (v === undefined && !/^(module_name|caller_module_name|\d+)$/.test(n)) throw new ThrowSignal(UNDEFINED_VARIABLE, null);
                    return v ?? null;
                }
                return scope.lookupvar(n) ?? null;
            }
            case 'include?': case 'exist?': return scope.lookupvar(nameOf(args[0] ?? null)) !== undefined;
            case 'setvar': case '[]=': scope.setvar(nameOf(args[0] ?? null), toPuppet(args[1] ?? null)); return args[1] ?? null;
            case 'call_function': {
                const fargs = args[1] ?? [];
                return host.callFunction(nameOf(args[0] ?? null), (Array.isArray(fargs) ? fargs : [fargs]).map(toPuppet), undefined, scope);
            }
            case 'findresource': {
                // findresource('Type[title]') or findresource(type, title).
                const ref = args.length === 1 ? /^([^[]+)\[(.*)\]$/s.exec(nameOf(args[0] ?? null)) : null;
                const r = ref ? scope.findResource(ref[1], ref[2]) : scope.findResource(nameOf(args[0] ?? null), nameOf(args[1] ?? null));
                return r ? resourceObject(r) : null;
            }
            case 'environment': return environment;
            case 'catalog': case 'compiler': return scopeObject(scope);
            case 'resources': return scope.resources().map(resourceObject);
            case 'resource': { const r = scope.resource(); return r ? resourceObject(r) : null; }
            case 'find_global_scope': return scopeObject(scope.global());
            case 'classlist': return scope.classes();
            // Puppet's values are Param objects; code asks which parameters have defaults
            case 'lookupdefaults': return new Map([...scope.defaults(nameOf(args[0] ?? null))].map(([k, v]) => [sym(k), v] as [RValue, RValue]));
            case 'to_hash': return null;
            // Scope includes Puppet::Util::Logging: a 3.x function logs through its `self`.
            case 'debug': case 'info': case 'notice': case 'warning': case 'err':
                host.log(name, rt.interp.toS(args[0] ?? null), scope.name);
                return null;
            case 'source': {
                // The definition the scope evaluates (a Puppet::Resource::Type): a class (main's name is '') or a defined type.
                const r = scope.resource();
                const isClass = r === null || r.type === 'Class' || r.type === 'Node';
                const name = r === null ? '' : isClass ? (r.title.toLowerCase() === 'main' ? '' : r.title.toLowerCase()) : r.type.toLowerCase();
                const o = new RObject(typeClass, `#<Puppet::Resource::Type ${name}>`);
                definitionTypes.set(o, { name, type: RSymbol.of(isClass ? 'hostclass' : 'definition') });
                return o;
            }
        }
        if (name.startsWith('function_')) {
            const fname = name.slice('function_'.length);
            if (args.length !== 1 || !Array.isArray(args[0])) {
                throw rubyError('ArgumentError', 'custom functions must be called with a single array that contains the arguments. For example, function_example([1]) instead of function_example(1)');
            }
            const fn = rt.findFunction3(fname);
            if (fn) return rt.functions3.invoke(fn, args[0], scope);
            return host.callFunction(fname, args[0].map(toPuppet), undefined, scope);
        }
        return undefined;
    };

    const fileStatics: Record<string, Method> = {
        write: refuse('File.write'), open: refuse('File.open'), delete: refuse('File.delete'), unlink: refuse('File.unlink'), chmod: refuse('File.chmod'),
        readlines: (_s, args) => rt.readFile(rt.interp.toS(args[0] ?? null)).split(/(?<=\n)/),
        read: (_s, args) => rt.readFile(rt.interp.toS(args[0] ?? null)),
        'exist?': (_s, args) => rt.fileExists(rt.interp.toS(args[0] ?? null)),
        // Ruby 3.1 still has the deprecated alias that stdlib's loadjson/loadyaml/load_module_metadata call.
        'exists?': (_s, args) => rt.fileExists(rt.interp.toS(args[0] ?? null)),
        'file?': (_s, args) => rt.fileExists(rt.interp.toS(args[0] ?? null)),
        'directory?': () => false,
        'executable?': () => false,
        expand_path: (_s, args) => resolve(typeof args[1] === 'string' ? args[1] : rt.envDir, rt.interp.toS(args[0] ?? null))
    };

    return {
        constants,
        puppetFileLoaded: feature => {
            if (DEFINES_BOOLEAN.test(feature) && !constants.has(parameterBoolean.name)) place(parameterBoolean.name, parameterBoolean);
        },
        notYetLoaded: path => path === parameterBoolean.name && !constants.has(path),
        fileStatics,
        resourceObject,
        resourceApi,
        classes: { Puppet: puppet, Type: type, Parameter: parameter, Property: property, Function: fnBase, Scope: scopeClass },
        scopeObject,
        dynamic(obj, name, args) {
            if (obj === features) return name === 'posix?' ? true : name.endsWith('?') ? false : undefined;
            if (factNames.has(obj)) return name === 'value' ? fact(factNames.get(obj) ?? []) : name === 'respond_to?:value' ? true : undefined;
            if (obj === settings) return name === '[]' ? setting(args[0] ?? null) : name === 'respond_to?:[]' ? true : undefined;
            if (obj === typeParser && name === 'parse') return host.parseType(rt.interp.toS(args[0] ?? null));
            if (obj === environment && name === 'name') return RSymbol.of(host.environment);
            const probe = name.startsWith('respond_to?:');
            const scope = scopes.get(obj);
            if (!scope) return undefined;
            if (probe) {
                const m = name.slice('respond_to?:'.length);
                return m.startsWith('function_') ? rt.findFunction(m.slice(9)) !== undefined : ['lookupvar', '[]', 'call_function', 'findresource', 'environment', 'catalog', 'compiler', 'setvar', 'lookupdefaults'].includes(m);
            }
            return scopeMethod(scope, name, args);
        }
    };
}

export type { PuppetValue, RProc };
