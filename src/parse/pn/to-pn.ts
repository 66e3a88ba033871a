import type {
    Arm8Definition, AttributeOperation, CaseOption, ConcatString, ElsifExpression, Expression, IfExpression, Lambda, Parameter,
    Program, ResourceBody, TypeAlias
} from '../../../generated/langium/ast.js';
import { assertUnreachable } from '../../common/index.js';
import { shapeOf } from '../lowering/resources.js';
import { lowerStatements, type LoweredStatement } from '../lowering/statements.js';
import { printArm8, printQuery, queryOperator, type Arm8Printers } from './arm8-pn.js';
import { pnCall, pnList, pnMap, pnString, readNumber, rubyFloat } from './pn-format.js';

/**
 * Prints the AST as Puppet Notation, exactly as `puppet parser dump --format pn` prints
 * Puppet's own model of the same source: Puppet's parse-time rewrites (statement calls,
 * titleless resources, `${name}` variables, type-alias object forms) are applied here.
 */
export function toPN(program: Program): string {
    const statements = program.arm8.length === 0 ? printStatements(program.statements, []) : printProgramWithArm8(program);
    if (program.epp) {
        const epp = pnCall('epp', ...statements);
        const params = program.params.length > 0 ? printParams(program.params, []) : undefined;
        return pnCall('lambda', pnMap([['params', params], ['body', pnList([epp])]]));
    }
    if (statements.length === 0) {
        return pnCall('nop');
    }
    return statements.length === 1 ? statements[0] as string : pnCall('block', ...statements);
}

/** Statements and ARM-8 definitions (kept apart in the AST) in source order. */
function printProgramWithArm8(program: Program): string[] {
    const offset = (n: { $cstNode?: { offset: number } }): number => n.$cstNode?.offset ?? 0;
    const out: Array<[number, string]> = [];
    let run: Expression[] = [];
    const flush = (): void => {
        const lowered = lowerStatements(run);
        lowered.forEach(s => out.push([offset(s.kind === 'call' ? s.functor : s.expr), printLowered(s, [])]));
        run = [];
    };
    const defs = [...program.arm8].sort((a, b) => offset(a) - offset(b));
    let d = 0;
    for (const stmt of program.statements) {
        while (d < defs.length && offset(defs[d] as Arm8Definition) < offset(stmt)) {
            flush();
            const def = defs[d++] as Arm8Definition;
            out.push([offset(def), printArm8(def, arm8Printers([]))]);
        }
        run.push(stmt);
    }
    flush();
    for (; d < defs.length; d++) {
        const def = defs[d] as Arm8Definition;
        out.push([offset(def), printArm8(def, arm8Printers([]))]);
    }
    return out.map(([, text]) => text);
}

function arm8Printers(ns: Namespace): Arm8Printers {
    return {
        expr: e => print(e, ns),
        statements: list => printStatements(list, ns),
        ops: ops => printOps(ops, ns),
        lambda: l => printLambda(l, ns),
        args: args => printArgs(args, ns)
    };
}

/** The enclosing class names, for the fully qualified names of nested definitions. */
type Namespace = readonly string[];

function qualify(ns: Namespace, name: string): string {
    return [...ns, name].join('::').replace(/^::/, '');
}

function printStatements(statements: readonly Expression[], ns: Namespace): string[] {
    return lowerStatements(statements).map(s => printLowered(s, ns));
}

function printLowered(s: LoweredStatement, ns: Namespace): string {
    if (s.kind === 'call') {
        return pnCall('invoke', pnMap([['functor', print(s.functor, ns)], ['args', pnList(printArgs(s.args, ns))]]));
    }
    if (s.expr.$type === 'CallFunctionExpression') {
        return printCall(s.expr.functor, s.expr.args, s.expr.lambda, 'invoke', ns);
    }
    return print(s.expr, ns);
}

/** A statement list as a PN body: a list, `[(nop)]` style handled by callers. */
function body(statements: readonly Expression[], ns: Namespace): string {
    return pnList(printStatements(statements, ns));
}

