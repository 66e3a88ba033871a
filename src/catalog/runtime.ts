import type { AstNode } from 'langium';
import type {
    ClassResource, CollectExpression, Expression, FunctionDefinition, Lambda, Program, RelationshipExpression, ResourceExpression
} from '../../generated/langium/ast.js';
import type { PAnyType, TypeNameResolver } from '../types/index.js';
import type { PuppetValue } from '../values/index.js';
import type { Environment } from './boot.js';
import type { CoreType } from './core-types.js';
import type { Where } from './errors.js';
import type { Definition, Loader } from './loader.js';
import type { LookupCall, LookupContext, LookupOptions, LookupResult, LookupService } from './lookup.js';
import type { Catalog, CatalogResource } from './resource.js';
import type { Scope } from './scope.js';
import type { CatalogStore, QueryProvenance } from '../store/index.js';

/**
 * The narrow interfaces between the parts of the catalog stage. The evaluator and the functions
 * see a compilation only through `CatalogRuntime`; the catalog operations (src/catalog/ops) see
 * the evaluator only through `ExpressionEvaluator`. Nothing here imports an implementation, so
 * the compiler, the evaluator, the operations and the functions do not import each other in a
 * cycle.
 */

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'err' | 'alert' | 'crit' | 'emerg';

/** How a resource is declared: `file {}`, `@file {}` or `@@file {}`. */
export type DeclarationMode = 'real' | 'virtual' | 'exported';

/** One evaluated attribute operation (`name => value`, `name +> value`). */
export interface Attr {
    readonly name: string;
    readonly value: PuppetValue;
    readonly plus: boolean;
    readonly where: Where;
    /** The parameter it sets records no location (create_resources' parameters have none in Puppet). */
    readonly unlocated?: boolean;
}

/** A lambda with the scope it closes over. */
export interface Closure {
    readonly lambda: Lambda;
    readonly scope: Scope;
}

/** Expression evaluation, as code outside the evaluator (catalog operations, templates) may use it. */
export interface ExpressionEvaluator {
    evaluate(e: Expression, scope: Scope): PuppetValue;
    /** A block of statements; its value is the last statement's. */
    evalBlock(statements: readonly Expression[], scope: Scope): PuppetValue;
    /** A list where `*expr` splices its elements in. */
    evalList(items: readonly Expression[], scope: Scope): PuppetValue[];
    /** A type expression; anything but a type is an error. */
    evalType(e: Expression, scope: Scope): PAnyType;
    /** Remembers the file of a program (positions of its nodes are reported in it). */
    registerProgram(program: Program, file: string): void;
    /** Where Puppet locates `node`. */
    where(node: AstNode): Where;
    /** `where(node)` without the column (as resources and log entries carry it), one object per node. */
    whereLine(node: AstNode): Where;
    /** A runtime failure as Puppet's located evaluation error of a `label` at `node`. */
    locate(err: unknown, node: AstNode, label: string | undefined): unknown;
    /** Calls a function (core or written in Puppet) by name. */
    invoke(name: string, args: PuppetValue[], block: Closure | undefined, scope: Scope, node: AstNode): PuppetValue;
    /** Calls a lambda in a new local scope of the scope it was written in. */
    callLambda(closure: Closure, args: PuppetValue[]): PuppetValue;
    /**
     * Puppet's own call stack (`Puppet::Pops::PuppetStack`), innermost first: a `[file, line]` frame
     * for each function call made from Puppet code and `[file, 0]` for a manifest's top-level code.
     */
    readonly puppetStack: ReadonlyArray<readonly [string, number]>;
    /** Runs `body` with a frame pushed on `puppetStack`. */
    withFrame<T>(file: string, line: number, body: () => T): T;
}

/**
 * The catalog statements and the catalog queries functions make: what the evaluator delegates
 * and `include`, `realize`, `create_resources`, `defined` call. Implemented by
 * `ops/catalog-ops.ts`, one file per concern behind it.
 */
