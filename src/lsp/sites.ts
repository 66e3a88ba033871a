import { GrammarUtils, type AstNode, type CstNode } from 'langium';
import type {
    AccessExpression, CallFunctionExpression, ClassDefinition, ClassResource, CommaList, DefineDefinition, Expression, FunctionDefinition,
    Lambda, Parameter, Program, ResourceExpression, TypeAlias, VariableExpression
} from '../../generated/langium/ast.js';
import { STATEMENT_CALLS } from '../parse/index.js';

/** What a name in Puppet code can stand for (resolved by name across the environment, as Puppet autoloads). */
export type SiteKind = 'class' | 'define' | 'function' | 'type' | 'variable' | 'template' | 'hiera';

/**
 * One place in a document that names something: a definition (`class a::b`, a parameter, the
 * first assignment of a variable) or a use (`include a::b`, `a::b { }`, `A::B[...]`, `$a::b::x`,
 * `epp('m/t.epp')`, `lookup('k')`). Names are normalized: lower case, no leading `::` for
 * definitions; variables are `scope::name` with the scope their use resolves to.
 */
export interface Site {
    readonly role: 'definition' | 'reference';
    /** A definition's kind, or the kinds a reference may resolve to, most likely first. */
    readonly kinds: readonly SiteKind[];
    readonly name: string;
    readonly start: number;
    readonly end: number;
    readonly node: AstNode;
    /** The class, define or function whose body holds the site (`''` at top scope). */
    readonly scope: string;
}

const CLASS_CALLS: ReadonlySet<string> = new Set(['include', 'contain', 'require']);
const TEMPLATE_CALLS: ReadonlySet<string> = new Set(['epp', 'template']);
const NAMED_TYPES: readonly SiteKind[] = ['type', 'define', 'class'];

const cache = new WeakMap<AstNode, readonly Site[]>();

/** The sites of a parsed document, computed once per parse. */
export function sitesOf(program: Program): readonly Site[] {
    let sites = cache.get(program);
    if (!sites) {
        sites = new SiteCollector().collect(program);
        cache.set(program, sites);
    }
    return sites;
}

/** The innermost site at an offset. */
export function siteAt(program: Program, offset: number): Site | undefined {
    let best: Site | undefined;
    for (const s of sitesOf(program)) {
        if (s.start <= offset && offset <= s.end && (!best || s.end - s.start < best.end - best.start)) best = s;
    }
    return best;
}

/** A definition's name, or a reference's target, in the normal form sites use. */
export function normalName(name: string): string {
    return name.replace(/^::/, '').toLowerCase();
}

/** The `$name` token of a parameter (its CST node holds the type and default too). */
export function parameterNameNode(p: Parameter): CstNode | undefined {
    const cst = p.$cstNode as (CstNode & { content?: readonly CstNode[] }) | undefined;
    return cst?.content?.find(c => c.text.startsWith('$')) ?? cst;
}

/** The name token of a class, define or function definition. */
export function definitionNameNode(node: AstNode): CstNode | undefined {
    return node.$cstNode ? GrammarUtils.findNodeForProperty(node.$cstNode, 'name') ?? node.$cstNode : undefined;
}

interface Scope {
    readonly name: string;
    /** Variables this scope declares (parameters and assignments) → the site name they resolve to. */
    readonly vars: Map<string, string>;
    readonly parent?: Scope;
}

class SiteCollector {
    private readonly sites: Site[] = [];

    collect(program: Program): Site[] {
        const top: Scope = { name: '', vars: new Map() };
        this.declare(program.statements, top);
        for (const p of program.params) this.parameter(p, top);
        this.statements(program.statements, top);
        for (const a of program.arm8) this.walk(a, top);
        return this.sites;
    }

    private add(role: Site['role'], kinds: readonly SiteKind[], name: string, node: AstNode, scope: Scope, cst: CstNode | undefined = node.$cstNode): void {
        if (!cst || name === '') return;
        this.sites.push({ role, kinds, name, start: cst.offset, end: cst.end, node, scope: scope.name });
    }

    /** Records the variables a body assigns, so uses before the assignment resolve too. */
    private declare(statements: readonly Expression[], scope: Scope): void {
        for (const s of statements) {
            if (s.$type === 'AssignmentExpression' && s.left.$type === 'VariableExpression' && !scope.vars.has(s.left.name)) {
                scope.vars.set(s.left.name, this.qualify(scope, s.left.name));
            }
        }
    }

    private qualify(scope: Scope, name: string): string {
        return scope.name.includes('@') ? `${name}@${scope.name}` : `${scope.name}::${name}`;
    }