function optBody(statements: readonly Expression[], ns: Namespace): string | undefined {
    return statements.length === 0 ? undefined : body(statements, ns);
}

/** Arguments with adjacent `k => v` pairs folded into one hash (Puppet's Factory.ARGUMENTS). */
function printArgs(args: readonly Expression[], ns: Namespace): string[] {
    const out: string[] = [];
    let pairs: string[] | undefined;
    for (const a of args) {
        if (a.$type === 'HashPair') {
            const entry = pnCall('=>', print(a.key, ns), print(a.value, ns));
            if (pairs) {
                pairs.push(entry);
            } else {
                pairs = [entry];
                out.push('');
            }
            out[out.length - 1] = pnCall('hash', ...pairs);
        } else {
            pairs = undefined;
            out.push(print(a, ns));
        }
    }
    return out;
}

function printCall(functor: Expression, args: readonly Expression[], lambda: Lambda | undefined, kind: string, ns: Namespace): string {
    return pnCall(kind, pnMap([
        ['functor', print(functor, ns)],
        ['args', pnList(printArgs(args, ns))],
        ['block', lambda ? printLambda(lambda, ns) : undefined]
    ]));
}

function printLambda(l: Lambda, ns: Namespace): string {
    return pnCall('lambda', pnMap([
        ['params', l.params.length > 0 ? printParams(l.params, ns) : undefined],
        ['returns', l.returnType ? print(l.returnType, ns) : undefined],
        ['body', optBody(l.body, ns)]
    ]));
}

function printParams(params: readonly Parameter[], ns: Namespace): string {
    const entries: Array<[string, string]> = params.map(p => [p.name, pnMap([
        ['type', p.type ? print(p.type, ns) : undefined],
        ['splat', p.splat ? 'true' : undefined],
        ['value', p.value ? print(p.value, ns) : undefined]
    ])]);
    return pnMap(entries);
}

function printOps(ops: readonly AttributeOperation[], ns: Namespace): string {
    return pnList(ops.map(op => op.$type === 'AttributeAssign'
        ? pnCall(op.operator, pnString(op.name), print(op.value, ns))
        : pnCall('splat-hash', print(op.value, ns))));
}

function printBodies(bodies: readonly ResourceBody[], ns: Namespace): string {
    return pnList(bodies.map(b => pnMap([['title', print(b.title, ns)], ['ops', printOps(b.ops, ns)]])));
}

function withForm(form: string | undefined): string | undefined {
    return form === undefined ? undefined : pnString(form);
}

/** A resource-like expression, with the form given by enclosing `@`/`@@`. */
function printResource(e: Expression, form: string | undefined, ns: Namespace): string {
    if (e.$type === 'ClassResource') {
        return pnCall('resource', pnMap([['type', pnCall('qn', pnString('class'))], ['bodies', printBodies(e.bodies, ns)], ['form', withForm(form)]]));
    }
    if (e.$type !== 'ResourceExpression') {
        return print(e, ns);
    }
    if (e.bodies.length > 0) {
        return pnCall('resource', pnMap([['type', print(e.typeExpr, ns)], ['bodies', printBodies(e.bodies, ns)], ['form', withForm(form)]]));
    }
    const shape = shapeOf(e.typeExpr, e.ops);
    switch (shape) {
        case 'defaults':
            return pnCall('resource-defaults', pnMap([['type', print(e.typeExpr, ns)], ['ops', printOps(e.ops, ns)], ['form', withForm(form)]]));
        case 'override':
            return pnCall('resource-override', pnMap([['resources', print(e.typeExpr, ns)], ['ops', printOps(e.ops, ns)], ['form', withForm(form)]]));
        case 'call':
        case 'name-and-hash': {
            const hash = pnCall('hash', ...e.ops.map(op => pnCall('=>', op.$type === 'AttributeAssign' ? pnString(op.name) : pnCall('nop'), print(op.value, ns))));
            const name = print(e.typeExpr, ns);
            return shape === 'call'
                ? pnCall('invoke', pnMap([['functor', name], ['args', pnList([hash])]]))
                : pnCall('block', name, hash);
        }
        case 'plus-without-title':
        case 'invalid':
            // Rejected by the post-parse checks; printed in the resource shape for debugging.
            return pnCall('resource', pnMap([['type', print(e.typeExpr, ns)], ['bodies', pnList([])], ['form', withForm(form)]]));
        default:
            return assertUnreachable(shape);
    }
}

