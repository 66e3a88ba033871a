import type { AstNode } from 'langium';
import type {
    AccessExpression, CallFunctionExpression, CallMethodExpression, CaseExpression, ConcatString, Expression, IfExpression,
    ElsifExpression, Lambda, Parameter, Program, SelectorExpression, VariableExpression
} from '../../../generated/langium/ast.js';
import { assertUnreachable } from '../../common/index.js';
import { externalSyntaxError, externalSyntaxWarnings } from '../../parse/index.js';
import { syntaxCheckFailure } from './syntax-check.js';
import { titledReferences } from './references.js';
import {
    capitalize, classNameError, coreType, describeClosureCall, describeMismatch, formatMismatches, formatValue, joinMismatchLines, isInstance, PAnyType, parameterize, PClassType, PResourceType,
    PTypeAliasType, rubyMessageValue, TypeConstructionError
} from '../../types/index.js';
import {
    compileRubyRegexp, dataClassName, formatFloat, hashGet, hashSet, PDefault, PObjectValue, PRegexp, PSemVerRange, PTimespan, PTimestamp, semverRangeIncludes, RubyRegexpError, type PuppetValue
} from '../../values/index.js';
import { CompileError, EvalIssue, evaluationError, PuppetFailure, RuntimeFailure, whereSuffix, type Where } from '../errors.js';
import type { FunctionContext, FunctionTable } from '../functions/function.js';
import type { CatalogRuntime, Closure, ExpressionEvaluator } from '../runtime.js';
import { article, CatalogIssues, puppetIssueOf } from '../issues.js';
import { Scope } from '../scope.js';
import { resourceParameters } from '../resource-access.js';
import { queryStore } from '../store-access.js';
import { checkSignature, legacyArguments } from '../functions/signatures.js';
import { parseNumber, statementsOf } from './ast-util.js';
import { label } from './labels.js';
import { Places } from './places.js';
import { BreakSignal, NextSignal, ReturnSignal } from './signals.js';
import { accessArray, accessString, type AccessContext } from './string-array-access.js';
import { assign } from './assignment.js';
import { binaryArith, caseOptionMatches, compare, equalsOperator, inOperator, isTruthy, objectAttribute, regexMatch } from './operators.js';

export { BreakSignal, NextSignal, ReturnSignal };

/**
 * Evaluates Puppet expressions (dispatch on the AST `$type`). Catalog statements (resources,
 * classes, collectors, relationships), variables and types are the runtime's; functions come
 * from the function table.
 */
export class Evaluator implements ExpressionEvaluator {
    /** Where each node is, in which file (see places.ts). */
    private readonly places = new Places();

    constructor(private readonly c: CatalogRuntime, private readonly functions: FunctionTable) {}

    /** Remembers the file of a program (positions of its nodes are reported in it). */
    registerProgram(program: Program, file: string): void {
        this.places.registerProgram(program, file);
    }

    fileOf(node: AstNode): string {
        return this.places.fileOf(node);
    }

    /** Where Puppet locates `node` (cached: a node is evaluated many times, its place never changes). */
    where(node: AstNode): Where {
        return this.places.where(node);
    }

    /** `where(node)` without the column; one object per node, shared by every resource declared there. */
    whereLine(node: AstNode): Where {
        return this.places.whereLine(node);
    }

    /** Evaluates a block of statements; the value is the last statement's. */
    evalBlock(statements: readonly Expression[], scope: Scope): PuppetValue {
        let last: PuppetValue = null;
        for (const s of statementsOf(statements)) {
            last = s.kind === 'call'
                ? this.located(s.functor.$container as Expression ?? s.functor, () => this.callNamed(s.functor.value, s.args, undefined, scope, s.functor), 'Function Call', s.functor)
                : this.evaluate(s.expr, scope);
        }
        return last;
    }

    /** Runs `f`, turning runtime failures into Puppet's located evaluation errors at `node`. */
    private located<T>(_e: Expression | AstNode, f: () => T, lbl: string | undefined, node: AstNode): T {
        try {
            return f();
        } catch (err) {
            throw this.locate(err, node, lbl);
        }
    }

