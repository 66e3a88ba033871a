import type { RNode } from './ast.js';
import { lex } from './lexer.js';
import { Parser } from './parser.js';

/** Parses a Ruby source file (plugin code: class variables allowed). Syntax errors are RubyErrors with a line. */
export function parseRuby(text: string): RNode[] {
    const tokens = lex(text, 1, { locals: new Set(), plugin: true });
    return Parser.parseProgram(tokens);
}