function printConcat(c: ConcatString, ns: Namespace): string {
    const segments: string[] = [];
    const text = (s: string): void => {
        if (s.length > 0) {
            segments.push(pnString(s));
        }
    };
    text(c.pre);
    c.parts.forEach((part, i) => {
        segments.push(pnCall('str', printInterpolated(part, ns)));
        text(i < c.mids.length ? c.mids[i] ?? '' : c.post);
    });
    return pnCall('concat', ...segments);
}

/** Whether Puppet's interpolation rewrite applies to this expression (is_interop_rewriteable?). */
function rewritable(e: Expression): boolean {
    switch (e.$type) {
        case 'AccessExpression':
        case 'QualifiedName':
        case 'CallMethodExpression':
            return true;
        case 'NumberLiteral': {
            const n = readNumber(e.value);
            return n.kind === 'int' && n.radix === 10;
        }
        default:
            return false;
    }
}

/** `${name}`, `${name[1]}`, `${name.m}`, `${3}`: names and decimal integers mean variables. */
function printInterpolated(e: Expression, ns: Namespace): string {
    switch (e.$type) {
        case 'QualifiedName':
            return pnCall('var', pnString(e.value));
        case 'NumberLiteral':
            return rewritable(e) ? pnCall('var', print(e, ns)) : print(e, ns);
        case 'AccessExpression':
            return pnCall('access', rewritable(e.left) ? printInterpolated(e.left, ns) : print(e.left, ns), ...printArgs(e.keys, ns));
        case 'CallMethodExpression': {
            const receiver = rewritable(e.receiver) ? printInterpolated(e.receiver, ns) : print(e.receiver, ns);
            return printMethodCall(receiver, e.method, e.args, e.lambda, ns);
        }
        default:
            return print(e, ns);
    }
}

function printMethodCall(receiver: string, method: string, args: readonly Expression[], lambda: Lambda | undefined, ns: Namespace): string {
    return pnCall('call-method', pnMap([
        ['functor', pnCall('.', receiver, pnCall('qn', pnString(method)))],
        ['args', pnList(printArgs(args, ns))],
        ['block', lambda ? printLambda(lambda, ns) : undefined]
    ]));
}

function printIf(e: IfExpression | ElsifExpression, ns: Namespace): string {
    let elseBody: string | undefined;
    if (e.elsif) {
        elseBody = pnList([printIf(e.elsif, ns)]);
    } else {
        elseBody = optBody(e.else, ns);
    }
    return pnCall('if', pnMap([['test', print(e.test, ns)], ['then', optBody(e.then, ns)], ['else', elseBody]]));
}

function printCaseOption(o: CaseOption, ns: Namespace): string {
    return pnMap([
        ['when', pnList(o.values.map(v => print(v, ns)))],
        ['then', o.body.length === 0 ? pnList([pnCall('nop')]) : body(o.body, ns)]
    ]);
}

