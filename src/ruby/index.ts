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