    locate(err: unknown, node: AstNode, lbl: string | undefined): unknown {
        const raised = err instanceof TypeConstructionError && err.raised;
        if ((err instanceof RuntimeFailure || raised) && lbl !== undefined) {
            const where = (err instanceof RuntimeFailure ? err.where : undefined) ?? this.where(node);
            const basic = CatalogIssues.EVAL_RUNTIME.message({ label: lbl, detail: err.message });
            return new CompileError('EVAL_RUNTIME', {
                message: basic + whereSuffix(where), file: where.file, line: where.line, pos: where.column, issueCode: 'RUNTIME_ERROR',
                basic, rubyClass: 'Puppet::PreformattedError', log: { message: basic, file: where.file, line: where.line }
            });
        }
        if (err instanceof EvalIssue) {
            const where = err.where ?? this.where(node);
            const issue = puppetIssueOf(err.code);
            return evaluationError(err.code, issue, err.message, where);
        }
        if (err instanceof RangeError && /call stack/i.test(err.message)) {
            // The innermost statement that has stack left to build the error names the place.
            const where = this.where(node);
            const basic = `Evaluation Error: the evaluation nests too deeply (the call stack is exhausted) while evaluating a ${lbl ?? 'statement'}`;
            return new CompileError('EVAL_TOO_DEEP', {
                message: basic + whereSuffix(where), file: where.file, line: where.line, pos: where.column,
                basic, rubyClass: 'Puppet::Error', log: { message: basic, file: where.file, line: where.line }
            });
        }
        if (err instanceof TypeConstructionError) {
            const keys = (node as { keys?: AstNode[] }).keys;
            const at = err.argIndex !== undefined && keys?.[err.argIndex] ? keys[err.argIndex] : node;
            return evaluationError('EVAL_RUNTIME', err.issueCode, err.message, this.where(at));
        }
        return err;
    }

    evaluate(e: Expression, scope: Scope): PuppetValue {
        const lbl = label(e);
        if (lbl === undefined) {
            try {
                return this.evaluateInner(e, scope);
            } catch (err) {
                if (err instanceof EvalIssue || (err instanceof TypeConstructionError && !err.raised)) throw this.locate(err, e, lbl);
                // A type's constructor raising is reported at the access that parameterized it.
                if (err instanceof TypeConstructionError && e.$type === 'AccessExpression') throw this.locate(err, e, "'[]' expression");
                throw err;
            }
        }
        try {
            return this.evaluateInner(e, scope);
        } catch (err) {
            throw this.locate(err, e, lbl);
        }
    }

