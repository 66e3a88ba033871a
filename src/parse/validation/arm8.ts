import { CstUtils, type AstNode } from 'langium';
import type {
    BindingsDefinition, BindingsStatement, BindKey, BindOperation, Expression, Program, ResourceExpression, SiteExpression
} from '../../../generated/langium/ast.js';
import type { ParseIssueCode } from '../issues.js';
import { startOf, type Report } from './check-program.js';
import { aAn, label } from './labels.js';
import { allNodes } from '../lowering/walk.js';

/**
 * The invariants ARM-8 states for its forms (../shared/seeds/arm8-puppet-bindings.txt). The
 * grammar is lenient (any modifiers, keys and clauses in a bind operation) so that these come
 * out as located, named errors instead of syntax errors.
 */
export function validateArm8(program: Program, report: Report, nodes: readonly AstNode[] = allNodes(program)): void {
    const v = new Arm8Validator(report);
    for (const d of program.arm8) {
        if (d.$type === 'SiteExpression') {
            v.site(d);
        } else {
            v.bindings(d);
        }
    }
    for (const node of nodes) {
        if (node.$type === 'AccessExpression') {
            const a = node as Extract<Expression, { $type: 'AccessExpression' }>;
            if (a.query && a.left.$type !== 'TypeReference') {
                v.error(a.query, 'VALIDATE_QUERY_NOT_ON_TYPE');
            }
        }
    }
}

/** Puppet's parameterized type names; any other `Name[x]` addresses an instance (`File['foo']`). */
const PUPPET_TYPES: ReadonlySet<string> = new Set([
    'Array', 'Callable', 'Class', 'Collection', 'Enum', 'Float', 'Hash', 'Init', 'Integer', 'Iterable', 'Iterator', 'NotUndef', 'Object', 'Optional',
    'Pattern', 'Producer', 'Regexp', 'Resource', 'Runtime', 'SemVer', 'SemVerRange', 'Sensitive', 'String', 'Struct', 'Timespan', 'Timestamp', 'Tuple',
    'Type', 'TypeSet', 'Variant'
]);
const FORMS: ReadonlySet<string> = new Set(['map', 'alias', 'renamed', 'parameters', 'variables', 'variable']);
const OPTIONS: ReadonlySet<string> = new Set(['combinator', 'producer_args', 'map', 'singleton', 'select_result']);
const LAMBDA_OPTIONS: ReadonlySet<string> = new Set(['combinator', 'select_result']);

/** Literal types a typed variable binding can check statically (the rest is left to the injector). */
const LITERAL_TYPES: Readonly<Record<string, (e: Expression) => boolean | undefined>> = {
    String: e => (e.$type === 'StringLiteral' || e.$type === 'ConcatString' ? true : literal(e) ? false : undefined),
    Integer: e => (e.$type === 'NumberLiteral' ? !/[.eE]/.test(e.value) || /^0[xX]/.test(e.value) : literal(e) ? false : undefined),
    Float: e => (e.$type === 'NumberLiteral' ? /[.eE]/.test(e.value) && !/^0[xX]/.test(e.value) : literal(e) ? false : undefined),
    Numeric: e => (e.$type === 'NumberLiteral' ? true : literal(e) ? false : undefined),
    Boolean: e => (e.$type === 'BooleanLiteral' ? true : literal(e) ? false : undefined)
};

function literal(e: Expression): boolean {
    switch (e.$type) {
        case 'StringLiteral': case 'NumberLiteral': case 'BooleanLiteral': case 'ArrayLiteral': case 'HashLiteral':
            return true;
        default:
            return false;
    }
}

function stringValue(e: Expression | undefined): string | undefined {
    return e?.$type === 'StringLiteral' ? e.value : undefined;
}

/**
 * Offset of the first token (or datatype value such as a modifier) `text` that belongs to `node`
 * itself. A bind operation's CST node is the wrapping statement's (unassigned rule calls share
 * it), so the search goes down the CST but not into other AST nodes.
 */
