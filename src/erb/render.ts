import type { PuppetValue } from '../values/index.js';
import { hostObjects, type ErbHost } from './host.js';
import { Interpreter } from '../ruby/index.js';
import type { RValue } from '../ruby/index.js';
import { Parser } from '../ruby/index.js';
import { scanTemplate } from './template.js';
import type { RNode } from '../ruby/index.js';

/** A parsed template, reusable across renderings (a template file is parsed once per compilation). */
export interface ErbTemplate {
    readonly program: RNode[];
}

/** Parses a template; a Ruby syntax error is thrown as a RubyError of class ScriptError with its line. */
export function parseErb(text: string): ErbTemplate {
    const { tokens, eofLine } = scanTemplate(text);
    return { program: Parser.parseProgram(tokens, eofLine) };
}

/** Renders a template against a host; Ruby exceptions leave as RubyError (with the template line). */
export function renderErb(template: ErbTemplate, host: ErbHost): string {
    const { self, dynamic } = hostObjects(host);
    const ivars = new Map<string, RValue>();
    for (const [name, value] of host.variables) {
        // Puppet names instance variables after the variable, non-word characters replaced.
        if (value !== null) ivars.set(name.replace(/[^\w]/g, '_'), value as PuppetValue);
    }
    return new Interpreter({ self, ivars, dynamic }).run(template.program);
}
