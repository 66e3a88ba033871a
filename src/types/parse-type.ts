import type { Expression } from '../../generated/langium/ast.js';
import { assertUnreachable, UserError } from '../common/index.js';
import { parsePuppet } from '../parse/index.js';
import { PDefault, PRegexp, type PuppetValue } from '../values/index.js';
import { coreType, parameterize, capitalize, TypeConstructionError } from './construct.js';
import { PAnyType, PResourceType, PRuntimeType, PTypeReferenceType } from './model.js';

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
    const statement = parsed.ast.statements[0];
    try {
        const v = evalTypeExpr(statement, resolve, text);
        return v instanceof PAnyType ? v : fail(invalidSpecification(statement, text).message);
    } catch (e) {
        if (e instanceof TypeConstructionError) return fail(e.message);
        throw e;
    }
}

/** Puppet's type parser refuses an expression that makes no type (or parameters its type refuses) by the expression's text. */
function invalidSpecification(e: Expression, text: string): TypeConstructionError {
    const c = e.$cstNode;
    return new InvalidSpecification(`The expression <${c ? text.slice(c.offset, c.end) : ''}> is not a valid type specification.`);
}

class InvalidSpecification extends TypeConstructionError {}

/**
 * One part of a type string as Puppet's TypeParser interprets it: a name nothing resolves is a
 * TypeReference (a resolver given), as is an access on one (its text as written); a bare word or
 * string in a Tuple, Struct value or Callable names a Ruby class (Runtime[ruby, 'x']).
 */
function evalTypeExpr(e: Expression, resolve: TypeNameResolver | undefined, text: string): PuppetValue {
    const t = e.$type;
    switch (t) {
        case 'TypeReference': {
            const core = coreType(e.value);
            if (core) return core;
            if (!resolve) return new PResourceType(capitalize(e.value));
            return resolve(e.value) ?? new PTypeReferenceType(e.value);
        }
        case 'AccessExpression': {
            const left = evalTypeExpr(e.left, resolve, text);
            if (!(left instanceof PAnyType)) throw invalidSpecification(e, text);
            if (left instanceof PTypeReferenceType) {
                const c = e.$cstNode;
                return new PTypeReferenceType(c ? text.slice(c.offset, c.end) : left.typeString);
            }
            const runtime = (v: PuppetValue): PuppetValue => typeof v === 'string' ? new PRuntimeType('ruby', v) : v;
            let keys = e.keys.map(k => evalTypeExpr(k, resolve, text));
            if (left.kind === 'Tuple') keys = keys.map(runtime);
            if (left.kind === 'Struct') keys = keys.map(k => k instanceof Map ? new Map([...k].map(([n, v]) => [n, runtime(v)])) : k);
            try {
                return parameterize(left, keys);
            } catch (err) {
                if (err instanceof TypeConstructionError && !(err instanceof InvalidSpecification)) throw invalidSpecification(e, text);
                throw err;
            }
        }
        case 'StringLiteral': case 'QualifiedName': case 'WordLiteral': return e.value;
        case 'NumberLiteral': return /[.eE]/.test(e.value) && !/^0x/i.test(e.value) ? Number(e.value) : BigInt(e.value);
        case 'UnaryMinusExpression': {
            const v = evalTypeExpr(e.expr, resolve, text);
            return typeof v === 'bigint' ? -v : typeof v === 'number' ? -v : v;
        }
        case 'RegexLiteral': return new PRegexp(e.value);
        case 'DefaultLiteral': return PDefault.instance;
        case 'UndefLiteral': return null;
        case 'BooleanLiteral': return e.value === 'true';
        case 'ArrayLiteral': return e.elements.map(x => evalTypeExpr(x, resolve, text));
        case 'HashLiteral': return new Map(e.entries.map(x => [evalTypeExpr(x.key, resolve, text), evalTypeExpr(x.value, resolve, text)]));
        case 'ConcatString': return e.pre + e.mids.join('') + e.post;
        case 'ParenExpression': return evalTypeExpr(e.expr, resolve, text);
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
