import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePuppet } from '../../parse/index.js';
import { describeMismatch, formatMismatches, isInstance, joinMismatchLines, PAnyType } from '../../types/index.js';
import { formatValue, hashGet, type PuppetValue } from '../../values/index.js';
import { CompileError, RuntimeFailure } from '../errors.js';
import { Scope } from '../scope.js';
import type { CallContext, PuppetFunction } from './function.js';

/** Evaluates an EPP template text with its declared parameters bound from `args`. */
function renderEpp(call: CallContext, text: string, file: string, args: PuppetValue, inline: boolean): string {
    const c = call.compiler;
    const parsed = parsePuppet(text, file, { epp: true });
    const error = parsed.diagnostics.find(d => d.severity === 'error');
    if (error) {
        const shown = inline ? 'inlined-epp-text' : file;
        throw new RuntimeFailure(`${inline ? 'inline_epp' : 'epp'}(): Invalid EPP: ${error.message} (file: ${shown}${error.at ? `, line: ${error.at.line}, column: ${error.at.column}` : ''})`);
    }
    const program = parsed.ast;
    c.evaluator.registerProgram(program, file);
    // An inline template sees the calling scope's variables (as a lambda would); a template file only top scope.
    const scope = new Scope('local', inline ? call.scope : c.topScope, call.scope.resource, '');
    const given = args instanceof Map ? args : new Map<PuppetValue, PuppetValue>();
    for (const p of program.params) {
        let v = hashGet(given, p.name);
        if (v === undefined) {
            if (p.value) v = c.evaluator.evaluate(p.value, scope);
            else throw new RuntimeFailure(`lambda: expects a value for parameter '${p.name}'`);
        }
        if (p.type) {
            const t = c.evaluator.evaluate(p.type, scope);
            // Puppet checks template parameters as a lambda's.
            if (t instanceof PAnyType && !isInstance(t, v)) throw new RuntimeFailure(joinMismatchLines(formatMismatches(`lambda: parameter '${p.name}'`, describeMismatch(t, v))));
        }
        scope.setLocal(p.name, v);
    }
    if (!program.hasParams) for (const [k, v] of given) scope.setLocal(String(k), v);
    return c.render(() => { c.evaluator.evalBlock(program.statements, scope); });
}

/** `mod/file.epp` -> modules/mod/templates/file.epp. */
function templatePath(call: CallContext, name: string): string {
    const [module, ...rest] = name.split('/');
    const p = call.compiler.loader.moduleFile(module, 'templates', rest.join('/'));
    if (p && existsSync(p)) return p;
    const envPath = join(call.compiler.env.dir, 'templates', name);
    if (existsSync(envPath)) return envPath;
    throw new RuntimeFailure(`Could not find template '${name}'`);
}

/** A minimal ERB: `<%= @var %>` and literal text; Ruby code cannot be evaluated here. */
function renderErb(call: CallContext, text: string): string {
    return text.replace(/<%=\s*@?([a-z_][\w:]*)\s*-?%>/g, (_m, name: string) => {
        const v = call.compiler.lookupVariable(name, call.scope);
        return v === undefined ? '' : formatValue(v);
    }).replace(/<%[^=][\s\S]*?%>/g, () => {
        throw new RuntimeFailure('ERB templates with Ruby code are not supported');
    });
}

export const templateFunctions: Record<string, PuppetFunction> = {
    epp: (call, [name, args]) => {
        const path = templatePath(call, String(name));
        return renderEpp(call, readFileSync(path, 'utf8'), call.compiler.loader.rel(path), args ?? null, false);
    },
    inline_epp: (call, [text, args]) => renderEpp(call, String(text), call.where.file, args ?? null, true),
    template: (call, names) => names.map(n => renderErb(call, readFileSync(templatePath(call, String(n)), 'utf8'))).join(''),
    inline_template: (call, texts) => {
        if (texts.some(t => /<%[^=]|<%=[^%]*[^\w\s@:%-][^%]*%>/.test(String(t)))) throw new RuntimeFailure('ERB templates with Ruby code are not supported');
        return texts.map(t => renderErb(call, String(t))).join('');
    }
};

export { CompileError };