    private parameter(p: Parameter, scope: Scope): void {
        const name = this.qualify(scope, p.name);
        scope.vars.set(p.name, name);
        this.add('definition', ['variable'], name, p, scope, parameterNameNode(p));
        if (p.type) this.walk(p.type, scope);
        if (p.value) this.walk(p.value, scope);
    }

    /** A statement list, with Puppet's parenthesis-less calls (`include a, b`) recognized. */
    private statements(list: readonly Expression[], scope: Scope): void {
        for (let i = 0; i < list.length; i++) {
            const s = list[i];
            const next = list[i + 1];
            if (s.$type === 'QualifiedName' && STATEMENT_CALLS.has(s.value) && next !== undefined) {
                this.add('reference', ['function'], s.value, s, scope);
                const args = next.$type === 'CommaList' ? (next as CommaList).items : [next];
                this.callArguments(s.value, args, scope);
                i++;
                continue;
            }
            this.walk(s, scope);
        }
    }

    private callArguments(functor: string, args: readonly Expression[], scope: Scope): void {
        const first = args[0];
        if (CLASS_CALLS.has(functor)) {
            for (const a of args) this.className(a, scope);
        } else if (TEMPLATE_CALLS.has(functor) && first?.$type === 'StringLiteral') {
            this.add('reference', ['template'], first.value, first, scope);
        } else if (functor === 'lookup' && first?.$type === 'StringLiteral') {
            this.add('reference', ['hiera'], first.value, first, scope);
        }
        for (const a of args) this.walk(a, scope);
    }

    /** A class named by a string, a bare word or an array of them (include, require, Class[...]). */
    private className(e: Expression, scope: Scope): void {
        if (e.$type === 'StringLiteral' || e.$type === 'QualifiedName') this.add('reference', ['class'], normalName(e.value), e, scope);
        else if (e.$type === 'ArrayLiteral') for (const x of e.elements) this.className(x, scope);
    }

    private definition(node: ClassDefinition | DefineDefinition | FunctionDefinition, kind: SiteKind, scope: Scope): void {
        const name = normalName(kind === 'class' && scope.name !== '' && !node.name.includes('::') ? `${scope.name}::${node.name}` : node.name);
        this.add('definition', [kind], name, node, scope, definitionNameNode(node));
        const inner: Scope = { name, vars: new Map(), parent: scope };
        for (const p of node.params) this.parameter(p, inner);
        if (node.$type === 'ClassDefinition' && node.parent !== undefined) {
            const parentCst = node.$cstNode ? GrammarUtils.findNodeForProperty(node.$cstNode, 'parent') : undefined;
            this.add('reference', ['class'], normalName(node.parent), node, scope, parentCst);
        }
        if (node.$type === 'FunctionDefinition' && node.returnType) this.walk(node.returnType, inner);
        this.declare(node.body, inner);
        this.statements(node.body, inner);
    }

    private variable(v: VariableExpression, scope: Scope): void {
        const name = v.name;
        if (/^\d+$/.test(name)) return;
        if (name.includes('::')) {
            this.add('reference', ['variable'], normalName(name).includes('::') ? normalName(name) : `::${normalName(name)}`, v, scope);
            return;
        }
        for (let s: Scope | undefined = scope; s; s = s.parent) {
            const found = s.vars.get(name);
            if (found !== undefined) {
                this.add('reference', ['variable'], found, v, scope);
                return;
            }
        }
        this.add('reference', ['variable'], `::${name}`, v, scope);
    }

