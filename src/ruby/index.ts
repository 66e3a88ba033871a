/**
 * The Ruby interpreter modelc runs plugin code with: ERB templates and the `lib/` code of
 * modules (functions, resource types) are its clients.
 */
export { lex, type LexState, type Token } from './lexer.js';
export { Parser } from './parser.js';
export type { RNode } from './ast.js';
export { Interpreter, describe, type DynamicMethods } from './interpreter.js';
export { Classes, Exceptions, RObject, RProc, RRange, RSymbol, RubyError, rubyError, sym, type CallSite, type RValue } from './objects.js';
export { arity, str } from './methods/support.js';
export { parseRuby } from './program.js';
export { Frame, type Ctx } from './frame.js';
export { ancestors, type Limits } from './definitions.js';
export { evalWith, instantiate, Struct } from './methods/object-model.js';
export { ClassClass, ObjectClass, RClass, classOf, truthy, type Method, type RHash } from './objects.js';
export { inspect } from './inspect.js';
export { MersenneTwister } from './methods/random.js';
export { PluginRuntime } from './puppet/runtime.js';
export { resourceApiOwnTitlePatterns, SchemaRegistry, type DslTypeRegistry, type DslTypeBuilder, type DslAttributeBuilder, type DslTypeSchema } from './puppet/type-dsl.js';
export { PluginFailure, PluginCallError, raisedAs, type PluginHost, type PluginModule, type PuppetBlock, type ResourceInfo, type ScopeHost } from './puppet/host.js';
export type { Function3 } from './puppet/functions3.js';
export type { Function4 } from './puppet/functions4.js';
export { census, censusSummary, type CensusReport, type PluginResult } from './census.js';
export { toYaml as psychYaml } from './methods/serialize.js';
export type { DslProviderSpec, DslProviderInstance, DslResourceView } from './puppet/providers.js';
