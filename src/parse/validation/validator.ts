import { AstUtils, type AstNode } from 'langium';
import type { AttributeOperation, ClassResource, Expression, Parameter, Program } from '../../../generated/langium/ast.js';
import { lowerStatements, type LoweredStatement } from '../lowering/statements.js';
import { shapeOf } from '../lowering/resources.js';
import { readNumber } from '../pn/pn-format.js';
import { startOf, type Report } from './check-program.js';
import { validateArm8 } from './arm8.js';
import { aAn, label } from './labels.js';
import { allNodes } from '../lowering/walk.js';
import { externalSyntaxError, externalSyntaxWarnings } from './syntax-checkers.js';

const PARAM_NAME = /^[a-z_]\w*$/;
const VAR_NAME = /^(?:(?:::)?[a-z]\w*)*(?:(?:::)?[a-z_]\w*)$/;
// Puppet's Patterns::NUMERIC_VAR_NAME: a decimal without leading zeros
const NUMERIC_VAR_NAME = /^(?:0|[1-9]\d*)$/;
const MAX_INTEGER = 0x7fffffffffffffffn;
const MIN_INTEGER = -0x8000000000000000n;
const RESERVED_PARAMETERS: ReadonlySet<string> = new Set(['name', 'title']);

/** Puppet's `idem`: the expression is known to have no effect when its value is dropped. */
function idem(e: Expression): boolean {
    switch (e.$type) {
        case 'StringLiteral': case 'WordLiteral': case 'NumberLiteral': case 'BooleanLiteral': case 'UndefLiteral':
        case 'DefaultLiteral': case 'RegexLiteral': case 'QualifiedName': case 'TypeReference': case 'VariableExpression':
        case 'ArrayLiteral': case 'HashLiteral': case 'AccessExpression': case 'ConcatString': case 'Heredoc':
        case 'SelectorExpression': case 'NotExpression': case 'UnaryMinusExpression': case 'UnfoldExpression':
        case 'LogicalExpression': case 'DottedName': case 'KeywordLiteral':
            return true;
        case 'BinaryExpression':
            return e.operator !== '=~' && e.operator !== '!~';
        case 'ParenExpression':
            return idem(e.expr);
        case 'IfExpression':
            return idem(e.test) && lowerStatements(e.then).every(idemStatement)
                && lowerStatements(e.else).every(idemStatement) && e.elsif === undefined;
        default:
            return false;
    }
}

function idemStatement(s: LoweredStatement): boolean {
    return s.kind === 'expr' && idem(s.expr);
}

/** Where Puppet positions an expression: binary expressions at their operator. */
function positionOf(e: AstNode): number {
    if (e.$type === 'BinaryExpression' || e.$type === 'LogicalExpression' || e.$type === 'AssignmentExpression' || e.$type === 'HashEntry') {
        const b = e as unknown as { left?: AstNode; key?: AstNode; operator?: string };
        const left = b.left ?? b.key;
        const leftEnd = left?.$cstNode?.end ?? startOf(e);
        const text = AstUtils.findRootNode(e).$cstNode?.text ?? '';
        const at = text.indexOf(b.operator ?? '=>', leftEnd);
        return at >= 0 ? at : startOf(e);
    }
    if (e.$type === 'Parameter') {
        const cst = e.$cstNode as { content?: ReadonlyArray<{ text: string; offset: number }> } | undefined;
        const variable = cst?.content?.find(c => c.text.startsWith('$'));
        if (variable) {
            return variable.offset;
        }
    }
    return startOf(e);
}

function definitionLabel(node: AstNode): string {
    switch (node.$type) {
        case 'ClassDefinition': return 'Host Class Definition';
        case 'DefineDefinition': return '\'define\' expression';
        case 'NodeDefinition': return 'Node Definition';
        case 'FunctionDefinition': return 'Function Definition';
        default: return 'Expression';
    }
}