    private walk(node: AstNode, scope: Scope): void {
        switch (node.$type) {
            case 'ClassDefinition': return this.definition(node as ClassDefinition, 'class', scope);
            case 'DefineDefinition': return this.definition(node as DefineDefinition, 'define', scope);
            case 'FunctionDefinition': return this.definition(node as FunctionDefinition, 'function', scope);
            case 'TypeAlias': {
                const alias = node as TypeAlias;
                const lhs = alias.lhs.$type === 'AccessExpression' ? alias.lhs.left : alias.lhs;
                if (lhs.$type === 'TypeReference') this.add('definition', ['type'], normalName(lhs.value), alias, scope, lhs.$cstNode);
                return this.children(node, scope, new Set(['lhs']));
            }
            case 'VariableExpression': return this.variable(node as VariableExpression, scope);
            case 'AssignmentExpression': {
                const left = (node as unknown as { left: Expression }).left;
                if (left.$type === 'VariableExpression' && !left.name.includes('::')) {
                    const name = scope.vars.get(left.name) ?? this.qualify(scope, left.name);
                    scope.vars.set(left.name, name);
                    this.add('definition', ['variable'], name, left, scope);
                    return this.children(node, scope, new Set(['left']));
                }
                return this.children(node, scope);
            }
            case 'Lambda': {
                const lambda = node as Lambda;
                const inner: Scope = { name: `${scope.name}@${lambda.$cstNode?.offset ?? 0}`, vars: new Map(), parent: scope };
                for (const p of lambda.params) this.parameter(p, inner);
                if (lambda.returnType) this.walk(lambda.returnType, inner);
                this.declare(lambda.body, inner);
                return this.statements(lambda.body, inner);
            }
            case 'CallFunctionExpression': {
                const call = node as CallFunctionExpression;
                if (call.functor.$type === 'QualifiedName') {
                    this.add('reference', ['function'], normalName(call.functor.value), call.functor, scope);
                    this.callArguments(call.functor.value, call.args, scope);
                    if (call.lambda) this.walk(call.lambda, scope);
                    return;
                }
                return this.children(node, scope);
            }
            case 'ResourceExpression': {
                const res = node as ResourceExpression;
                if (res.typeExpr.$type === 'QualifiedName') {
                    this.add('reference', ['define'], normalName(res.typeExpr.value), res.typeExpr, scope);
                    return this.children(node, scope, new Set(['typeExpr']));
                }
                return this.children(node, scope);
            }
            case 'ClassResource': {
                for (const b of (node as ClassResource).bodies) this.className(b.title, scope);
                return this.children(node, scope);
            }
            case 'AccessExpression': {
                const access = node as AccessExpression;
                if (access.left.$type === 'TypeReference' && access.left.value.toLowerCase() === 'class') {
                    for (const k of access.keys) this.className(k, scope);
                    return this.children(node, scope, new Set(['left']));
                }
                return this.children(node, scope);
            }
            case 'TypeReference': {
                const value = (node as unknown as { value: string }).value;
                if (value.includes('::')) this.add('reference', NAMED_TYPES, normalName(value), node, scope);
                return;
            }
            case 'BindKey': {
                // ARM-8: a binding's name is the key lookups ask for; `class x` names a class.
                const key = node as unknown as { name?: Expression; className?: string };
                if (key.name?.$type === 'StringLiteral') this.add('reference', ['hiera'], key.name.value, key.name, scope);
                if (key.className !== undefined) this.add('reference', ['class'], normalName(key.className), node, scope, GrammarUtils.findNodeForProperty(node.$cstNode, 'className'));
                return this.children(node, scope);
            }
            case 'ClassTypeReference': {
                const name = (node as unknown as { name: string }).name;
                return this.add('reference', ['class'], normalName(name), node, scope, GrammarUtils.findNodeForProperty(node.$cstNode, 'name'));
            }
            case 'ClassBinding': {
                const classes = (node as unknown as { classes: string[] }).classes;
                const csts = GrammarUtils.findNodesForProperty(node.$cstNode, 'classes');
                classes.forEach((c, i) => this.add('reference', ['class'], normalName(c), node, scope, csts[i]));
                return;
            }
            case 'Program': case 'IfExpression': case 'ElsifExpression': case 'UnlessExpression': case 'CaseOption':
            case 'NodeDefinition': case 'TypeDefinition': case 'RenderExpression':
                return this.bodies(node, scope);
            default:
                return this.children(node, scope);
        }
    }

    /** Nodes holding statement lists: each list goes through `statements` (statement calls). */
    private bodies(node: AstNode, scope: Scope): void {
        const record = node as unknown as Record<string, unknown>;
        for (const key of Object.keys(record)) {
            if (key.startsWith('$')) continue;
            const value = record[key];
            if (Array.isArray(value) && (key === 'body' || key === 'then' || key === 'else' || key === 'statements')) {
                this.statements(value as Expression[], scope);
            } else {
                this.visitValue(value, scope);
            }
        }
    }

    private children(node: AstNode, scope: Scope, skip?: ReadonlySet<string>): void {
        const record = node as unknown as Record<string, unknown>;
        for (const key of Object.keys(record)) {
            if (key.startsWith('$') || skip?.has(key)) continue;
            this.visitValue(record[key], scope);
        }
    }

    private visitValue(value: unknown, scope: Scope): void {
        if (Array.isArray(value)) {
            for (const item of value) if (isNode(item)) this.walk(item, scope);
        } else if (isNode(value)) {
            this.walk(value, scope);
        }
    }
}

function isNode(v: unknown): v is AstNode {
    return typeof v === 'object' && v !== null && typeof (v as { $type?: unknown }).$type === 'string';
}
