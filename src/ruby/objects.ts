import { PAnyType } from '../types/index.js';
import { PBinary, PDefault, PDeferred, PError, PIterator, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, type PuppetValue } from '../values/index.js';
import type { BlockNode } from './ast.js';

/**
 * The values a template's Ruby code works with. Puppet's own values are used as they are (a
 * template sees the very objects the compiler holds, as in Puppet where an array a template
 * appends to is the variable's array); Ruby-only kinds get small classes.
 */
export type RValue = PuppetValue | RSymbol | RRange | RProc | RClass | RMatchData | REnumerator | RObject | RValue[] | RHash;

export type RHash = Map<RValue, RValue>;

/** Symbols are interned, so Map keys and `equal?` work by identity. */
export class RSymbol {
    private static readonly table = new Map<string, RSymbol>();
    private constructor(readonly name: string) {}
    static of(name: string): RSymbol {
        let s = RSymbol.table.get(name);
        if (!s) RSymbol.table.set(name, s = new RSymbol(name));
        return s;
    }
}

export class RRange {
    constructor(readonly from: RValue, readonly to: RValue, readonly exclusive: boolean) {}
}

/** A block turned into an object (`lambda`, `proc`, `&:sym`). */
export class RProc {
    constructor(
        readonly call: (args: RValue[], block?: RProc) => RValue, readonly arity: number, readonly isLambda: boolean, readonly node?: BlockNode,
        /** Runs the block with another `self` (instance_eval, a DSL body, define_method); only blocks written in Ruby have it. */
        readonly callAs?: (self: RValue, defTarget: RClass | null, args: RValue[], block: RProc | undefined, asMethod: string | null) => RValue
    ) {}
}

export class RMatchData {
    constructor(readonly match: RegExpExecArray, readonly input: string) {}
    group(i: number): string | null {
        return this.match[i] ?? null;
    }
}

/** What a blockless iteration method returns: the values it would yield, and how to finish. */
export class REnumerator {
    /** Where `next` stands. */
    position = 0;
    /** `hashStyle`: an iteration over a Hash's entries, as Puppet's Iterable of a Hash says (`hash_style?`). */
    constructor(readonly items: RValue[], readonly method: string, readonly finish: (results: RValue[], items: RValue[]) => RValue, readonly hashStyle = false) {}
}

/** An object of a host class (the template wrapper, the scope), with its methods. */
export class RObject {
    constructor(readonly cls: RClass, readonly inspectText: string, readonly toSText = inspectText, readonly ivars = new Map<string, RValue>()) {}
}

export type Method = (self: RValue, args: RValue[], block: RProc | undefined, call: CallSite) => RValue;

/** What a method implementation may ask of the running template. */
export interface CallSite {
    /** Calls a block (or a proc) with Ruby's block argument rules. */
    yield(block: RProc, args: RValue[]): RValue;
    /** Dispatches a method on any value (methods defined in terms of others: `<=>`, `==`, `to_s`). */
    send(self: RValue, name: string, args: RValue[], block?: RProc, fcall?: boolean): RValue;
    toS(v: RValue): string;
    equals(a: RValue, b: RValue): boolean;
    caseEquals(pattern: RValue, v: RValue): boolean;
    /** Matches and sets `$~`. */
    match(re: PRegexp, s: string, from?: number): RMatchData | null;
    setLastMatch(m: RMatchData | null): void;
    /** The class whose `class << self` body is running (attr_accessor there makes class-level accessors), else null. */
    singletonBody(): RClass | null;
    /** `$~`: the last match of this interpreter (`Regexp.last_match`). */
    currentMatch(): RMatchData | null;
    respondsTo(v: RValue, name: string): boolean;
    /** Adds a method to a class for this interpreter (core classes get an overlay, never a change). */
    defineMethod(target: RClass, name: string, m: Method, isStatic?: boolean): void;
    findMethod(cls: RClass, name: string): Method | undefined;
    ivarsOf(self: RValue): Map<string, RValue>;
}

export class RClass {
    readonly methods = new Map<string, Method>();
    /** Methods of the class object itself (`Regexp.escape`, `Hash.new`). */
    readonly statics = new Map<string, Method>();
    /** Constants defined in the class body (`A::B`), and the class's own instance variables. */
    readonly constants = new Map<string, RValue>();
    readonly ivars = new Map<string, RValue>();
    /** `class X` whose superclass a later `class X < Y` may still give. */
    implicitSuper = false;
    /** After `module_function`: `def` also defines the module method. */
    moduleFunction = false;
    /** Modules given to `extend`. */
    extended: RClass[] | undefined;
    constructor(readonly name: string, public superclass: RClass | null, readonly includes: RClass[] = [], readonly isModule = false) {}

