import type { DefineDefinition, Parameter } from '../../../generated/langium/ast.js';
import { describeMismatch, formatMismatches, isInstance } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { METAPARAMS } from '../core-types.js';
import { CompileError, PuppetFailure, RuntimeFailure, whereSuffix } from '../errors.js';
import { programOf } from '../evaluator/ast-util.js';
import { BreakSignal, NextSignal, ReturnSignal } from '../evaluator/signals.js';
import { CatalogIssues } from '../issues.js';
import type { Definition } from '../loader.js';
import { OverrideFailure } from '../override-rules.js';
import type { CatalogResource } from '../resource.js';
import type { Attr } from '../runtime.js';
import { Scope } from '../scope.js';
import { setModuleNames, storedDefault } from './attributes.js';
import { boundResourceParameter } from '../bound-catalog.js';
import type { OpsState } from './state.js';

/**
 * Checks a define instance's parameters: known names, required ones given, types. Puppet does
 * this when the instance is evaluated (lazily, after the code declaring it has run), on the
 * parameters it then has (defaults and collector overrides included).
 */
export function validateDefineParams(s: OpsState, r: CatalogResource, def: Definition<DefineDefinition>, attrs: Attr[]): void {
    const params = def.ast.params;
    // Puppet lists every problem: the unknown names first (in the order given), then per
    // declared parameter a type mismatch or a missing value
    const problems: string[] = [];
    for (const a of attrs) {
        if (METAPARAMS.has(a.name) || a.name === 'name') continue;
        if (!params.some(x => x.name === a.name)) problems.push(CatalogIssues.EVAL_NO_PARAMETER_NAMED.message({ name: a.name }));
    }
    for (const p of params) {
        const a = attrs.find(x => x.name === p.name);
        if (!a) {
            // A parameter without a default needs a value (even an explicit undef) when the instance is declared.
            if (!p.value && !r.params.has(p.name)) problems.push(CatalogIssues.EVAL_EXPECTS_VALUE.message({ name: p.name }));
            continue;
        }
        if (p.type && a.value !== null) {
            const t = s.ev.evalType(p.type, s.rt.topScope);
            if (!isInstance(t, a.value)) problems.push(...formatMismatches(`parameter '${p.name}'`, describeMismatch(t, a.value)));
        }
    }
    if (problems.length) {
        throw new RuntimeFailure(CatalogIssues.EVAL_PARAMETER_PROBLEMS.message({ ref: r.ref, problems }), { file: r.where?.file ?? '', line: r.where?.line ?? 0 });
    }
}

/** The parameter check of a define instance never evaluated (an unrealized virtual one): Puppet runs it when it finishes the catalog. */
export function validateUnevaluatedDefine(s: OpsState, r: CatalogResource): void {
    const def = s.rt.loader.findDefine(r.type);
    if (!def) return;
    validateDefineParams(s, r, def, attrsOf(r));
}

const attrsOf = (r: CatalogResource): Attr[] => [...r.params].map(([name, p]) => ({ name, value: p.value, plus: false, where: r.where ?? { file: '', line: 0 } }));

/** Runs a define instance's body (once, in a generator pass). */
export function evaluateDefine(s: OpsState, r: CatalogResource): void {
    r.evaluated = true;
    const def = s.rt.loader.findDefine(r.type);
    if (!def) return;
    const declaring = r.scope ?? s.rt.topScope;
    const scope = new Scope('define', declaring, r, def.name);
    scope.moduleName = def.module;
    scope.callerModuleName = declaring.moduleName;
    scope.setLocal('title', r.title);
    const nameParam = r.param('name');
    scope.setLocal('name', nameParam === undefined || nameParam === null ? r.title : nameParam);
    setModuleNames(scope);
    s.ev.registerProgram(programOf(def.ast), def.file);
    const given = new Map<string, PuppetValue>();
    for (const [k, v] of r.params) if (!METAPARAMS.has(k) && k !== 'name') given.set(k, v.value);
    try {
        bindDefineParams(s, r, def.ast.params, given, scope);
    } catch (e) {
        if (e instanceof RuntimeFailure) throw s.ev.locate(new RuntimeFailure(e.message, e.where ?? r.where), def.ast, 'Resource Statement');
        throw e instanceof PuppetFailure ? wrapDefineError(e, r) : e;
    }
    try {
        s.ev.evalBlock(def.ast.body, scope);
    } catch (e) {
        // return() and next() end the body; a break() nothing caught fails as Puppet's evaluation of the body object does.
        if (e instanceof ReturnSignal || e instanceof NextSignal) return;
        if (e instanceof BreakSignal) throw breakInBody(e);
        throw wrapDefineError(e, r);
    }
}