/** Puppet's checker4_0 rules over a program that parsed cleanly. */
export function validateProgram(program: Program, report: Report, nodes: readonly AstNode[] = allNodes(program)): void {
    const error = (node: AstNode, code: Parameters<Report>[1], ...args: string[]): void => report('error', code, positionOf(node), ...args);
    // A template's parameters are those of the lambda Puppet makes of it, checked before its body.
    if (program.epp && program.hasParams) checkParameters(program.params, error, undefined);
    for (const node of nodes) {
        checkStatementLists(node, error);
        switch (node.$type) {
            case 'AssignmentExpression': {
                const a = node as Extract<Expression, { $type: 'AssignmentExpression' }>;
                if (a.operator !== '=') {
                    error(a, 'VALIDATE_APPENDS_DELETES_NO_LONGER_SUPPORTED', a.operator);
                } else {
                    checkAssignable(a.left, error);
                }
                break;
            }
            case 'VariableExpression': {
                const name = (node as Extract<Expression, { $type: 'VariableExpression' }>).name;
                if (/^\d/.test(name)) {
                    if (!NUMERIC_VAR_NAME.test(name)) {
                        error(node, 'VALIDATE_ILLEGAL_NUMERIC_VAR_NAME', name);
                    }
                } else if (!VAR_NAME.test(name)) {
                    error(node, 'VALIDATE_ILLEGAL_VAR_NAME', name);
                }
                break;
            }
            case 'ClassDefinition':
            case 'DefineDefinition':
            case 'NodeDefinition':
                checkTopLevel(node, error);
                checkDefinition(node, error);
                break;
            case 'FunctionDefinition':
            case 'TypeAlias':
            case 'TypeDefinition':
                if (node.$container?.$type !== 'Program') {
                    error(node, 'VALIDATE_NOT_ABSOLUTE_TOP_LEVEL', node.$type === 'FunctionDefinition' ? 'A Function Definition' : 'A Type Definition');
                }
                if (node.$type === 'FunctionDefinition') {
                    checkParameters((node as Extract<Expression, { $type: 'FunctionDefinition' }>).params, error, undefined);
                }
                break;
            case 'CallFunctionExpression': {
                // A call names its function, or a type (Integer(...), Init[Integer](...)): nothing else is called.
                const f = (node as Extract<Expression, { $type: 'CallFunctionExpression' }>).functor;
                const callsType = f.$type === 'TypeReference' || (f.$type === 'AccessExpression' && f.left.$type === 'TypeReference');
                if (f.$type === 'RenderString') {
                    // Text before an EPP template's parameter list reads as a call of the text.
                    error(node, 'VALIDATE_ILLEGAL_EPP_PARAMETERS');
                } else if (!callsType && f.$type !== 'QualifiedName' && f.$type !== 'TypeFunctionName') {
                    error(f, 'VALIDATE_ILLEGAL_EXPRESSION', aAn(label(f), true), 'function name', aAn(label(node as Expression)));
                }
                break;
            }
            case 'Lambda':
                checkParameters((node as unknown as { params: Parameter[] }).params, error, undefined);
                break;
            case 'HashLiteral': {
                const seen = new Set<string>();
                for (const entry of (node as Extract<Expression, { $type: 'HashLiteral' }>).entries) {
                    const key = literalKey(entry.key);
                    if (key !== undefined) {
                        if (seen.has(key)) {
                            report('warning', 'VALIDATE_DUPLICATE_KEY', positionOf(entry), key);
                        }
                        seen.add(key);
                    }
                }
                break;
            }
            case 'SelectorExpression': {
                const defaults = (node as Extract<Expression, { $type: 'SelectorExpression' }>).entries.filter(en => en.matching.$type === 'DefaultLiteral');
                if (defaults[1]) {
                    error(defaults[1].matching, 'VALIDATE_DUPLICATE_DEFAULT', 'Selector Expression');
                }
                break;
            }
            case 'CaseExpression': {
                const values = (node as Extract<Expression, { $type: 'CaseExpression' }>).options.flatMap(o => o.values).filter(v => v.$type === 'DefaultLiteral');
                if (values[1]) {
                    error(values[1], 'VALIDATE_DUPLICATE_DEFAULT', '\'case\' statement');
                }
                break;
            }
            case 'NumberLiteral': {
                // Puppet's NUMERIC_OVERFLOW: an integer literal must fit Puppet's 64-bit Integer
                const n = readNumber((node as Extract<Expression, { $type: 'NumberLiteral' }>).value);
                const v = n.kind === 'int' ? n.int : undefined;
                if (v !== undefined && (v > MAX_INTEGER || v < MIN_INTEGER)) {
                    const hex = `${v < 0n ? '-' : '+'}0x${(v < 0n ? -v : v).toString(16)}`;
                    error(node, 'VALIDATE_NUMERIC_OVERFLOW', 'A Literal Integer', v > MAX_INTEGER ? 'max' : 'min', hex);
                }
                break;
            }
            case 'Heredoc': {
                // Static text is checked now; interpolated text when it is evaluated.
                const h = node as Extract<Expression, { $type: 'Heredoc' }>;
                if (h.syntax !== '' && h.text.$type === 'StringLiteral') {
                    const problem = externalSyntaxError(h.syntax, h.text.value);
                    if (!problem?.refused) for (const w of externalSyntaxWarnings(h.syntax, h.text.value)) report.other?.(w);
                    if (problem !== undefined) {
                        // Puppet places the text at the start of its first line, before any margin.
                        // The whole text (the root node's own text ends with its last token, which may come before a body).
                        const source = h.$cstNode?.root.fullText ?? '';
                        const lineStart = source.lastIndexOf('\n', startOf(h.text) - 1) + 1;
                        const code = problem.refused ? 'VALIDATE_SYNTAX_CHECKER_REFUSED' : `VALIDATE_ILLEGAL_${problem.checker.toUpperCase() as Uppercase<typeof problem.checker>}` as const;
                        report('error', code, lineStart, problem.message);
                    }
                }
                break;
            }
            case 'ReservedWord':
                error(node, 'VALIDATE_RESERVED_WORD', (node as Extract<Expression, { $type: 'ReservedWord' }>).word);
                break;
            case 'VirtualResource': {
                let inner = (node as Extract<Expression, { $type: 'VirtualResource' }>).expr;
                while (inner.$type === 'VirtualResource') {
                    inner = inner.expr;
                }
                if (inner.$type === 'ClassResource') {
                    error(node, 'VALIDATE_CLASS_NOT_VIRTUALIZABLE');
                } else if (inner.$type === 'ResourceExpression' && inner.bodies.length === 0) {
                    error(node, 'VALIDATE_NOT_VIRTUALIZEABLE');
                } else if (inner.$type === 'ResourceExpression' && inner.typeExpr.$type === 'QualifiedName' && inner.typeExpr.value === 'class') {
                    error(node, 'VALIDATE_CLASS_NOT_VIRTUALIZABLE');
                }
                break;
            }
            case 'ResourceExpression': {
                const r = node as Extract<Expression, { $type: 'ResourceExpression' }>;
                if (r.bodies.length === 0) {
                    const shape = shapeOf(r.typeExpr, r.ops);
                    if (shape === 'name-and-hash' && r.typeExpr.$type === 'QualifiedName') {
                        error(r, 'VALIDATE_RESOURCE_WITHOUT_TITLE', r.typeExpr.value);
                    }
                    // Puppet allows `+>` only in overrides (`Ref[...] {}`, `Type <| |> {}`)
                    if (shape === 'defaults') {
                        checkNoAppend(r.ops, 'a Resource Defaults Expression', error);
                    }
                } else {
                    for (const body of r.bodies) {
                        checkNoAppend(body.ops, 'a Resource Instance Definition', error);
                    }
                }
                break;
            }
            case 'ClassResource':
                for (const body of (node as ClassResource).bodies) {
                    checkNoAppend(body.ops, 'a Resource Instance Definition', error);
                }
                break;
            default:
                break;
        }
    }
    validateArm8(program, report, nodes);
}

