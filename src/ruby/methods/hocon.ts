import { HoconError, parseHocon, type HoconFiles, type PuppetValue } from '../../values/index.js';
import { Exceptions, ObjectClass, RClass, RObject, RubyError, type RValue } from '../objects.js';

/** What a parsed document holds: its value, or the substitution failure its `resolve` raises. */
interface Parsed {
    readonly value?: Map<PuppetValue, PuppetValue>;
    readonly unresolved?: HoconError;
}

/**
 * The part of the ruby-hocon gem (1.3) plugin code uses, over modelc's HOCON reader
 * (values/hocon.ts, the one Hiera's hocon_data uses): `Hocon::ConfigFactory.parse_string(text)`
 * gives a config, `#resolve` the resolved config, `#root` its object, `#unwrapped` the plain
 * Hash; `Hocon.parse(text)` all of it at once. A syntax error raises the gem's
 * ConfigParseError from parse_string, a substitution that finds nothing its
 * UnresolvedSubstitutionError (a ConfigParseError) from resolve, a list as the root its
 * ConfigWrongTypeError (not a parse error) from parse_string, as the gem does. Includes read
 * through `files` (the plugin runtime's: the environment's files only).
 */
export function hoconModules(files: HoconFiles): ReadonlyMap<string, RClass> {
    const hocon = new RClass('Hocon', null, [], true);
    const configError = new RClass('Hocon::ConfigError', Exceptions.StandardError);
    const parseError = new RClass('Hocon::ConfigError::ConfigParseError', configError);
    const unresolvedError = new RClass('Hocon::ConfigError::UnresolvedSubstitutionError', parseError);
    // Not a parse error: a document whose root is a list parses, then is refused as a config.
    const wrongTypeError = new RClass('Hocon::ConfigError::ConfigWrongTypeError', configError);
    const factory = new RClass('Hocon::ConfigFactory', null, [], true);
    const configClass = new RClass('Hocon::Impl::SimpleConfig', ObjectClass);
    const objectClass = new RClass('Hocon::Impl::SimpleConfigObject', ObjectClass);
    const parsed = new WeakMap<RObject, Parsed>();

    const stateOf = (self: RValue): Parsed => parsed.get(self as RObject) ?? {};
    const make = (cls: RClass, state: Parsed, text: string): RObject => {
        const obj = new RObject(cls, text);
        parsed.set(obj, state);
        return obj;
    };
    const parse = (text: RValue): RObject => {
        const source = typeof text === 'string' ? text : String(text);
        try {
            return make(configClass, { value: parseHocon(source, files).value }, `Config(SimpleConfigObject(...))`);
        } catch (e) {
            if (!(e instanceof HoconError)) throw e;
            // Parsing leaves substitutions alone: one that finds nothing fails only when resolved.
            if (e.kind === 'UnresolvedSubstitutionError') return make(configClass, { unresolved: e }, `Config(SimpleConfigObject(...))`);
            if (e.kind === 'NoMethodError') throw new RubyError(Exceptions.NoMethodError, e.message);
            throw new RubyError(e.kind === 'ConfigWrongTypeError' ? wrongTypeError : parseError, e.message);
        }
    };
    const resolve = (self: RValue): RObject => {
        const state = stateOf(self);
        if (state.unresolved) throw new RubyError(unresolvedError, state.unresolved.message);
        return self as RObject;
    };
    const unwrapped = (self: RValue): RValue => copy(stateOf(self).value ?? new Map());

    factory.defineStatic('parse_string', (_s, args) => parse(args[0] ?? null));
    hocon.defineStatic('parse', (_s, args) => unwrapped(resolve(parse(args[0] ?? null))));
    configClass.define('resolve', self => resolve(self));
    configClass.define('root', self => make(objectClass, stateOf(self), 'SimpleConfigObject(...)'));
    configClass.define('resolved?', self => stateOf(self).unresolved === undefined);
    objectClass.define('unwrapped', self => unwrapped(self));
    return new Map([
        ['Hocon', hocon],
        ['Hocon::ConfigError', configError],
        ['Hocon::ConfigError::ConfigParseError', parseError],
        ['Hocon::ConfigError::UnresolvedSubstitutionError', unresolvedError],
        ['Hocon::ConfigError::ConfigWrongTypeError', wrongTypeError],
        ['Hocon::ConfigFactory', factory],
        ['Hocon::Impl::SimpleConfig', configClass],
        ['Hocon::Impl::SimpleConfigObject', objectClass]
    ]);
}

/** Each unwrapping gives new Hashes and Arrays, so plugin code changing one changes no other. */
function copy(v: PuppetValue): RValue {
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [copy(k), copy(x)]));
    if (Array.isArray(v)) return v.map(copy);
    return v as RValue;
}