/** A break() out of a define body: Puppet reports the evaluation of an Object failing, at the break. */
function breakInBody(e: BreakSignal): CompileError {
    const basic = CatalogIssues.EVAL_RUNTIME.message({ label: 'Object', detail: CatalogIssues.EVAL_ILLEGAL_CONTROL.message({ what: 'break' }) });
    const at = e.where ? { file: e.where.file, line: e.where.line } : undefined;
    return new CompileError('EVAL_RUNTIME', {
        message: basic + whereSuffix(at), file: at?.file, line: at?.line, issueCode: 'RUNTIME_ERROR', basic, rubyClass: 'Puppet::PreformattedError',
        log: { message: basic, file: at?.file, line: at?.line }
    });
}

/**
 * An evaluation error in a define body surfaces, as in Puppet, wrapped once more as a
 * failure of the instance's resource statement, located at the instance (file and line).
 */
function wrapDefineError(e: unknown, r: CatalogResource): unknown {
    if (!r.where) return e;
    // A ParseError that carries its own location (an override refused, an invalid tag) is wrapped as
    // the evaluator's own errors are.
    // So is a located parse failure (a file autoloaded by the body, a heredoc refused by its
    // syntax checker): its own text and place, without the "Could not parse" of a top-level report.
    const parseFailure = e instanceof CompileError && e.report.rubyClass === 'Puppet::ParseErrorWithIssue' && e.report.line !== undefined && e.report.basic !== undefined
        ? e.report.basic + whereSuffix({ file: e.report.file ?? '', line: e.report.line, column: e.report.pos }) : undefined;
    const wrapped = e instanceof CompileError && e.report.rubyClass === 'Puppet::PreformattedError' ? e.report.message
        : parseFailure !== undefined ? parseFailure
        : e instanceof OverrideFailure || (e instanceof PuppetFailure && e.causeClass === 'Puppet::ParseError' && e.where !== undefined) ? e.message : undefined;
    if (wrapped === undefined) return e;
    const basic = CatalogIssues.EVAL_RUNTIME.message({ label: 'Resource Statement', detail: wrapped });
    return new CompileError('EVAL_RUNTIME', {
        message: basic + whereSuffix({ file: r.where.file, line: r.where.line }), file: r.where.file, line: r.where.line,
        issueCode: 'RUNTIME_ERROR', basic, rubyClass: 'Puppet::PreformattedError', log: { message: basic, file: r.where.file, line: r.where.line }
    });
}

/**
 * Puppet's set_resource_parameters: the defaults of the parameters not given (or given undef) are
 * evaluated first, then given values and defaults are validated together, every problem listed:
 * the unknown names first, then per declared parameter a type mismatch or a missing value.
 */
function bindDefineParams(s: OpsState, r: CatalogResource, params: readonly Parameter[], given: Map<string, PuppetValue>, scope: Scope): void {
    const problems: string[] = [];
    for (const k of given.keys()) {
        if (!params.some(p => p.name === k)) problems.push(CatalogIssues.EVAL_NO_PARAMETER_NAMED.message({ name: k }));
    }
    for (const p of params) {
        let v = given.get(p.name);
        if (v === undefined) {
            // ARM-8 `bind parameters Type[title]` / `Type` supply what the declaration leaves out.
            const bound = boundResourceParameter(s.rt, r, p.name);
            if (bound) { v = bound.value; r.params.set(p.name, { value: v, origin: 'binding', key: bound.key }); }
        }
        if ((v === undefined || v === null) && p.value) {
            v = storedDefault(s, s.ev.evaluate(p.value, scope), p);
            if (v !== null) r.params.set(p.name, { value: v, origin: 'parameterDefault', where: s.ev.where(p) });
        }
        const type = p.type ? s.ev.evalType(p.type, scope) : undefined;
        if (v === undefined) {
            if (!given.has(p.name)) { problems.push(CatalogIssues.EVAL_EXPECTS_VALUE.message({ name: p.name })); continue; }
            v = null;
        }
        if (type && !isInstance(type, v)) problems.push(...formatMismatches(`parameter '${p.name}'`, describeMismatch(type, v)));
        scope.setLocal(p.name, v);
    }
    if (problems.length) throw new RuntimeFailure(CatalogIssues.EVAL_PARAMETER_PROBLEMS.message({ ref: r.ref, problems }));
}