function keywordOffset(node: AstNode, text: string): number | undefined {
    const cst = node.$cstNode;
    if (!cst) {
        return undefined;
    }
    for (const n of CstUtils.streamCst(cst)) {
        if (n.astNode === node && n.text === text) {
            return n.offset;
        }
    }
    return undefined;
}

function line(node: AstNode): string {
    return String((node.$cstNode?.range.start.line ?? 0) + 1);
}

class Arm8Validator {
    private categories: AstNode | undefined;
    private layers: AstNode | undefined;

    constructor(private readonly report: Report) { }

    error(node: AstNode, code: ParseIssueCode, ...args: string[]): void {
        this.report('error', code, startOf(node), ...args);
    }

    private errorAt(offset: number | undefined, node: AstNode, code: ParseIssueCode, ...args: string[]): void {
        this.report('error', code, offset ?? startOf(node), ...args);
    }

    // ---- site -------------------------------------------------------------------------------

    site(site: SiteExpression): void {
        for (const s of site.body) {
            switch (s.$type) {
                case 'SiteCategories': {
                    if (this.categories) {
                        this.error(s, 'VALIDATE_SITE_DUPLICATE_CATEGORIES', line(this.categories));
                    }
                    this.categories ??= s;
                    const seen = new Set<string>();
                    let environment = false;
                    for (const e of s.entries) {
                        if (seen.has(e.name)) {
                            this.error(e, 'VALIDATE_CATEGORY_DUPLICATE', e.name);
                        }
                        seen.add(e.name);
                        if (e.name === 'common') {
                            this.error(e, 'VALIDATE_CATEGORY_COMMON');
                        } else if (e.name === 'environment') {
                            environment = true;
                            if (e.value.$type !== 'BooleanLiteral' || e.value.value !== 'true') {
                                this.error(e.value, 'VALIDATE_CATEGORY_ENVIRONMENT_VALUE');
                            }
                        } else if (e.name === 'node' && environment) {
                            this.error(e, 'VALIDATE_CATEGORY_NODE_BELOW_ENVIRONMENT');
                        }
                    }
                    break;
                }
                case 'SiteLayers': {
                    if (this.layers) {
                        this.error(s, 'VALIDATE_SITE_DUPLICATE_LAYERS', line(this.layers));
                    }
                    this.layers ??= s;
                    const names = new Set<string>();
                    for (const l of s.layers) {
                        const name = stringValue(l.name);
                        if (name !== undefined) {
                            if (names.has(name)) {
                                this.error(l.name, 'VALIDATE_LAYER_DUPLICATE', name);
                            }
                            names.add(name);
                        }
                        for (const op of l.ops) {
                            if (op.$type !== 'AttributeAssign' || (op.name !== 'include' && op.name !== 'exclude')) {
                                this.error(op, 'VALIDATE_LAYER_ILLEGAL_ATTRIBUTE', op.$type === 'AttributeAssign' ? op.name : '*');
                            }
                        }
                    }
                    break;
                }
                case 'ResourceExpression':
                    this.environmentResource(s);
                    break;
                default:
                    break;
            }
        }
    }

    private environmentResource(r: ResourceExpression): void {
        if (r.typeExpr.$type !== 'QualifiedName' || r.typeExpr.value !== 'dynamic_environments') {
            return;
        }
        for (const body of r.bodies) {
            const title = stringValue(body.title);
            if (title !== undefined && !title.startsWith('/')) {
                this.error(body.title, 'VALIDATE_DYNAMIC_ENVIRONMENTS_NOT_ABSOLUTE', title);
            }
            for (const op of body.ops) {
                if (op.$type === 'AttributeAssign' && op.name === 'envdir') {
                    this.error(op, 'VALIDATE_DYNAMIC_ENVIRONMENTS_ENVDIR');
                }
            }
        }
    }

    // ---- bindings ---------------------------------------------------------------------------