function printTypeAlias(e: TypeAlias, ns: Namespace): string {
    let rhs: string;
    if (e.typeRef && e.hash) {
        const parent = e.typeRef.value;
        const entries = e.hash.entries.map(en => pnCall('=>', print(en.key, ns), print(en.value, ns)));
        if (parent !== 'Object' && parent !== 'TypeSet') {
            entries.push(pnCall('=>', pnCall('qn', pnString('parent')), print(e.typeRef, ns)));
            rhs = pnCall('access', pnCall('qr', pnString('Object')), pnCall('hash', ...entries));
        } else {
            rhs = pnCall('access', print(e.typeRef, ns), pnCall('hash', ...entries));
        }
    } else if (e.typeRef) {
        rhs = e.keys.length > 0 ? pnCall('access', print(e.typeRef, ns), ...printArgs(e.keys, ns)) : print(e.typeRef, ns);
    } else if (e.hash) {
        rhs = pnCall('access', pnCall('qr', pnString('Object')), print(e.hash, ns));
    } else if (e.array) {
        rhs = print(e.array, ns);
    } else {
        rhs = pnCall('nop');
    }
    if (e.lhs.$type === 'TypeReference') {
        return pnCall('type-alias', pnString(e.lhs.value), rhs);
    }
    return pnCall('type-mapping', print(e.lhs, ns), rhs);
}

function printNumber(text: string, negate: boolean): string {
    const n = readNumber(text);
    if (n.kind === 'float') {
        return rubyFloat(negate ? -(n.float ?? 0) : (n.float ?? 0));
    }
    const v = n.int ?? 0n;
    if (negate) {
        return String(-v);
    }
    return n.radix === 10 ? String(v) : pnCall('int', pnMap([['radix', String(n.radix)], ['value', String(v)]]));
}

