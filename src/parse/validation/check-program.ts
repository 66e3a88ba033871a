import type { Diagnostic } from '../../common/index.js';
import type { AstNode } from 'langium';
import type { Expression, Program } from '../../../generated/langium/ast.js';
import type { ParseIssueCode } from '../issues.js';
import { lowerStatements } from '../lowering/statements.js';
import { shapeOf } from '../lowering/resources.js';
import { validateProgram } from './validator.js';
import { allNodes } from '../lowering/walk.js';
import { numberTokenValid } from '../pn/pn-format.js';

export type Report = ((severity: 'error' | 'warning', code: ParseIssueCode, offset: number, ...args: string[]) => void) & {
    /** A diagnostic of another text (what a heredoc's syntax checker found in the heredoc's own text), as it is. */
    readonly other?: (d: Diagnostic) => void;
};

/** The start offset of a node; infix nodes share their chain's CST node, so use the left operand. */
export function startOf(node: AstNode): number {
    if ('left' in node && typeof node.left === 'object' && node.left !== null && '$type' in node.left) {
        return startOf(node.left as AstNode);
    }
    return node.$cstNode?.offset ?? 0;
}

/** Offset of the first keyword token `kw` directly inside a node's CST. */
export function keywordOffset(node: AstNode, kw: string): number | undefined {
    const cst = node.$cstNode;
    if (!cst || !('content' in cst)) {
        return undefined;
    }
    for (const child of (cst as { content: readonly { text: string; offset: number; grammarSource?: unknown }[] }).content) {
        if (child.text === kw) {
            return child.offset;
        }
    }
    return undefined;
}

function statementLists(node: AstNode): ReadonlyArray<readonly Expression[]> {
    switch (node.$type) {
        case 'Program': case 'ClassDefinition': case 'DefineDefinition': case 'FunctionDefinition':
        case 'NodeDefinition': case 'Lambda': case 'CaseOption': case 'TypeDefinition': case 'RenderExpression': {
            const n = node as unknown as { statements?: Expression[]; body?: Expression[] };
            return [n.statements ?? n.body ?? []];
        }
        case 'IfExpression': case 'ElsifExpression': case 'UnlessExpression': {
            const n = node as unknown as { then: Expression[]; else: Expression[] };
            return [n.then, n.else];
        }
        default:
            return [];
    }
}

/**
 * The errors Puppet's parser itself raises after parsing (its parse-time rewrites), then the
 * validator's checks when `validate` is set.
 */
export function checkProgram(program: Program, report: Report, validate: boolean, nodes: readonly AstNode[] = allNodes(program)): void {
    let parseErrors = false;
    const error = (code: ParseIssueCode, offset: number, ...args: string[]): void => {
        parseErrors = true;
        report('error', code, offset, ...args);
    };
    for (const node of nodes) {
        for (const list of statementLists(node)) {
            lowerStatements(list, e => {
                const comma = keywordOffset(e.list, ',') ?? startOf(e.list);
                if (e.code === 'PARSE_ARGS_TO_NON_CALL') {
                    error(e.code, comma, e.name ?? '');
                } else {
                    error(e.code, comma);
                }
            });
        }
        switch (node.$type) {
            case 'ResourceExpression': {
                const r = node as Extract<Expression, { $type: 'ResourceExpression' }>;
                if (r.bodies.length === 0) {
                    const shape = shapeOf(r.typeExpr, r.ops);
                    if (shape === 'plus-without-title') {
                        error('PARSE_RESOURCE_WITHOUT_TITLE', keywordOffset(r, '{') ?? startOf(r));
                    } else if (shape === 'invalid') {
                        error('PARSE_INVALID_RESOURCE_SHAPE', startOf(r.typeExpr));
                    }
                }
                break;
            }
            case 'ClassResource': {
                const r = node as Extract<Expression, { $type: 'ClassResource' }>;
                if (r.bodies.length === 0) {
                    // Puppet's grammar needs a titled body here, so it fails at the closing brace.
                    const end = r.$cstNode ? r.$cstNode.end - 1 : 0;
                    error('PARSE_SYNTAX_ERROR', end, r.ops.length > 0 ? `'${r.ops[0]?.$cstNode?.text.split(/\s/)[0] ?? '}'}'` : '\'}\'');
                }
                break;
            }
            case 'NumberLiteral': {
                const n = node as Extract<Expression, { $type: 'NumberLiteral' }>;
                if (!numberTokenValid(n.value)) error('PARSE_NUMBER_NOT_VALID', startOf(n), n.value);
                break;
            }
            case 'VirtualResource': {
                const v = node as Extract<Expression, { $type: 'VirtualResource' }>;
                if (!isResource(v.expr)) {
                    error(v.form === '@' ? 'PARSE_VIRTUAL_NOT_RESOURCE' : 'PARSE_EXPORTED_NOT_RESOURCE', startOf(v));
                }
                break;
            }
            default:
                break;
        }
    }
    if (validate && !parseErrors) {
        validateProgram(program, report, nodes);
    }
}

function isResource(e: Expression): boolean {
    switch (e.$type) {
        case 'ClassResource':
            return true;
        case 'VirtualResource':
            return isResource(e.expr);
        case 'ResourceExpression': {
            if (e.bodies.length > 0) {
                return true;
            }
            const shape = shapeOf(e.typeExpr, e.ops);
            return shape === 'defaults' || shape === 'override';
        }
        default:
            return false;
    }
}