    bindings(b: BindingsDefinition): void {
        const all: BindingsStatement[] = [];
        const collect = (list: readonly BindingsStatement[]): void => {
            // Per block: a type may produce the parameters of one target only once.
            const producers = new Map<string, AstNode>();
            for (const s of list) {
                all.push(s);
                if (s.$type === 'WhenBlock') {
                    collect(s.body);
                } else if (s.$type === 'BindOperation' && s.modifiers.includes('parameters') && s.key && s.value) {
                    const producer = producerType(s.value);
                    const target = s.key.$cstNode?.text.replace(/\s+/g, '');
                    if (producer !== undefined && target !== undefined) {
                        const key = `${target}\u0000${producer}`;
                        const first = producers.get(key);
                        if (first) {
                            this.error(s.value as AstNode, 'VALIDATE_BIND_PARAMETERS_PRODUCER_TWICE', target, producer, line(first));
                        } else {
                            producers.set(key, s);
                        }
                    }
                }
            }
        };
        collect(b.body);
        const hashMultibinds = new Set<string>();
        for (const s of all) {
            if (s.$type === 'BindOperation') {
                this.bind(s);
                if (s.kind === 'multibind' && s.key?.type?.$type === 'BindTypeReference' && s.key.type.name === 'Hash') {
                    const id = stringValue(s.asKey?.name) ?? stringValue(s.key.name);
                    if (id !== undefined) {
                        hashMultibinds.add(id);
                    }
                }
            } else if (s.$type === 'BindDependency') {
                this.dependency(s.expr);
            }
        }
        for (const s of all) {
            if (s.$type === 'BindOperation' && s.kind === 'bind') {
                const id = stringValue(s.in);
                if (id !== undefined && hashMultibinds.has(id) && s.key?.name === undefined && s.in) {
                    this.error(s, 'VALIDATE_HASH_MULTIBIND_UNNAMED_FRAGMENT', id);
                }
            }
        }
    }

    private dependency(e: Expression): void {
        if (e.$type !== 'RelationshipExpression') {
            this.error(e, 'VALIDATE_BIND_DEPENDENCY_SHAPE');
            return;
        }
        for (let r: Expression = e; r.$type === 'RelationshipExpression'; r = r.left) {
            if (r.operator === '<-' || r.operator === '<~') {
                this.error(r.right, 'VALIDATE_BIND_DEPENDENCY_ARROW', r.operator);
            }
        }
    }