/** One expression; statement-level rewrites are applied by the statement printers. */
export function print(e: Expression, ns: Namespace): string {
    switch (e.$type) {
        case 'AccessExpression':
            return e.query
                ? pnCall('access', print(e.left, ns), printQuery(e.query, { expr: q => print(q, ns) }))
                : pnCall('access', print(e.left, ns), ...printArgs(e.keys, ns));
        case 'ArrayLiteral':
            return pnCall('array', ...printArgs(e.elements, ns));
        case 'AssignmentExpression':
            return pnCall(e.operator, print(e.left, ns), print(e.right, ns));
        case 'BinaryExpression':
            return pnCall(queryOperator(e.operator), print(e.left, ns), print(e.right, ns));
        case 'LogicalExpression':
            return pnCall(e.operator, print(e.left, ns), print(e.right, ns));
        case 'RelationshipExpression':
            return pnCall(e.operator, print(e.left, ns), print(e.right, ns));
        case 'BooleanLiteral':
            return e.value;
        case 'CallFunctionExpression':
            return printCall(e.functor, e.args, e.lambda, 'call', ns);
        case 'CallMethodExpression':
            return printMethodCall(print(e.receiver, ns), e.method, e.args, e.lambda, ns);
        case 'CaseExpression':
            return pnCall('case', print(e.test, ns), pnList(e.options.map(o => printCaseOption(o, ns))));
        case 'ClassDefinition': {
            const name = qualify(ns, e.name);
            const inner = [...ns, e.name];
            return pnCall('class', pnMap([
                ['name', pnString(name)],
                ['parent', e.parent !== undefined ? pnString(e.parent) : undefined],
                ['params', e.params.length > 0 ? printParams(e.params, inner) : undefined],
                ['body', optBody(e.body, inner)]
            ]));
        }
        case 'DefineDefinition':
            return pnCall('define', pnMap([
                ['name', pnString(qualify(ns, e.name))],
                ['params', e.params.length > 0 ? printParams(e.params, ns) : undefined],
                ['body', optBody(e.body, ns)]
            ]));
        case 'FunctionDefinition':
            return pnCall('function', pnMap([
                ['name', pnString(e.name)],
                ['params', e.params.length > 0 ? printParams(e.params, ns) : undefined],
                ['body', optBody(e.body, ns)],
                ['returns', e.returnType ? print(e.returnType, ns) : undefined]
            ]));
        case 'NodeDefinition':
            return pnCall('node', pnMap([
                ['matches', pnList(e.hosts.map(h => print(h, ns)))],
                ['parent', e.parent ? print(e.parent, ns) : undefined],
                ['body', optBody(e.body, ns)]
            ]));
        case 'ClassResource':
        case 'ResourceExpression':
            return printResource(e, undefined, ns);
        case 'VirtualResource': {
            let inner: Expression = e.expr;
            while (inner.$type === 'VirtualResource') {
                inner = inner.expr;
            }
            return printResource(inner, e.form === '@' ? 'virtual' : 'exported', ns);
        }
        case 'CollectExpression': {
            const q = e.query;
            const query = pnCall(q.kind === '<|' ? 'virtual-query' : 'exported-query', ...(q.query ? [print(q.query, ns)] : []));
            return pnCall('collect', pnMap([['type', print(e.typeExpr, ns)], ['query', query], ['ops', e.ops.length > 0 ? printOps(e.ops, ns) : undefined]]));
        }
        case 'CommaList':
            return pnList(e.items.map(i => print(i, ns)));
        case 'ConcatString':
            return printConcat(e, ns);
        case 'DefaultLiteral':
            return pnCall('default');
        case 'DottedName':
            return pnString(e.value);
        case 'HashLiteral':
            return pnCall('hash', ...e.entries.map(en => pnCall('=>', print(en.key, ns), print(en.value, ns))));
        case 'HashPair':
            return pnCall('hash', pnCall('=>', print(e.key, ns), print(e.value, ns)));
        case 'Heredoc':
            return pnCall('heredoc', pnMap([['syntax', e.syntax !== '' ? pnString(e.syntax) : undefined], ['text', print(e.text, ns)]]));
        case 'IfExpression':
            return printIf(e, ns);
        case 'UnlessExpression':
            return pnCall('unless', pnMap([['test', print(e.test, ns)], ['then', optBody(e.then, ns)], ['else', optBody(e.else, ns)]]));
        case 'KeywordLiteral':
            return pnString(e.value);
        case 'NotExpression':
            return pnCall('!', print(e.expr, ns));
        case 'UnaryMinusExpression':
            return e.expr.$type === 'NumberLiteral' ? printNumber(e.expr.value, true) : pnCall('-', print(e.expr, ns));
        case 'UnfoldExpression':
            return pnCall('unfold', print(e.expr, ns));
        case 'NumberLiteral':
            return printNumber(e.value, false);
        case 'ParenExpression':
            return pnCall('paren', print(e.expr, ns));
        case 'QualifiedName':
            return pnCall('qn', pnString(e.value));
        case 'TypeFunctionName':
            return pnCall('qn', pnString(e.value));
        case 'TypeReference':
            return pnCall('qr', pnString(e.value));
        case 'RegexLiteral':
            return pnCall('regexp', pnString(e.value));
        case 'RenderString':
            return pnCall('render-s', pnString(e.value));
        case 'RenderExpression': {
            if (e.expr) {
                return pnCall('render', print(e.expr, ns));
            }
            const stmts = printStatements(e.body, ns);
            return pnCall('render', stmts.length === 1 ? stmts[0] as string : pnCall('block', ...stmts));
        }
        case 'ReservedWord':
            return pnCall('reserved', pnString(e.word));
        case 'SelectorExpression':
            return pnCall('?', print(e.left, ns), pnList(e.entries.map(en => pnCall('=>', print(en.matching, ns), print(en.value, ns)))));
        case 'StringLiteral':
        case 'WordLiteral':
            return pnString(e.value);
        case 'TypeAlias':
            return printTypeAlias(e, ns);
        case 'TypeDefinition':
            return pnCall('type-definition', pnString(e.name), e.parent !== undefined ? pnString(e.parent) : 'nil',
                e.body.length > 0 ? pnCall('block', ...printStatements(e.body, ns)) : pnCall('nop'));
        case 'UndefLiteral':
            return 'nil';
        case 'VariableExpression':
            return pnCall('var', pnString(e.name));
        default:
            return assertUnreachable(e);
    }
}