type ErrorFn = (node: AstNode, code: Parameters<Report>[1], ...args: string[]) => void;

function checkNoAppend(ops: readonly AttributeOperation[], where: string, error: ErrorFn): void {
    for (const op of ops) {
        if (op.$type === 'AttributeAssign' && op.operator === '+>') {
            error(op, 'VALIDATE_ILLEGAL_ATTRIBUTE_APPEND', op.name, where);
        }
    }
}

function literalKey(e: Expression): string | undefined {
    switch (e.$type) {
        case 'StringLiteral': case 'WordLiteral': return e.value;
        case 'QualifiedName': return e.value;
        case 'NumberLiteral': { const n = readNumber(e.value); return n.kind === 'int' ? String(n.int) : String(n.float); }
        default: return undefined;
    }
}

function checkAssignable(e: Expression, error: ErrorFn): void {
    switch (e.$type) {
        case 'VariableExpression':
            if (NUMERIC_VAR_NAME.test(e.name)) {
                error(e, 'VALIDATE_ILLEGAL_NUMERIC_ASSIGNMENT', e.name);
            } else if (e.name.includes('::')) {
                error(e, 'VALIDATE_CROSS_SCOPE_ASSIGNMENT', e.name);
            }
            return;
        case 'AccessExpression':
            error(e, 'VALIDATE_ILLEGAL_INDEXED_ASSIGNMENT');
            return;
        case 'ArrayLiteral':
            for (const v of e.elements) {
                checkAssignable(v, error);
            }
            return;
        default:
            error(e, 'VALIDATE_ILLEGAL_ASSIGNMENT', aAn(label(e)));
    }
}