    private bind(b: BindOperation): void {
        const what = b.kind === 'bind' ? `a bind${b.modifiers.filter(m => FORMS.has(m)).map(m => ` ${m}`).join('')}` : `a ${b.kind}`;
        // Modifiers: each once, one form, and the combinations the seed rules out.
        const seen = new Set<string>();
        let form: string | undefined;
        for (const m of [...b.modifiers, ...b.asModifiers]) {
            if (seen.has(m)) {
                this.errorAt(keywordOffset(b, m), b, 'VALIDATE_BIND_DUPLICATE_MODIFIER', m);
            }
            seen.add(m);
        }
        for (const m of b.modifiers) {
            if (FORMS.has(m)) {
                if (form !== undefined && !(isVariables(form) && isVariables(m))) {
                    this.errorAt(keywordOffset(b, m), b, 'VALIDATE_BIND_CONFLICTING_FORMS', m, form);
                }
                form ??= m;
                if (b.kind !== 'bind') {
                    this.errorAt(keywordOffset(b, m), b, 'VALIDATE_BIND_MODIFIER_NOT_ALLOWED', m, `a ${b.kind}`);
                }
            }
        }
        for (const m of b.asModifiers) {
            if (FORMS.has(m)) {
                this.errorAt(keywordOffset(b, m), b, 'VALIDATE_BIND_MODIFIER_NOT_ALLOWED', m, 'an \'as\' clause');
            }
        }
        const abstract = seen.has('abstract');
        if (abstract && seen.has('final')) {
            this.errorAt(keywordOffset(b, 'final'), b, 'VALIDATE_BIND_ABSTRACT_FINAL');
        }
        const rebinding = b.kind === 'rebind' || form === 'alias' || form === 'renamed';
        if (rebinding && b.modifiers.includes('override')) {
            this.report('warning', 'VALIDATE_BIND_OVERRIDE_NO_EFFECT', keywordOffset(b, 'override') ?? startOf(b), what);
        }
        // Keys.
        this.key(b, b.key, form);
        if (b.asKey) {
            if (b.kind === 'multibind') {
                if (b.asKey.type !== undefined || b.asKey.className !== undefined || b.asKey.name === undefined) {
                    this.error(b.asKey, 'VALIDATE_MULTIBIND_ID');
                }
            } else if (form !== 'alias' && form !== 'renamed') {
                this.errorAt(keywordOffset(b, 'as'), b, 'VALIDATE_BIND_AS_NOT_ALLOWED');
            } else {
                this.key(b, b.asKey, undefined);
            }
        } else if (form === 'alias' || form === 'renamed') {
            this.error(b, 'VALIDATE_BIND_AS_REQUIRED', `bind ${form}`);
        }
        if (b.kind === 'multibind') {
            const type = b.key?.type;
            if (type?.$type !== 'BindTypeReference' || (type.name !== 'Array' && type.name !== 'Hash') || type.args.length === 0) {
                this.error(b.key ?? b, 'VALIDATE_MULTIBIND_TYPE');
            }
            if (!b.asKey && b.key?.name === undefined) {
                this.error(b, 'VALIDATE_MULTIBIND_WITHOUT_ID');
            }
        }
        if (b.in && (b.kind !== 'bind' || form !== undefined)) {
            this.errorAt(startOf(b.in), b, 'VALIDATE_BIND_IN_NOT_ALLOWED', what);
        }
        // Producers.
        if (b.value) {
            if (rebinding) {
                this.errorAt(keywordOffset(b, 'to'), b, 'VALIDATE_BIND_PRODUCER_NOT_ALLOWED', aAn(b.kind === 'rebind' ? 'rebind' : `bind ${form ?? ''}`, true));
            } else if (abstract && !isVariables(form)) {
                this.errorAt(keywordOffset(b, 'to'), b, 'VALIDATE_BIND_ABSTRACT_PRODUCER');
            } else if (abstract && !abstractNames(b.value)) {
                this.error(b.value, 'VALIDATE_BIND_ABSTRACT_VARIABLES_LITERAL');
            }
            if (form === 'map' && (b.key?.type === undefined || b.key.name !== undefined || !isTypeExpr(b.value) || b.optional || b.producer)) {
                this.error(b.value, 'VALIDATE_BIND_MAP_SHAPE');
            }
            if (isVariables(form) && !abstract) {
                this.variableTypes(b);
            }
        } else if (form === 'map') {
            this.error(b, 'VALIDATE_BIND_MAP_SHAPE');
        }
        if (abstract && form === 'parameters') {
            this.errorAt(keywordOffset(b, 'abstract'), b, 'VALIDATE_BIND_ABSTRACT_PARAMETERS');
        }
        if (b.kind === 'bind' && !b.key && !b.in && !isVariables(form)) {
            this.error(b, 'VALIDATE_BIND_NO_KEY');
        }
        // Options (for bind map they are the parameter map itself).
        if (b.hasOptions && abstract) {
            this.errorAt(keywordOffset(b, '{'), b, 'VALIDATE_BIND_ABSTRACT_OPTIONS');
        } else if (form !== 'map') {
            this.options(b);
        }
    }

    private key(b: BindOperation, key: BindKey | undefined, form: string | undefined): void {
        if (!key) {
            return;
        }
        if (key.className !== undefined && form !== 'parameters') {
            this.error(key, 'VALIDATE_BIND_CLASS_NAME_KEY', key.className, key.className, key.className);
        }
        if (form === 'parameters' && (key.name !== undefined || b !== key.$container)) {
            this.error(key, 'VALIDATE_BIND_PARAMETERS_KEY');
        }
        // ARM-8 Typed, Anonymous Binding: "can not be applied to bindings that address an instance".
        const t = key.type;
        if (form === undefined && b.kind === 'bind' && key.name === undefined && t?.$type === 'BindTypeReference' && t.query === undefined && t.args.length > 0 && !PUPPET_TYPES.has(t.name)) {
            this.error(key, 'VALIDATE_BIND_INSTANCE_KEY', t.name, t.name);
        }
    }