    findMethod(name: string): Method | undefined {
        for (let c: RClass | null = this; c; c = c.superclass) {
            const m = c.methods.get(name);
            if (m) return m;
            for (const mod of c.includes) {
                const mm = mod.methods.get(name);
                if (mm) return mm;
            }
        }
        return undefined;
    }

    isSubclassOf(other: RClass): boolean {
        for (let c: RClass | null = this; c; c = c.superclass) {
            if (c === other || c.includes.includes(other)) return true;
        }
        return false;
    }

    define(names: string | string[], m: Method): void {
        for (const n of Array.isArray(names) ? names : [names]) this.methods.set(n, m);
    }

    defineStatic(name: string, m: Method): void {
        this.statics.set(name, m);
    }

    findStatic(name: string): Method | undefined {
        for (let c: RClass | null = this; c; c = c.superclass) {
            const m = c.statics.get(name);
            if (m) return m;
        }
        return undefined;
    }
}

const module = (name: string): RClass => new RClass(name, null, [], true);

export const Kernel = module('Kernel');
export const Comparable = module('Comparable');
export const Enumerable = module('Enumerable');
export const BasicObject = new RClass('BasicObject', null);
export const ObjectClass = new RClass('Object', BasicObject, [Kernel]);
const sub = (name: string, superclass: RClass = ObjectClass, includes: RClass[] = []): RClass => new RClass(name, superclass, includes);

export const Classes = {
    Object: ObjectClass,
    BasicObject,
    Kernel,
    Comparable,
    Enumerable,
    Module: sub('Module'),
    NilClass: sub('NilClass'),
    TrueClass: sub('TrueClass'),
    FalseClass: sub('FalseClass'),
    Numeric: sub('Numeric', ObjectClass, [Comparable]),
    String: sub('String', ObjectClass, [Comparable]),
    Symbol: sub('Symbol', ObjectClass, [Comparable]),
    Array: sub('Array', ObjectClass, [Enumerable]),
    Hash: sub('Hash', ObjectClass, [Enumerable]),
    Range: sub('Range', ObjectClass, [Enumerable]),
    Regexp: sub('Regexp'),
    MatchData: sub('MatchData'),
    Proc: sub('Proc'),
    Enumerator: sub('Enumerator', ObjectClass, [Enumerable]),
    Exception: sub('Exception'),
    File: sub('File'),
    Rational: sub('Rational', ObjectClass, [Comparable]),
    Struct: sub('Struct'),
    Random: sub('Random'),
    Set: sub('Set', ObjectClass, [Enumerable]),
    IPAddr: sub('IPAddr', ObjectClass, [Comparable]),
    Socket: sub('Socket'),
    CGI: sub('CGI'),
    URI: module('URI'),
    Math: module('Math'),
    Shellwords: module('Shellwords'),
    ObjectSpace: module('ObjectSpace'),
    GC: module('GC'),
    /** Puppet's own value classes, as `.class` names them. */
    Sensitive: sub('Puppet::Pops::Types::PSensitiveType::Sensitive'),
    PuppetType: sub('Puppet::Pops::Types::PAnyType'),
    PuppetObject: sub('Puppet::Pops::Types::PuppetObject'),
    Scope: sub('Puppet::Parser::Scope'),
    TemplateWrapper: sub('Puppet::Parser::TemplateWrapper')
};
export const Integer = sub('Integer', Classes.Numeric);
export const Float = sub('Float', Classes.Numeric);
export const ClassClass = sub('Class', Classes.Module);