    private evaluateInner(e: Expression, scope: Scope): PuppetValue {
        const t = e.$type;
        switch (t) {
            case 'NumberLiteral': {
                const n = parseNumber(e.value);
                if (n === undefined) throw EvalIssue.of(CatalogIssues.EVAL_NOT_NUMERIC, { value: e.value });
                return n;
            }
            case 'StringLiteral': return e.value;
            case 'ConcatString': return this.interpolate(e, scope);
            case 'Heredoc': {
                const text = this.evaluate(e.text, scope);
                // Static text was checked by the validator; interpolated text is checked once produced.
                if (e.syntax !== '' && e.text.$type !== 'StringLiteral' && typeof text === 'string') {
                    const problem = externalSyntaxError(e.syntax, text);
                    // A refused syntax name fails the heredoc expression itself (an ArgumentError there).
                    if (problem?.refused) throw this.locate(new RuntimeFailure(problem.message), e, `'@(${e.syntax})' expression`);
                    // Puppet places the text at the start of its first line, before any margin.
                    // What the checker's parse warns of is logged with the manifest's file and no line.
                    for (const w of externalSyntaxWarnings(e.syntax, text)) this.c.log('warning', w.message, { file: this.where(e).file, line: 0 });
                    if (problem) throw syntaxCheckFailure(problem, { ...this.where(e.text), column: 1 });
                }
                return text;
            }
            case 'BooleanLiteral': return e.value === 'true';
            case 'UndefLiteral': return null;
            case 'DefaultLiteral': return PDefault.instance;
            case 'RegexLiteral': return new PRegexp(e.value);
            case 'QualifiedName': return e.value;
            case 'WordLiteral': return e.value;
            case 'DottedName': return e.value;
            case 'KeywordLiteral': return e.value;
            case 'ReservedWord': return e.word;
            case 'TypeFunctionName': return e.value;
            case 'TypeReference': {
                // A name that is no data type, type alias or resource type is an error (classes are no resource types).
                const t = this.c.resolveTypeName(e.value);
                if (t instanceof PResourceType && t.typeName !== null && t.title === null && !this.c.isResourceType(t.typeName)) {
                    throw new EvalIssue('EVAL_UNKNOWN_RESOURCE_TYPE', `Resource type not found: ${t.typeName}`);
                }
                return t;
            }
            case 'ArrayLiteral': return this.evalList(e.elements, scope);
            case 'HashLiteral': {
                const out = new Map<PuppetValue, PuppetValue>();
                for (const entry of e.entries) hashSet(out, this.evaluate(entry.key, scope), this.evaluate(entry.value, scope));
                return out;
            }
            case 'HashPair': return new Map([[this.evaluate(e.key, scope), this.evaluate(e.value, scope)]]);
            case 'CommaList': return this.evalList(e.items, scope);
            case 'ParenExpression': return this.evaluate(e.expr, scope);
            case 'VariableExpression': return this.variable(e, scope);
            case 'AssignmentExpression': {
                const value = this.evaluate(e.right, scope);
                assign(this.c, n => this.where(n), e.left, value, scope, this.where(e), e.right);
                return value;
            }
            case 'AccessExpression': return this.access(e, scope);
            case 'BinaryExpression': return this.binary(e, scope);
            case 'LogicalExpression': {
                const l = isTruthy(this.evaluate(e.left, scope));
                if (e.operator === 'and') return l && isTruthy(this.evaluate(e.right, scope));
                return l || isTruthy(this.evaluate(e.right, scope));
            }
            case 'NotExpression': return !isTruthy(this.evaluate(e.expr, scope));
            case 'UnaryMinusExpression': {
                const v = this.evaluate(e.expr, scope);
                return binaryArith('*', v, -1n, this.coercionWarning(e)) as PuppetValue;
            }
            case 'UnfoldExpression': {
                const v = this.evaluate(e.expr, scope);
                return Array.isArray(v) ? v : v instanceof Map ? [...v].map(([k, x]) => [k, x]) : [v];
            }
            case 'IfExpression': return this.ifExpr(e, scope);
            case 'UnlessExpression': {
                const level = scope.pushMatchLevel();
                try {
                    if (!isTruthy(this.evaluate(e.test, scope))) return this.evalBlock(e.then, scope);
                    return e.hasElse ? this.evalBlock(e.else, scope) : null;
                } finally {
                    scope.popMatchLevel(level);
                }
            }
            case 'CaseExpression': return this.caseExpr(e, scope);
            case 'SelectorExpression': return this.selector(e, scope);
            case 'CallFunctionExpression': return this.callFunction(e, scope);
            case 'CallMethodExpression': return this.callMethod(e, scope);
            case 'ResourceExpression': return this.c.resourceExpression(e, scope, 'real');
            case 'VirtualResource': {
                const inner = e.expr;
                if (inner.$type !== 'ResourceExpression') return this.evaluate(inner, scope);
                return this.c.resourceExpression(inner, scope, e.form === '@' ? 'virtual' : 'exported');
            }
            case 'ClassResource': return this.c.classResource(e, scope);
            case 'CollectExpression': return this.c.collect(e, scope);
            case 'RelationshipExpression': return this.c.relationship(e, scope);
            case 'ClassDefinition': case 'DefineDefinition': case 'FunctionDefinition': case 'NodeDefinition': case 'TypeDefinition':
                return null;
            case 'TypeAlias': return null;
            case 'RenderString': this.c.renderOutput(e.value); return null;
            case 'RenderExpression': {
                const v = e.expr ? this.evaluate(e.expr, scope) : this.evalBlock(e.body, scope);
                this.c.renderOutput(formatValue(v));
                return null;
            }
            default: return assertUnreachable(t);
        }
    }

    /** Evaluates a list where `*expr` splices its elements in. */
    evalList(items: readonly Expression[], scope: Scope): PuppetValue[] {
        if (!items.some(i => i.$type === 'UnfoldExpression')) {
            // Exactly as long as the list (values often end up in the catalog, one per resource).
            const exact = new Array<PuppetValue>(items.length);
            for (let i = 0; i < items.length; i++) exact[i] = this.evaluate(items[i], scope);
            return exact;
        }
        const out: PuppetValue[] = [];
        for (const item of items) {
            if (item.$type === 'UnfoldExpression') {
                const v = this.evaluate(item.expr, scope);
                if (Array.isArray(v)) out.push(...v);
                else if (v instanceof Map) out.push(...[...v].map(([k, x]): PuppetValue => [k, x]));
                else out.push(v);
            } else {
                out.push(this.evaluate(item, scope));
            }
        }
        return out;
    }