    private options(b: BindOperation): void {
        const seen = new Set<string>();
        const form = b.modifiers.find(m => FORMS.has(m));
        for (const o of b.options) {
            if (seen.has(o.name)) {
                this.error(o, 'VALIDATE_BIND_DUPLICATE_OPTION', o.name);
            }
            seen.add(o.name);
            if (!OPTIONS.has(o.name)) {
                this.error(o, 'VALIDATE_BIND_UNKNOWN_OPTION', o.name);
                continue;
            }
            if (LAMBDA_OPTIONS.has(o.name) && !o.lambda) {
                this.error(o, 'VALIDATE_BIND_OPTION_LAMBDA', o.name);
            } else if (!LAMBDA_OPTIONS.has(o.name) && o.lambda) {
                this.error(o, 'VALIDATE_BIND_OPTION_NOT_LAMBDA', o.name);
            }
            if (o.name === 'combinator' && b.kind !== 'multibind') {
                this.error(o, 'VALIDATE_BIND_OPTION_NOT_APPLICABLE', o.name, 'a multibind');
            } else if ((o.name === 'producer_args' || o.name === 'singleton') && !b.producer) {
                this.error(o, 'VALIDATE_BIND_OPTION_NOT_APPLICABLE', o.name, 'a binding to a producer (to producer ...)');
            } else if (o.name === 'map' && form !== 'parameters') {
                this.error(o, 'VALIDATE_BIND_OPTION_NOT_APPLICABLE', o.name, 'bind parameters');
            } else if (o.name === 'select_result' && !b.value) {
                this.error(o, 'VALIDATE_BIND_OPTION_NOT_APPLICABLE', o.name, 'a binding with a producer (to ...)');
            }
        }
    }

    /** `bind variables Integer to { a => 10, b => 'x' }`: literal values must fit the type. */
    private variableTypes(b: BindOperation): void {
        const type = b.key?.type;
        const value = b.value;
        if (type?.$type !== 'BindTypeReference' || type.args.length > 0 || value?.$type !== 'HashLiteral') {
            return;
        }
        const check = LITERAL_TYPES[type.name];
        if (!check) {
            return;
        }
        for (const entry of value.entries) {
            if (check(entry.value) === false) {
                const name = stringValue(entry.key) ?? (entry.key.$type === 'QualifiedName' ? entry.key.value : '?');
                this.error(entry.value, 'VALIDATE_BIND_VARIABLE_TYPE_MISMATCH', name, aAn(label(entry.value)), aAn(type.name));
            }
        }
    }
}

/** The type that produces bound parameters: `Sql` in `to Sql[one]`, `to Sql[?? q]` or `to Sql`. */
function producerType(v: BindOperation['value']): string | undefined {
    if (v?.$type === 'TypeReference') {
        return v.value;
    }
    if (v?.$type === 'AccessExpression' && v.left.$type === 'TypeReference') {
        return v.left.value;
    }
    return undefined;
}

function isVariables(form: string | undefined): boolean {
    return form === 'variables' || form === 'variable';
}

/** Abstract variables are named by a literal: a string or an array of strings. */
function abstractNames(e: Expression | { $type: 'ClassTypeReference' }): boolean {
    if (e.$type === 'StringLiteral') {
        return true;
    }
    return e.$type === 'ArrayLiteral' && e.elements.every(x => x.$type === 'StringLiteral');
}

function isTypeExpr(e: Expression | { $type: 'ClassTypeReference' }): boolean {
    return e.$type === 'ClassTypeReference' || e.$type === 'TypeReference' || (e.$type === 'AccessExpression' && e.left.$type === 'TypeReference');
}
