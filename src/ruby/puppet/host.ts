import type { PAnyType } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { RubyError, type RClass } from '../objects.js';

/** A module whose `lib/` plugin code may be loaded. */
export interface PluginModule {
    readonly name: string;
    readonly dir: string;
}

/** A Puppet block (lambda) handed to a Ruby function. */
export interface PuppetBlock {
    readonly min: number;
    readonly max: number | null;
    call(args: PuppetValue[]): PuppetValue;
}

/** A catalog resource as Ruby sees it (Puppet::Resource): type as written in references (`Package`), title, parameters. */
export interface ResourceInfo {
    readonly type: string;
    readonly title: string;
    readonly params: ReadonlyMap<string, PuppetValue>;
}

/** The calling scope as 3.x functions and `closure_scope` see it. */
export interface ScopeHost {
    /** The value, or undefined for an unknown variable. */
    lookupvar(name: string, quiet?: boolean): PuppetValue | undefined;
    setvar(name: string, value: PuppetValue): void;
    /** The scope as Puppet prints it: `Scope(Class[main])`. */
    readonly name: string;
    /** `findresource(type, title)`. */
    findResource(type: string, title: string): ResourceInfo | undefined;
    /** `catalog.resources`. */
    resources(): ResourceInfo[];
    /** The resource whose body the scope evaluates (`Class[Foo]`, `Foo::Bar[x]`), or null at top. */
    resource(): ResourceInfo | null;
    /** The top scope (`find_global_scope`). */
    global(): ScopeHost;
    classes(): string[];
    /** `lookupdefaults(type)`: the resource defaults (`Exec { ... }`) this scope sees for a type. */
    defaults(type: string): ReadonlyMap<string, PuppetValue>;
}

/** What plugin code reaches of the compiler. */
export interface PluginHost {
    /** A Puppet type from its text, with the environment's aliases (`Stdlib::Absolutepath`) and `local` ones. */
    parseType(text: string, local?: (name: string) => PAnyType | undefined): PAnyType;
    /** Calls any function the environment has (`call_function`, `function_x`). */
    callFunction(name: string, args: PuppetValue[], block: PuppetBlock | undefined, scope: ScopeHost): PuppetValue;
    /** A log line; `source` is what Puppet names as its origin (a provider's class, a resource, a scope: `Scope(Class[main])`), none for Puppet's own. */
    log(level: 'debug' | 'info' | 'notice' | 'warning' | 'err', message: string, source?: string): void;
    /** A setting (`Puppet[:name]`); undefined when modelc does not know it. */
    setting(name: string): PuppetValue | undefined;
    /** A fact of the node (`Facter.value`): modelc's only facts are the node's; undefined when it has none of that name. */
    fact(name: string): PuppetValue | undefined;
    /** Logs a warning the first time `key` is seen in this compilation (Puppet's warn_once and deprecation_warning). */
    warnOnce(key: string, message: string): void;
    /** Puppet's call stack (`Puppet::Pops::PuppetStack.stacktrace`): `[file, line]` frames, innermost first. */
    puppetStack(): ReadonlyArray<readonly [string, number]>;
    readonly environment: string;
}

/** Why plugin code could not run: each kind is a located error with a stable code. */
export type PluginFailureKind = 'RUBY_UNSUPPORTED' | 'RUBY_FORBIDDEN' | 'RUBY_LIMIT' | 'RUBY_SYNTAX' | 'RUBY_LOAD';

export class PluginFailure extends Error {
    /**
     * `raised`: a RUBY_LOAD that is a Puppet::Error the code raised on purpose (the Resource API's
     * checks of a type definition): Puppet's autoloader reports it as its own failure.
     */
    constructor(readonly kind: PluginFailureKind, message: string, readonly file: string, readonly line: number, readonly column: number,
        readonly raised?: { readonly rubyClass: string; readonly message: string }) {
        super(message);
    }
}

/**
 * A Ruby exception that left plugin code while Puppet code called it: `rubyClass` is its class
 * (Puppet::ParseError, ArgumentError, ...), which decides how Puppet reports it.
 */
export class PluginCallError extends Error {
    /**
     * `escapes`: not a StandardError (LoadError, NotImplementedError, ...): Puppet's evaluator does
     * not wrap it, so it ends the compilation as it is, without a location.
     */
    constructor(message: string, readonly rubyClass: string, readonly escapes = false) {
        super(message);
    }
}

/**
 * Whether a Ruby exception that reached the host is of one of the named classes or a subclass
 * (Puppet's attribute hooks pass ArgumentError, TypeError and Puppet::Error on as they are).
 */
export function raisedAs(e: unknown, classNames: readonly string[]): boolean {
    if (!(e instanceof RubyError)) return false;
    for (let c: RClass | null = e.cls; c; c = c.superclass) if (classNames.includes(c.name)) return true;
    return false;
}