    interpolate(e: ConcatString, scope: Scope): string {
        let s = e.pre;
        const parts = e.parts;
        for (let i = 0; i < parts.length; i++) {
            const v = this.evaluate(parts[i], scope);
            s += typeof v === 'string' ? v : formatValue(v);
            if (i < e.mids.length) s += e.mids[i];
        }
        return s + e.post;
    }

    variable(e: VariableExpression, scope: Scope): PuppetValue {
        const name = e.name;
        if (/^\d+$/.test(name)) {
            const m = scope.matchVar(Number(name));
            return m === undefined ? null : m;
        }
        const v = this.c.lookupVariable(name, scope);
        if (v !== undefined) return v;
        return this.c.unknownVariable(name, this.where(e));
    }

    private access(e: AccessExpression, scope: Scope): PuppetValue {
        let left = this.evaluate(e.left, scope);
        // ARM-8 `Type[?? expr]`: other nodes' resources from the catalog store.
        if (e.query && left instanceof PResourceType && left.typeName !== null) return queryStore(this.c, this, capitalize(left.typeName), e.query.query, scope);
        let keys = this.evalList(e.keys, scope);
        // `Resource[File, [titles]]` is `File[[titles]]` and `Resource[File, t1, t2]` is `File[t1, t2]`: an array of references
        let viaResource = false;
        if (left instanceof PResourceType && left.typeName === null && (keys.length > 2 || (keys.length > 1 && keys.slice(1).some(k => Array.isArray(k))))) {
            left = parameterize(left, [keys[0]]);
            keys = keys.slice(1);
            viaResource = true;
        }
        // One title gives one reference; several, or titles in an array (even one), give an array.
        const many = keys.length !== 1 || keys.some(k => Array.isArray(k));
        if (typeof left === 'string' || Array.isArray(left)) {
            const cx: AccessContext = {
                key: i => this.where(e.keys[Math.min(i, e.keys.length - 1)] ?? e),
                left: this.where(e.left),
                coerced: (i, text, value) => this.coercionWarning(e.keys[Math.min(i, e.keys.length - 1)] ?? e)(text, value)
            };
            return typeof left === 'string' ? accessString(left, keys, cx) : accessArray(left, keys, cx);
        }
        if (left instanceof Map) {
            if (keys.length === 1) return hashGet(left, keys[0]) ?? null;
            return keys.map(k => hashGet(left, k)).filter((v): v is PuppetValue => v !== undefined);
        }
        if (left instanceof PResourceType && left.typeName !== null && left.title === null) {
            if (!this.c.isResourceType(left.typeName)) throw EvalIssue.of(CatalogIssues.EVAL_UNKNOWN_RESOURCE_TYPE, { type: left.typeName }, this.where(e));
            // `File[$x]`, the common case: one reference.
            if (!many && typeof keys[0] === 'string') return new PResourceType(left.typeName, keys[0]);
            const refs = titledReferences(left.typeName, keys, viaResource, e.keys.length, this.where(e));
            return many ? refs : refs[0] ?? null;
        }
        if (left instanceof PResourceType && left.typeName !== null && left.title !== null) {
            return resourceParameters(this.c, left as PResourceType & { typeName: string; title: string }, keys, this.where(e));
        }
        if (left instanceof PClassType && left.className !== null) {
            return resourceParameters(this.c, { typeName: 'Class', title: left.className }, keys, this.where(e));
        }
        if (left instanceof PClassType && left.className === null) {
            const names = (keys as PuppetValue[]).flat(Infinity as 1).filter(k => k !== null);
            const refs = names.map((n, i) => {
                if (typeof n !== 'string') throw classNameError(n, Math.min(i, e.keys.length - 1));
                return new PClassType(n.replace(/^::/, '').toLowerCase());
            });
            return many ? refs : refs[0] ?? null;
        }
        if (left instanceof PAnyType) return parameterize(left, keys);
        if (left === null) throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE, { op: '[]', operand: 'an Undef Value' });
        const kind = typeof left === 'bigint' ? 'Integer' : typeof left === 'number' ? 'Float' : typeof left === 'boolean' ? 'Boolean' : 'Object';
        throw EvalIssue.of(CatalogIssues.EVAL_OPERATOR_NOT_APPLICABLE, { op: '[]', operand: article(kind) });
    }

    /** Puppet's NUMERIC_COERCION when a string is used as a number: as the strict setting says (off: nothing). */
    private coercionWarning(node: AstNode): (text: string, value: bigint | number) => void {
        return (text, value) => {
            const strict = this.c.setting('strict') ?? 'warning', args = { text, value: typeof value === 'number' ? formatFloat(value) : String(value) };
            if (strict === 'off') return;
            if (strict === 'error') throw EvalIssue.of(CatalogIssues.EVAL_STRING_COERCED, args, this.where(node));
            this.c.log('warning', CatalogIssues.EVAL_STRING_COERCED.message(args), this.where(node));
        };
    }

    private binary(e: import('../../../generated/langium/ast.js').BinaryExpression, scope: Scope): PuppetValue {
        const l = this.evaluate(e.left, scope);
        const r = this.evaluate(e.right, scope);
        try {
            return this.binaryValues(e, l, r, scope);
        } catch (err) {
            // Puppet blames some operator failures on one operand.
            if (err instanceof EvalIssue && err.operand && !err.where) throw err.at(this.where(err.operand === 'left' ? e.left : e.right));
            throw err;
        }
    }

    private binaryValues(e: import('../../../generated/langium/ast.js').BinaryExpression, l: PuppetValue, r: PuppetValue, scope: Scope): PuppetValue {
        const op = e.operator;
        switch (op) {
            case '==': return equalsOperator(l, r);
            case '!=': return !equalsOperator(l, r);
            case '<': case '<=': case '>': case '>=': return compare(op, l, r);
            case '=~': case '!~': {
                const m = this.match(l, r, scope);
                return op === '=~' ? m : !m;
            }
            case 'in': return inOperator(l, r, groups => scope.setMatch(groups));
            default:
                try {
                    return binaryArith(op, l, r, this.coercionWarning(e));
                } catch (err) {
                    // Puppet blames a zero divisor on the right operand.
                    if (err instanceof EvalIssue && err.code === 'EVAL_DIV_BY_ZERO' && !err.where) throw err.at(this.where(e.right));
                    throw err;
                }
        }
    }

    /** `=~`: a regexp or pattern string sets the match variables; a type tests instance-of. */
    match(l: PuppetValue, r: PuppetValue, scope: Scope): boolean {
        if (r instanceof PAnyType) return isInstance(r, l);
        if (r instanceof PSemVerRange) return semverRangeIncludes(r.range, l);
        const re = r instanceof PRegexp ? r : typeof r === 'string' ? new PRegexp(r) : null;
        if (re === null) {
            throw EvalIssue.of(CatalogIssues.EVAL_MATCH_NOT_REGEXP, { cause: `no implicit conversion of ${valueKind(r)} into String` }, undefined, 'right');
        }
        if (typeof r === 'string') {
            // A string becomes a Regexp first: a pattern Ruby refuses is the right operand's fault.
            try { compileRubyRegexp(r); } catch (err) {
                if (err instanceof RubyRegexpError) throw EvalIssue.of(CatalogIssues.EVAL_MATCH_NOT_REGEXP, { cause: err.message }, undefined, 'right');
                throw err;
            }
        }
        if (typeof l !== 'string') {
            const kind = l === null ? 'Undef Value' : valueKind(l);
            throw EvalIssue.of(CatalogIssues.EVAL_MATCH_NOT_STRING, { operand: article(kind) }, undefined, 'left');
        }
        const groups = regexMatch(re, l);
        if (groups) scope.setMatch(groups);
        return groups !== null;
    }

    private ifExpr(e: IfExpression | ElsifExpression, scope: Scope): PuppetValue {
        const level = scope.pushMatchLevel();
        try {
            if (isTruthy(this.evaluate(e.test, scope))) return this.evalBlock(e.then, scope);
        } finally {
            scope.popMatchLevel(level);
        }
        if (e.elsif) return this.ifExpr(e.elsif, scope);
        return e.hasElse ? this.evalBlock(e.else, scope) : null;
    }

    /** Whether a case/selector option matches the test value (setting captures for regexps). */
    private optionMatches(option: PuppetValue, test: PuppetValue, scope: Scope): boolean {
        return !(option instanceof PDefault) && caseOptionMatches(option, test, m => scope.setMatch(m));
    }

    private caseExpr(e: CaseExpression, scope: Scope): PuppetValue {
        const test = this.evaluate(e.test, scope);
        const level = scope.pushMatchLevel();
        try {
            let fallback: Expression[] | undefined;
            for (const opt of e.options) {
                for (const ve of opt.values) {
                    if (ve.$type === 'DefaultLiteral') { fallback = opt.body; continue; }
                    const values = ve.$type === 'UnfoldExpression' ? this.evalList([ve], scope) : [this.evaluate(ve, scope)];
                    if (values.some(v => this.optionMatches(v, test, scope))) return this.evalBlock(opt.body, scope);
                }
            }
            return fallback ? this.evalBlock(fallback, scope) : null;
        } finally {
            scope.popMatchLevel(level);
        }
    }

    private selector(e: SelectorExpression, scope: Scope): PuppetValue {
        const test = this.evaluate(e.left, scope);
        const level = scope.pushMatchLevel();
        try {
            let fallback: Expression | undefined;
            for (const entry of e.entries) {
                if (entry.matching.$type === 'DefaultLiteral') { fallback = entry.value; continue; }
                const values = entry.matching.$type === 'UnfoldExpression' ? this.evalList([entry.matching], scope) : [this.evaluate(entry.matching, scope)];
                if (values.some(v => this.optionMatches(v, test, scope))) return this.evaluate(entry.value, scope);
            }
            if (fallback) return this.evaluate(fallback, scope);
        } finally {
            scope.popMatchLevel(level);
        }
        throw EvalIssue.of(CatalogIssues.EVAL_UNMATCHED_SELECTOR, { value: rubyMessageValue(test) });
    }

    private callFunction(e: CallFunctionExpression, scope: Scope): PuppetValue {
        const f = e.functor;
        if (f.$type === 'QualifiedName') return this.callNamed(f.value, e.args, e.lambda, scope, e);
        if (f.$type === 'TypeFunctionName') return this.callNamed('type', e.args, e.lambda, scope, e);
        if (f.$type === 'TypeReference') {
            const type = this.c.resolveTypeName(f.value);
            const args = this.evalList(e.args, scope);
            return this.invoke('new', [type, ...args], e.lambda ? { lambda: e.lambda, scope } : undefined, scope, e);
        }
        const callee = this.evaluate(f, scope);
        if (typeof callee === 'string') return this.callNamed(callee, e.args, e.lambda, scope, e);
        if (callee instanceof PAnyType) {
            return this.invoke('new', [callee, ...this.evalList(e.args, scope)], e.lambda ? { lambda: e.lambda, scope } : undefined, scope, e);
        }
        throw EvalIssue.of(CatalogIssues.EVAL_ILLEGAL_FUNCTION_CALL, {});
    }

    private callNamed(name: string, argExprs: readonly Expression[], lambda: Lambda | undefined, scope: Scope, node: AstNode): PuppetValue {
        const args = this.evalList(argExprs, scope);
        return this.invoke(name, args, lambda ? { lambda, scope } : undefined, scope, node);
    }

    private callMethod(e: CallMethodExpression, scope: Scope): PuppetValue {
        const receiver = this.evaluate(e.receiver, scope);
        const args = this.evalList(e.args, scope);
        if (receiver instanceof PObjectValue && receiver.methods?.has(e.method)) {
            const methods = receiver.methods;
            const closure = e.lambda ? { lambda: e.lambda, scope } : undefined;
            const where = this.where(e);
            return this.withFrame(where.file, where.line, () => methods.call(e.method, args, closure && ((...a: PuppetValue[]) => this.callLambda(closure, a))));
        }
        const attribute = args.length === 0 && !e.lambda ? objectAttribute(receiver, e.method) : undefined;
        if (attribute !== undefined) return attribute;
        return this.invoke(e.method, [receiver, ...args], e.lambda ? { lambda: e.lambda, scope } : undefined, scope, e);
    }

    private readonly frames: Array<readonly [string, number]> = [];
    get puppetStack(): ReadonlyArray<readonly [string, number]> {
        return this.frames;
    }

    withFrame<T>(file: string, line: number, body: () => T): T {
        this.frames.unshift([file, line]);
        try {
            return body();
        } finally {
            this.frames.shift();
        }
    }

    /** Calls a function by name from Puppet code: Puppet pushes a frame of the call's place while it runs. */
    invoke(name: string, args: PuppetValue[], block: Closure | undefined, scope: Scope, node: AstNode): PuppetValue {
        const where = this.where(node);
        return this.withFrame(where.file, where.line, () => this.invokeAt(name, args, block, scope, where));
    }

    private invokeAt(name: string, args: PuppetValue[], block: Closure | undefined, scope: Scope, where: Where): PuppetValue {
        const builtin = this.functions.get(name);
        if (builtin) {
            args = legacyArguments(name, args);
            // A typed lambda's parameter types take part in the dispatch (Puppet's block Callable type).
            const argumentMismatch = checkSignature(name, args, block?.lambda, block && this.paramTypes(block.lambda.params, block.scope));
            const ctx: FunctionContext = {
                scope, where, name, argumentMismatch, runtime: this.c, evaluator: this, functions: this.functions, callLambda: (cl, a) => this.callLambda(cl, a)
            };
            return builtin(ctx, args, block);
        }
        const def = this.c.loader.findFunction(name);
        if (def) return this.c.callPuppetFunction(def, args, block, where);
        const ruby = this.c.callRubyFunction(name, args, block, scope, where);
        if (ruby !== undefined) return ruby;
        throw EvalIssue.of(CatalogIssues.EVAL_UNKNOWN_FUNCTION, { name }, where);
    }

    /** Calls a lambda in a new local scope of the scope it was written in. */
    callLambda(cl: Closure, args: PuppetValue[]): PuppetValue {
        const local = new Scope('local', cl.scope, cl.scope.resource, cl.scope.className);
        local.moduleName = cl.scope.moduleName;
        this.bindLambdaParams(cl.lambda.params, args, local);
        try {
            return this.evalBlock(cl.lambda.body, local);
        } catch (err) {
            if (err instanceof NextSignal) return err.value;
            throw err;
        }
    }

    /** The declared types of parameters (null where untyped). */
    private paramTypes(params: readonly Parameter[], scope: Scope): Array<PAnyType | null> {
        return params.map(p => {
            const t = p.type ? this.evaluate(p.type, scope) : null;
            return t instanceof PAnyType ? t : null;
        });
    }

    private bindLambdaParams(params: readonly Parameter[], args: PuppetValue[], scope: Scope): void {
        // Untyped parameters, one argument each (`each |$x| ...`): nothing to check or default.
        if (args.length === params.length && params.every(p => !p.type && !p.splat)) {
            for (let i = 0; i < params.length; i++) scope.setLocal(params[i].name, args[i]);
            return;
        }
        // Given arguments are checked together, as the lambda's one signature ('block' in Puppet's words).
        const types = this.paramTypes(params, scope);
        // Puppet binds the values first: a required parameter without one fails before any type check.
        const missing = params.find((p, i) => i >= args.length && !p.splat && !p.value);
        if (missing) throw EvalIssue.of(CatalogIssues.EVAL_MISSING_REQUIRED_PARAMETER, { name: missing.name }, this.where(missing));
        const given = params.some(p => p.splat) ? args : args.slice(0, params.length);
        const rejected = describeClosureCall('block', params.map((p, i) => ({ name: p.name, type: types[i], hasDefault: true, splat: p.splat })), given);
        if (rejected !== undefined) throw new RuntimeFailure(rejected);
        params.forEach((p, i) => {
            let v: PuppetValue;
            if (p.splat) v = args.slice(i);
            else if (i < args.length) v = args[i];
            else v = this.evaluate(p.value!, scope);
            const t = p.type ? types[i] : null;
            if (t !== null && !p.splat && !isInstance(t, v)) {
                throw new RuntimeFailure(joinMismatchLines(formatMismatches(`block parameter '${p.name}'`, describeMismatch(t, v))));
            }
            scope.setLocal(p.name, v);
        });
    }

    /** Evaluates a type expression, resolving names. */
    evalType(e: Expression, scope: Scope): PAnyType {
        const t = this.evaluate(e, scope);
        if (t instanceof PAnyType) return t;
        throw EvalIssue.of(CatalogIssues.EVAL_NOT_A_TYPE, { value: formatValue(t) });
    }
}

/** The type name Puppet's messages use for a value's class (Integer, String, Array, Hash, ...). */
function valueKind(v: PuppetValue): string {
    // Other Ruby objects by their class name's last segment.
    return dataClassName(v) ?? (v instanceof PAnyType ? 'Type' : v instanceof PRegexp ? 'Regexp' : v instanceof PTimespan ? 'Timespan' : v instanceof PTimestamp ? 'Timestamp' : 'Object');
}

export { capitalize, coreType, PTypeAliasType, PuppetFailure };