/** Ruby's exception tree, as far as templates can raise and rescue. */
const exc = (name: string, parent: RClass): RClass => sub(name, parent);
const StandardError = exc('StandardError', Classes.Exception);
const ScriptError = exc('ScriptError', Classes.Exception);
const NameError = exc('NameError', StandardError);
const ArgumentError = exc('ArgumentError', StandardError);
const IndexError = exc('IndexError', StandardError);
const RuntimeError = exc('RuntimeError', StandardError);
const RangeError = exc('RangeError', StandardError);
const IPAddrError = exc('IPAddr::Error', ArgumentError);
const IPAddrInvalidAddress = exc('IPAddr::InvalidAddressError', IPAddrError);
export const Exceptions = {
    Exception: Classes.Exception,
    StandardError,
    ScriptError,
    NotImplementedError: exc('NotImplementedError', ScriptError),
    NameError,
    NoMethodError: exc('NoMethodError', NameError),
    ArgumentError,
    TypeError: exc('TypeError', StandardError),
    ZeroDivisionError: exc('ZeroDivisionError', StandardError),
    RuntimeError,
    FrozenError: exc('FrozenError', RuntimeError),
    IndexError,
    KeyError: exc('KeyError', IndexError),
    StopIteration: exc('StopIteration', IndexError),
    UncaughtThrowError: exc('UncaughtThrowError', ArgumentError),
    RangeError,
    FloatDomainError: exc('FloatDomainError', RangeError),
    RegexpError: exc('RegexpError', StandardError),
    DomainError: exc('Math::DomainError', ArgumentError),
    LocalJumpError: exc('LocalJumpError', StandardError),
    IOError: exc('IOError', StandardError),
    EOFError: exc('EOFError', StandardError),
    SystemCallError: exc('SystemCallError', StandardError),
    ThreadError: exc('ThreadError', StandardError),
    FiberError: exc('FiberError', StandardError),
    EncodingError: exc('EncodingError', StandardError),
    LoadError: exc('LoadError', ScriptError),
    SyntaxError: exc('SyntaxError', ScriptError),
    /** Host access refused to plugin code (system, File.write, network). */
    SecurityError: exc('SecurityError', Classes.Exception),
    /** Runaway code: too deep a recursion or too many steps. */
    SystemStackError: exc('SystemStackError', Classes.Exception),
    NoMatchingPatternError: exc('NoMatchingPatternError', StandardError),
    /** The errors of Ruby's ipaddr library. */
    IPAddrError: IPAddrError,
    IPAddrInvalidAddress: IPAddrInvalidAddress,
    IPAddrFamily: exc('IPAddr::AddressFamilyError', IPAddrError),
    IPAddrInvalidPrefix: exc('IPAddr::InvalidPrefixError', IPAddrInvalidAddress),
    /** Puppet::ParseError, which `fail` and failing Puppet functions raise. */
    ParseError: exc('Puppet::ParseError', StandardError)
};

/** A Ruby exception on its way up; `cls` decides which `rescue` clauses catch it. */
export class RubyError extends Error {
    line: number | undefined;
    col: number | undefined;
    /** The file the error happened in, when it is a plugin file (templates report their own). */
    file: string | undefined;
    /** The construct named when the interpreter does not implement it (RUBY_UNSUPPORTED). */
    unsupported: string | undefined;
    /** The exception object `raise` was given (or that `rescue => e` bound). */
    exception: RObject | undefined;
    constructor(readonly cls: RClass, message: string, line?: number) {
        super(message);
        this.line = line;
    }
}

export const rubyError = (cls: keyof typeof Exceptions, message: string): RubyError => new RubyError(Exceptions[cls], message);

/** The class of any value, as Ruby's `.class` names it. */
export function classOf(v: RValue): RClass {
    if (v === null) return Classes.NilClass;
    switch (typeof v) {
        case 'string': return Classes.String;
        case 'bigint': return Integer;
        case 'number': return Float;
        case 'boolean': return v ? Classes.TrueClass : Classes.FalseClass;
    }
    if (Array.isArray(v)) return Classes.Array;
    if (v instanceof Map) return Classes.Hash;
    if (v instanceof RSymbol || v instanceof PDefault) return Classes.Symbol;
    if (v instanceof RRange) return Classes.Range;
    if (v instanceof PRegexp) return Classes.Regexp;
    if (v instanceof RProc) return Classes.Proc;
    if (v instanceof RClass) return v.isModule ? Classes.Module : ClassClass;
    if (v instanceof RMatchData) return Classes.MatchData;
    if (v instanceof REnumerator) return Classes.Enumerator;
    if (v instanceof RObject) return v.cls;
    if (v instanceof PSensitive) return Classes.Sensitive;
    if (v instanceof PAnyType) return puppetTypeClass(v);
    if (v instanceof PBinary || v instanceof PTimestamp || v instanceof PTimespan || v instanceof PSemVer || v instanceof PSemVerRange || v instanceof PIterator || v instanceof PDeferred || v instanceof PError) return Classes.PuppetObject;
    return ObjectClass;
}

const typeClasses = new Map<string, RClass>();
/** Puppet's type objects are instances of Puppet::Pops::Types::PIntegerType and so on. */
function puppetTypeClass(t: PAnyType): RClass {
    const name = `Puppet::Pops::Types::${t.constructor.name}`;
    let c = typeClasses.get(name);
    if (!c) typeClasses.set(name, c = new RClass(name, Classes.PuppetType));
    return c;
}

/** Only nil and false are false in Ruby. */
export const truthy = (v: RValue): boolean => v !== null && v !== false;

export const sym = RSymbol.of;