export interface CatalogStatements {
    /** `type { title: ... }`, `Type { defaults }`, `Type[title] { overrides }`. */
    resourceExpression(e: ResourceExpression, scope: Scope, mode: DeclarationMode): PuppetValue;
    /** `class { name: ... }`. */
    classResource(e: ClassResource, scope: Scope): PuppetValue;
    /** `Type <| query |>` (and `<<| |>>`), with its overrides. */
    collect(e: CollectExpression, scope: Scope): PuppetValue;
    /** `a -> b`, `a ~> b`, `a <- b`, `a <~ b`. */
    relationship(e: RelationshipExpression, scope: Scope): PuppetValue;
    /** Declares one resource (classes go through the class path). */
    declare(typeName: string, titleValue: PuppetValue, attrs: Attr[], scope: Scope, mode: DeclarationMode, where: Where): CatalogResource | undefined;
    /** include / require / contain of one class name; returns the Class resource. */
    includeClass(name: string, scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource;
    /** Several classes in one call: all are added to the catalog before any body is evaluated. */
    includeClasses(names: readonly string[], scope: Scope, how: 'include' | 'require' | 'contain', where: Where | undefined): CatalogResource[];
    /** realize(): marks virtual resources real (now, or when they are declared later). */
    realize(refs: PuppetValue[]): void;
    /** Whether a resource (or class) is in the catalog. */
    isDeclared(type: string, title: string): boolean;
}

/** What the evaluator and the functions see of one compilation. */
export interface CatalogRuntime extends CatalogStatements {
    readonly env: Environment;
    readonly loader: Loader;
    /** The catalog being built. */
    readonly catalog: Catalog;
    readonly nodeName: string;
    readonly topScope: Scope;

    /** `$name`, `$::name`, `$cls::name` as seen from `scope`; undefined when unknown. */
    lookupVariable(name: string, scope: Scope): PuppetValue | undefined;
    /** `scope.lookupvar` for Ruby code: an unknown variable warns once per name. */
    scopeLookupvar(name: string, scope: Scope, where: Where | undefined, quiet?: boolean): PuppetValue | undefined;
    /** An unknown variable: an error under strict mode, else a warning and undef. */
    unknownVariable(name: string, where: Where): PuppetValue;
    setVariable(scope: Scope, name: string, value: PuppetValue, where: Where): void;

    /** A Puppet setting given to this compilation (`--setting NAME=VALUE`); undefined when left at its default. */
    setting(name: string): string | undefined;

    /** A type name as written (`Integer`, `File`, `Mod::Entry`): core type, resource type or alias. */
    resolveTypeName(name: string): PAnyType;
    /** Whether a resource type of this name exists: a core type, a module's Ruby type or a defined type. */
    isResourceType(name: string): boolean;
    /** A resource type implemented in Ruby: a core type, or a type from a module's lib/puppet/type. */
    resourceType(name: string): CoreType | undefined;
    /** Calls a module's Ruby function (lib/puppet/functions, lib/puppet/parser/functions); undefined when there is none. */
    callRubyFunction(name: string, args: PuppetValue[], block: Closure | undefined, scope: Scope, where: Where): PuppetValue | undefined;
    /** Calls a module's 3.x function only (lib/puppet/parser/functions); undefined when there is none. */
    callRubyFunction3(name: string, args: PuppetValue[], scope: Scope, where: Where): PuppetValue | undefined;
    readonly typeResolver: TypeNameResolver;

    log(level: LogLevel, message: string, where?: Where, source?: string): void;
    warnOnce(key: string, message: string, where?: Where): void;

    /** EPP output of the template being rendered. */
    renderOutput(s: string): void;
    /** Runs `f` collecting the EPP output it renders. */
    render(f: () => void): string;

    /** Calls a function written in Puppet. */
    callPuppetFunction(def: Definition<FunctionDefinition>, args: PuppetValue[], block: Closure | undefined, where: Where): PuppetValue;

    /** Asks the data binding; its warnings are logged and its errors become Puppet's. */
    /** `scope`: where the lookup is made from (Hiera interpolates variables as it sees them); default the top scope. */
    lookup(key: string, options: LookupOptions, scope?: Scope): LookupResult;
    /** The whole `lookup()` call, when the data binding does it (Hiera 5); undefined when it does not. */
    lookupCall(names: string | readonly string[], request: LookupCall, scope?: Scope): { readonly value: PuppetValue } | undefined;
    /** The context a lookup interpolates in. */
    lookupContext(): LookupContext;
    readonly lookupService: LookupService | undefined;
    /** The catalog store (storeconfigs): other nodes' exported resources and `Type[?? query]`; undefined without one. */
    readonly store: CatalogStore | undefined;
    /** Filled with every store query of the compile and the nodes whose resources answered. */
    readonly queryLog: QueryProvenance[] | undefined;
}
