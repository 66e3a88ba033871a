import { isAbsolute, join, sep } from 'node:path';
import { describeRuby, Exceptions, HostCallError, parseErb, renderErb, RubyError, type ErbHost, type ErbTemplate } from '../../erb/index.js';
import { parsePuppet, type ParseResult } from '../../parse/index.js';
import { describeMismatch, formatMismatches, isInstance, joinMismatchLines, PAnyType } from '../../types/index.js';
import { hashGet, PDefault, type PuppetValue } from '../../values/index.js';
import { CompileError, PuppetFailure, RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import { Scope } from '../scope.js';
import type { FunctionContext, PuppetFunction } from './function.js';
import { filePathText } from './support.js';

/** Evaluates an EPP template text with its declared parameters bound from `args`. */
function renderEpp(call: FunctionContext, parsed: ParseResult, file: string, args: PuppetValue, inline: boolean): string {
    const c = call.runtime;
    const ev = call.evaluator;
    const error = parsed.diagnostics.find(d => d.severity === 'error');
    if (error) {
        const shown = inline ? 'inlined-epp-text' : file;
        // The parser's "end of input" has no position.
        const at = error.code === 'PARSE_SYNTAX_ERROR' && /end of input/.test(error.message) ? undefined : error.at;
        throw new RuntimeFailure(CatalogIssues.EVAL_INVALID_EPP.message({ fname: inline ? 'inline_epp' : 'epp', detail: error.message, file: shown, at }));
    }
    const program = parsed.ast;
    ev.registerProgram(program, file);
    // An inline template sees the calling scope's variables (as a lambda would); a template file only top scope.
    const scope = new Scope('local', inline ? call.scope : c.topScope, call.scope.resource, '');
    const given = args instanceof Map ? args : new Map<PuppetValue, PuppetValue>();
    for (const p of program.params) {
        let v = hashGet(given, p.name);
        if (v === undefined) {
            if (p.value) v = ev.evaluate(p.value, scope);
            else throw new RuntimeFailure(CatalogIssues.EVAL_TEMPLATE_PARAMETER_MISSING.message({ name: p.name }));
        }
        if (p.type) {
            const t = ev.evaluate(p.type, scope);
            // Puppet checks template parameters as a lambda's.
            if (t instanceof PAnyType && !isInstance(t, v)) throw new RuntimeFailure(joinMismatchLines(formatMismatches(`lambda: parameter '${p.name}'`, describeMismatch(t, v))));
        }
        scope.setLocal(p.name, v);
    }
    if (!program.hasParams) for (const [k, v] of given) scope.setLocal(String(k), v);
    return c.render(() => { ev.evalBlock(program.statements, scope); });
}

/** `mod/file.erb` -> modules/mod/templates/file.erb; an absolute path is used as it is. */
function templatePath(call: FunctionContext, name: string): string {
    if (isAbsolute(name)) {
        if (call.runtime.loader.files.exists(name)) return name;
        // Puppet takes an absolute path as it is; reading the missing file fails inside Ruby's File.
        throw new RuntimeFailure(CatalogIssues.EVAL_TEMPLATE_FAILED.message({
            name, file: `${PUPPET_RUBY_DIR}file_system/file_impl.rb`, line: 83, detail: `No such file or directory @ rb_sysopen - ${name}`
        }));
    }
    const files = call.runtime.loader.files;
    // ARM-8's templatedir (an environment environments.pp chose) comes first, as Puppet 3's did;
    // Puppet 7 has none and looks in modules only.
    const templateDir = call.runtime.env.templateDir;
    if (templateDir !== undefined) {
        const inDir = join(templateDir, name);
        if (inDir.startsWith(templateDir.replace(/\/+$/, '') + sep) && files.exists(inDir)) return inDir;
    }
    const [module, ...rest] = name.split('/');
    const p = call.runtime.loader.moduleFile(module, 'templates', rest.join('/'));
    if (p && files.exists(p)) return p;
    throw new RuntimeFailure(CatalogIssues.EVAL_TEMPLATE_NOT_FOUND.message({ name }));
}

/** The template's view of the calling scope (Puppet's TemplateWrapper over the scope). */
function erbHost(call: FunctionContext, file: string | null): ErbHost {
    const c = call.runtime;
    const scope = call.scope;
    const resource = scope.resource;
    const variables = scope.visibleVariables();
    // Class main's scope has $title and $name, as every class scope.
    if (scope.kind === 'top') for (const n of ['title', 'name']) if (!variables.has(n)) variables.set(n, 'main');
    return {
        variables,
        scopeName: `Scope(${resource ? resource.ref : 'Class[main]'})`,
        file,
        lookupvar: (name, quiet) => c.scopeLookupvar(name, scope, call.where, quiet),
        callFunction: (name, args) => {
            const f = call.functions.get(name);
            if (f) {
                try {
                    return f({ ...call, name }, args, undefined);
                } catch (e) {
                    const site = PUPPET_RAISE_SITES[name];
                    if (site && e instanceof Error) throw new HostCallError(e.message, { file: `${PUPPET_RUBY_DIR}${site.file}`, line: site.line });
                    throw e;
                }
            }
            const def = c.loader.findFunction(name);
            if (def) return c.callPuppetFunction(def, args, undefined, call.where);
            const ruby = c.callRubyFunction(name, args, undefined, scope, call.where);
            if (ruby !== undefined) return ruby;
            throw new RuntimeFailure(CatalogIssues.EVAL_TEMPLATE_UNKNOWN_FUNCTION.message({ name }));
        },
        callFunction3: (name, args) => c.callRubyFunction3(name, args, scope, call.where),
        setvar: (name, value) => { c.setVariable(scope, name, value, call.where); },
        classes: () => [...c.catalog.classes],
        tags: () => [...c.catalog.tags]
    };
}

/** Where Debian's Puppet 7.23 keeps its own Ruby (a backtrace through it names these files). */
const PUPPET_RUBY_DIR = '/usr/lib/ruby/vendor_ruby/puppet/';

/**
 * The line of Puppet's own Ruby that raises when a template calls one of these functions and it
 * fails: `fail` raises the given message, `template` re-raises a nested template's failure.
 */
const PUPPET_RAISE_SITES: Readonly<Record<string, { file: string; line: number }>> = {
    fail: { file: 'parser/functions/fail.rb', line: 10 },
    template: { file: 'parser/functions/template.rb', line: 36 }
};

/** Puppet 3.x functions (template, inline_template) check their argument count with this message. */
function legacyArity(call: FunctionContext, args: PuppetValue[], min: number): void {
    if (args.length < min) throw new RuntimeFailure(CatalogIssues.EVAL_LEGACY_ARITY.message({ fname: call.name, count: args.length, min }));
}

/**
 * A template file parsed once while it is unchanged (in the environment's file cache, so a
 * define's template is not parsed per instance, nor per node of a batch); inline text each time.
 */
function parsedTemplate(call: FunctionContext, text: string | null, file: string | null): ErbTemplate {
    if (file === null) return parseErb(text ?? '');
    return call.runtime.loader.files.derive(file, 'erb', parseErb);
}

/** Puppet's messages for a failing template: syntax errors unwrapped, Ruby errors with the template's place. */
function renderErbText(call: FunctionContext, text: string | null, file: string | null, name: string | null): string {
    try {
        return renderErb(parsedTemplate(call, text, file), erbHost(call, file));
    } catch (e) {
        if (!(e instanceof RubyError)) throw e;
        const where = file ? call.runtime.loader.rel(file) : '(erb)';
        if (e.cls.isSubclassOf(Exceptions.ScriptError)) {
            const syntax = e.message.startsWith('syntax error');
            throw new PuppetFailure(syntax ? CatalogIssues.EVAL_ERB_SYNTAX.message({ file: where, line: e.line ?? 1, detail: e.message }) : e.message, undefined,
                syntax ? 'SyntaxError' : 'NotImplementedError');
        }
        if (name === null) throw new RuntimeFailure(CatalogIssues.EVAL_INLINE_TEMPLATE_FAILED.message({ detail: e.message }));
        // "Filepath" and "Line" are the first frame of the Ruby backtrace: the template, or the Ruby
        // file that raised (a module's function, or Puppet's own function a template called)
        const site = e.file !== undefined ? { file: e.file.startsWith('/') && !e.file.startsWith(PUPPET_RUBY_DIR) ? call.runtime.loader.rel(e.file) : e.file, line: e.line ?? 1 } : { file: where, line: e.line ?? 1 };
        throw new RuntimeFailure(CatalogIssues.EVAL_TEMPLATE_FAILED.message({ name, file: site.file, line: site.line, detail: e.message }));
    }
}

const INLINE_EPP_FILE = 'inlined-epp-text';

export const templateFunctions: Record<string, PuppetFunction> = {
    epp: (call, [name, args]) => {
        // A name that is no existing file gets the .epp extension it lacks.
        const given = String(name);
        const path = templatePath(call, /\.epp$/.test(given) || (isAbsolute(given) && call.runtime.loader.files.exists(given)) ? given : `${given}.epp`);
        const file = call.runtime.loader.rel(path);
        return renderEpp(call, call.runtime.loader.files.parse(path, { epp: true, display: file, compact: true }).result, file, args ?? null, false);
    },
    // Puppet names the text's own locations (warnings, errors inside it) 'inlined-epp-text'.
    inline_epp: (call, [text, args]) => renderEpp(call, parsePuppet(String(text), INLINE_EPP_FILE, { epp: true }), INLINE_EPP_FILE, args ?? null, true),
    template: (call, names) => {
        legacyArity(call, names, 1);
        // A 3.x function: an undef argument arrives as ''.
        return names.map(n => {
            const name = filePathText(call, n);
            return renderErbText(call, null, templatePath(call, name), name);
        }).join('');
    },
    inline_template: (call, texts) => {
        legacyArity(call, texts, 1);
        return texts.map(t => {
            if (t === null) return '';
            // ERB is handed the value as is; Ruby then fails asking it for its encoding.
            // default arrives as a Symbol, which has an encoding but no String#b.
            if (t instanceof PDefault) {
                throw new RuntimeFailure(CatalogIssues.EVAL_INLINE_TEMPLATE_FAILED.message({
                    detail: CatalogIssues.EVAL_RUBY_NO_METHOD.message({ method: 'b', receiver: describeRuby(t), line: '      s = s.b # see String#b' })
                }));
            }
            if (typeof t !== 'string') throw new RuntimeFailure(CatalogIssues.EVAL_INLINE_TEMPLATE_NOT_STRING.message({ value: describeRuby(t) }));
            return renderErbText(call, t, null, null);
        }).join('');
    }
};

export { CompileError };
