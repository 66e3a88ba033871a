import type { AccessExpression, Expression } from '../../generated/langium/ast.js';
import { parsePuppet } from '../parse/index.js';
import { PRegexp, type PuppetValue } from '../values/index.js';
import { storeError } from './issues.js';
import type { QueryNode, QueryOperator, QueryValue, StoredJson, StoredResource } from './model.js';

/** Where a query is written (for located errors). */
export interface QueryPlace {
    readonly file?: string;
    readonly line?: number;
    readonly column?: number;
}

const OPERATORS: Readonly<Record<string, QueryOperator>> = {
    '==': '==', '!=': '!=', '<': '<', '>': '>', '<=': '<=', '>=': '>=', '=~': '~=', '!~': '~!'
};

/**
 * Compiles the expression of `Type[?? expr]` to the store's query model. The left side of a
 * comparison is an attribute (a bare word or a string); the right side a literal, a bare word,
 * a regexp, or any other expression, which `valueOf` evaluates (variables, interpolation).
 */
export function compileQuery(e: Expression, valueOf: (e: Expression) => PuppetValue, at: (e: Expression) => QueryPlace, text: (e: Expression) => string): QueryNode {
    const recur = (x: Expression): QueryNode => compileQuery(x, valueOf, at, text);
    switch (e.$type) {
        case 'LogicalExpression': {
            const kind = e.operator;
            const flat = (n: QueryNode): readonly QueryNode[] => (n.kind === kind ? n.operands : [n]);
            return { kind, operands: [...flat(recur(e.left)), ...flat(recur(e.right))] };
        }
        case 'NotExpression':
            return { kind: 'not', operand: recur(e.expr) };
        case 'ParenExpression':
            return recur(e.expr);
        case 'BinaryExpression': {
            // `not name == x` reads as `(not name) == x` in Puppet's precedence; the seed means the negated comparison.
            if (e.left.$type === 'NotExpression' && (e.left.expr.$type === 'QualifiedName' || e.left.expr.$type === 'StringLiteral')) {
                return { kind: 'not', operand: recur({ ...e, left: e.left.expr } as Expression) };
            }
            const operator = OPERATORS[e.operator];
            const attribute = e.left.$type === 'QualifiedName' || e.left.$type === 'StringLiteral' ? e.left.value : undefined;
            if (operator === undefined || attribute === undefined) throw storeError('QUERY_SYNTAX', at(e), text(e));
            return { kind: 'compare', operator, attribute, value: queryValue(e.right, valueOf, at, text) };
        }
        default:
            throw storeError('QUERY_SYNTAX', at(e), text(e));
    }
}

function queryValue(e: Expression, valueOf: (e: Expression) => PuppetValue, at: (e: Expression) => QueryPlace, text: (e: Expression) => string): QueryValue {
    switch (e.$type) {
        case 'QualifiedName': case 'StringLiteral': return e.value;
        case 'RegexLiteral': return { regexp: e.value };
        case 'BooleanLiteral': return e.value === 'true';
        case 'UndefLiteral': return null;
        case 'NumberLiteral': return Number(e.value);
        default: {
            const v = valueOf(e);
            if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v;
            if (typeof v === 'bigint') return Number(v);
            if (v instanceof PRegexp) return { regexp: v.source };
            throw storeError('QUERY_SYNTAX', at(e), `${text(e)} (a query value must be a string, number, boolean or regexp)`);
        }
    }
}

/** Parses the source of a query (as the bindings model keeps it) and compiles it; `file`/`line` locate errors. */
export function parseQuery(source: string, place: QueryPlace = {}, valueOf?: (e: Expression) => PuppetValue): QueryNode {
    const file = place.file ?? '<query>';
    const line = place.line ?? 1;
    // `Q[?? ...]` is the only place the query operators (~=, ~!, not) are recognized.
    const r = parsePuppet(`${'\n'.repeat(Math.max(0, line - 1))}Q[?? ${source}]`, file, { validate: false });
    const err = r.diagnostics.find(d => d.severity === 'error');
    const access = r.ast.statements[0] as AccessExpression | undefined;
    const q = access?.$type === 'AccessExpression' ? access.query?.query : undefined;
    if (err || !q) throw storeError('QUERY_SYNTAX', { file, line }, source);
    const placeOf = (e: Expression): QueryPlace => ({ file, line: (e.$cstNode?.range.start.line ?? line - 1) + 1 });
    const textOf = (e: Expression): string => e.$cstNode?.text ?? source;
    return compileQuery(q, valueOf ?? (e => { throw storeError('QUERY_SYNTAX', placeOf(e), textOf(e)); }), placeOf, textOf);
}

/** The attributes a query names (to check them against the type's parameters). */
export function queryAttributes(q: QueryNode | undefined): string[] {
    if (!q) return [];
    switch (q.kind) {
        case 'and': case 'or': return [...new Set(q.operands.flatMap(queryAttributes))];
        case 'not': return queryAttributes(q.operand);
        case 'compare': return [q.attribute];
    }
}

/** Attributes every resource has besides its parameters. */
export const BUILTIN_QUERY_ATTRIBUTES: ReadonlySet<string> = new Set(['title', 'tag', 'name']);

/** The values of an attribute of a resource: `title`, `tag` (every tag), `name` (the name parameter, else the title), a parameter. */
function attributeValues(r: StoredResource, attribute: string): StoredJson[] {
    if (attribute === 'title') return [r.title];
    if (attribute === 'tag') return [...r.tags];
    const v = r.parameters[attribute];
    if (v === undefined) return attribute === 'name' ? [r.title] : [];
    return Array.isArray(v) ? v : [v];
}

function compareOne(op: QueryOperator, attribute: string, actual: StoredJson, value: QueryValue): boolean {
    if (value !== null && typeof value === 'object') {
        const hit = typeof actual === 'string' && new RegExp(value.regexp).test(actual);
        return op === '~!' ? !hit : hit;
    }
    switch (op) {
        case '==': case '!=': {
            const same = attribute === 'tag' && typeof actual === 'string' && typeof value === 'string'
                ? actual.toLowerCase() === value.toLowerCase()
                : actual === value || (typeof value === 'number' && typeof actual === 'string' && actual === String(value)) || (typeof actual === 'number' && typeof value === 'string' && String(actual) === value);
            return op === '==' ? same : !same;
        }
        case '~=': case '~!': {
            const hit = typeof actual === 'string' && typeof value === 'string' && new RegExp(value).test(actual);
            return op === '~!' ? !hit : hit;
        }
        default: {
            const a = typeof actual === 'string' && actual.trim() !== '' && !Number.isNaN(Number(actual)) ? Number(actual) : actual;
            const b = typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
            if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
            const x = a as number | string;
            const y = b as number | string;
            return op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
        }
    }
}

/**
 * Whether a resource matches (the same semantics as the SQL the SQLite store runs): a
 * comparison holds when any value of the attribute satisfies it (an array parameter matches
 * when one element does); `!=` and `~!` hold when none has the value / matches.
 */
export function matchesQuery(r: StoredResource, q: QueryNode | undefined): boolean {
    if (!q) return true;
    switch (q.kind) {
        case 'and': return q.operands.every(o => matchesQuery(r, o));
        case 'or': return q.operands.some(o => matchesQuery(r, o));
        case 'not': return !matchesQuery(r, q.operand);
        case 'compare': {
            const values = attributeValues(r, q.attribute);
            if (q.operator === '!=' || q.operator === '~!') return values.every(v => compareOne(q.operator, q.attribute, v, q.value));
            return values.some(v => compareOne(q.operator, q.attribute, v, q.value));
        }
    }
}

