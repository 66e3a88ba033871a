import type { Expression } from '../../generated/langium/ast.js';
import { assertUnreachable, UserError } from '../common/index.js';
import { parsePuppet } from '../parse/index.js';
import { PDefault, PRegexp, type PuppetValue } from '../values/index.js';
import { coreType, parameterize, capitalize, TypeConstructionError } from './construct.js';
import { PAnyType, PResourceType } from './model.js';

/** A type string that does not parse; `detail` is the parser's message alone (what Type.new reports). */
export class TypeSyntaxError extends UserError {
    constructor(readonly detail: string, diagnostic: ConstructorParameters<typeof UserError>[0]) { super(diagnostic); }
}

/** Resolves a type name that is not a core type (aliases, resource types); undefined = unknown. */
export type TypeNameResolver = (name: string) => PAnyType | undefined;

/**
 * Parses a type expression such as `Enum[present, absent]` or `Hash[String, Array[Integer]]`.
 * Names that are not core types go to `resolve`; without it they are resource types.
 */
export function parseTypeString(text: string, resolve?: TypeNameResolver): PAnyType {
    const parsed = parsePuppet(text, '<type>', { validate: false });
    const fail = (message: string): never => {
        throw new TypeSyntaxError(message, { severity: 'error', code: 'TYPE_SYNTAX', message: `${message} in type '${text}'` });
    };
    if (parsed.diagnostics.some(d => d.severity === 'error')) fail(parsed.diagnostics[0].message);
    if (parsed.ast.statements.length !== 1) fail('expected one type expression');
    try {
        const v = evalTypeExpr(parsed.ast.statements[0], resolve);
        return v instanceof PAnyType ? v : fail('not a type');
    } catch (e) {
        if (e instanceof TypeConstructionError) return fail(e.message);
        throw e;
    }
}

function evalTypeExpr(e: Expression, resolve: TypeNameResolver | undefined): PuppetValue {
    const t = e.$type;
    switch (t) {
        case 'TypeReference': {
            const core = coreType(e.value);
            if (core) return core;
            return resolve?.(e.value) ?? new PResourceType(capitalize(e.value));
        }
        case 'AccessExpression': {
            const left = evalTypeExpr(e.left, resolve);
            if (!(left instanceof PAnyType)) throw new TypeConstructionError('not a type');
            return parameterize(left, e.keys.map(k => evalTypeExpr(k, resolve)));
        }
        case 'StringLiteral': case 'QualifiedName': case 'WordLiteral': return e.value;
        case 'NumberLiteral': return /[.eE]/.test(e.value) && !/^0x/i.test(e.value) ? Number(e.value) : BigInt(e.value);
        case 'UnaryMinusExpression': {
            const v = evalTypeExpr(e.expr, resolve);
            return typeof v === 'bigint' ? -v : typeof v === 'number' ? -v : v;
        }
        case 'RegexLiteral': return new PRegexp(e.value);
        case 'DefaultLiteral': return PDefault.instance;
        case 'UndefLiteral': return null;
        case 'BooleanLiteral': return e.value === 'true';
        case 'ArrayLiteral': return e.elements.map(x => evalTypeExpr(x, resolve));
        case 'HashLiteral': return new Map(e.entries.map(x => [evalTypeExpr(x.key, resolve), evalTypeExpr(x.value, resolve)]));
        case 'ConcatString': return e.pre + e.mids.join('') + e.post;
        case 'ParenExpression': return evalTypeExpr(e.expr, resolve);
        case 'AssignmentExpression': case 'BinaryExpression': case 'CallFunctionExpression': case 'CallMethodExpression':
        case 'CaseExpression': case 'ClassDefinition': case 'ClassResource': case 'CollectExpression': case 'CommaList':
        case 'DefineDefinition': case 'DottedName': case 'FunctionDefinition': case 'HashPair': case 'Heredoc': case 'IfExpression':
        case 'KeywordLiteral': case 'LogicalExpression': case 'NodeDefinition': case 'NotExpression': case 'RelationshipExpression':
        case 'RenderExpression': case 'RenderString': case 'ReservedWord': case 'ResourceExpression': case 'SelectorExpression':
        case 'TypeAlias': case 'TypeDefinition': case 'TypeFunctionName': case 'UnfoldExpression': case 'UnlessExpression':
        case 'VariableExpression': case 'VirtualResource':
            throw new TypeConstructionError(`a ${t} is not allowed in a type`);
        default: return assertUnreachable(t);
    }
}