/** Every statement list: values dropped before the end, and titleless resources. */
function checkStatementLists(node: AstNode, error: ErrorFn): void {
    const lists: Array<readonly Expression[]> = [];
    const n = node as unknown as Record<string, unknown>;
    for (const key of ['statements', 'body', 'then', 'else']) {
        const v = n[key];
        if (Array.isArray(v) && (key !== 'body' || node.$type !== 'Lambda' || v.length > 0)) {
            lists.push(v as Expression[]);
        }
    }
    for (const list of lists) {
        const lowered = lowerStatements(list);
        // Puppet checks the definition before the block it holds: its last statement first.
        const last = lowered[lowered.length - 1];
        const isDefinitionBody = node.$type === 'ClassDefinition' || node.$type === 'DefineDefinition' || node.$type === 'NodeDefinition';
        if (isDefinitionBody && last && last.kind === 'expr' && idem(last.expr)) {
            error(last.expr, 'VALIDATE_IDEM_NOT_ALLOWED_LAST', label(last.expr), aAn(definitionLabel(node), true));
        }
        if (lowered.length > 1) {
            const forgotten = lowered.slice(0, -1).find(idemStatement);
            if (forgotten && forgotten.kind === 'expr') {
                error(forgotten.expr, 'VALIDATE_IDEM_EXPRESSION_NOT_LAST', label(forgotten.expr));
            }
        }
    }
}

function checkTopLevel(node: AstNode, error: ErrorFn): void {
    const container = node.$container;
    if (container && container.$type !== 'Program' && container.$type !== 'ClassDefinition') {
        error(node, 'VALIDATE_NOT_TOP_LEVEL');
    }
}

function checkDefinition(node: AstNode, error: ErrorFn): void {
    if (node.$type === 'NodeDefinition') {
        return;
    }
    const params = (node as unknown as { params: Parameter[] }).params;
    const container = node.$type === 'ClassDefinition' ? 'the Host Class Definition' : 'the \'define\' expression';
    for (const p of params) {
        if (RESERVED_PARAMETERS.has(p.name)) {
            error(p, 'VALIDATE_RESERVED_PARAMETER', p.name, container);
        }
        if (p.splat) {
            error(p, 'VALIDATE_CAPTURES_REST_NOT_SUPPORTED', p.name, node.$type === 'ClassDefinition' ? 'a Host Class Definition' : 'a \'define\' expression');
        }
    }
    checkParameters(params, error, container);
}

function checkParameters(params: readonly Parameter[], error: ErrorFn, _container: string | undefined): void {
    const seen = new Set<string>();
    for (const p of params) {
        if (!PARAM_NAME.test(p.name)) {
            error(p, 'VALIDATE_ILLEGAL_PARAM_NAME', p.name);
        }
        if (seen.has(p.name)) {
            error(p, 'VALIDATE_DUPLICATE_PARAMETER', p.name);
        }
        seen.add(p.name);
    }
}
