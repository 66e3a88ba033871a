import type { AstNode } from 'langium';
import type {
    Arm8Definition, BindDependency, BindingsDefinition, BindingsStatement, BindKey, BindName, BindOperation, BindOption, BindType, BindTypeArg,
    CategoryExpression, ClassBinding, Expression, Lambda, Layer, SiteExpression
} from '../../../generated/langium/ast.js';
import type {
    AbstractBinding, CategoryDefinition, CategoryPredicate, NamedArgument, NamedBindings, NamedLayer, ParameterMapping, ProducerDescriptor,
    PuppetExpression, PuppetLambda, SiteCategorization, SourceLocation
} from '../../../generated/model/bindings.js';
import { assertUnreachable, type Diagnostic } from '../../common/index.js';
import type { RichData } from '../../model/index.js';
import { BindingsIssues } from '../issues.js';

/** What one bindings `.pp` file holds: its `bindings NAME {}` blocks and its `site {}` blocks as one. */
export interface BindingsFile {
    readonly bindings: readonly NamedBindings[];
    readonly site?: SiteDefinition;
    readonly diagnostics: readonly Diagnostic[];
}

/** A `site {}`: the categorization and the layers (unset when the site block does not define them). */
export interface SiteDefinition {
    readonly categorization?: SiteCategorization;
    readonly layers?: readonly NamedLayer[];
    readonly location: SourceLocation;
}

const NOT_LITERAL = Symbol('not literal');
type Literal = RichData | typeof NOT_LITERAL;


/**
 * Turns the ARM-8 part of a parsed manifest (`Program.arm8`) into Bindings model objects, each
 * with its file:line:col. Data literals become constants; any other value expression is kept
 * as Puppet source for the injector's evaluator. Problems are collected as BIND_ diagnostics
 * (the offending statement is left out), so one file reports all of them at once.
 */
export class BindingsTransformer {
    private readonly diagnostics: Diagnostic[] = [];

    constructor(private readonly file: string) {}

    transform(definitions: readonly Arm8Definition[]): BindingsFile {
        const bindings: NamedBindings[] = [];
        let site: SiteDefinition | undefined;
        for (const d of definitions) {
            switch (d.$type) {
                case 'BindingsDefinition':
                    bindings.push(this.named(d));
                    break;
                case 'SiteExpression': {
                    // Several site blocks of one file make one site; the validator refuses a second
                    // categories or layers definition.
                    const more = this.site(d);
                    site = site ? { ...site, ...(more.categorization ? { categorization: more.categorization } : {}), ...(more.layers ? { layers: more.layers } : {}) } : more;
                    break;
                }
                default:
                    assertUnreachable(d);
            }
        }
        return { bindings, ...(site ? { site } : {}), diagnostics: this.diagnostics };
    }

    private named(d: BindingsDefinition): NamedBindings {
        return { $type: 'NamedBindings', name: d.name, location: this.at(d), bindings: this.statements(d.body) };
    }

    private statements(body: readonly BindingsStatement[]): AbstractBinding[] {
        const out: AbstractBinding[] = [];
        for (const s of body) out.push(...this.statement(s));
        return out;
    }

    private statement(s: BindingsStatement): AbstractBinding[] {
        switch (s.$type) {
            case 'WhenBlock': {
                const predicate = this.predicate(s.condition);
                if (!predicate) return [];
                return [{ $type: 'CategorizedBindings', location: this.at(s), predicates: [predicate], bindings: this.statements(s.body) }];
            }
            case 'BindOperation':
                return this.bind(s);
            case 'BindDependency':
                return this.dependency(s);
            case 'ClassBinding':
                return this.classes(s);
            default:
                return assertUnreachable(s);
        }
    }

    // -----------------------------------------------------------------------------------------
    // when: categories

    private predicate(c: CategoryExpression): CategoryPredicate | undefined {
        switch (c.$type) {
            case 'CategoryMatch': {
                const v = this.literal(c.value);
                if (v === NOT_LITERAL || v === null || typeof v === 'object') {
                    this.error(c.value, BindingsIssues.BIND_CATEGORY_VALUE, `the value of category '${c.category}' must be a literal string, number or boolean, not ${this.text(c.value)}`);
                    return undefined;
                }
                return { $type: 'Category', location: this.at(c), categorization: c.category, value: String(v) };
            }
            case 'CategoryCondition': {
                const left = this.predicate(c.left);
                const right = this.predicate(c.right);
                if (!left || !right) return undefined;
                // `a and b and c` parses as nested pairs; one flat predicate per operator reads better.
                const type = c.operator === 'and' ? 'AndPredicate' : 'OrPredicate';
                const flat = (p: CategoryPredicate): CategoryPredicate[] => (p.$type === type ? p.operands : [p]);
                return { $type: type, location: this.at(c), operands: [...flat(left), ...flat(right)] };
            }
            default:
                return assertUnreachable(c);
        }
    }

    // -----------------------------------------------------------------------------------------
    // bind, multibind, rebind

    private bind(b: BindOperation): AbstractBinding[] {
        const mods = new Set<string>(b.modifiers);
        const location = this.at(b);
        const flags = {
            ...(mods.has('abstract') ? { abstract: true } : {}),
            ...(mods.has('override') ? { override: true } : {}),
            ...(mods.has('final') ? { final: true } : {})
        };
        if (b.kind === 'rebind') {
            return [{ $type: 'Rebinding', location, ...this.key(b.key), ...flags }];
        }
        if (b.kind === 'multibind') return this.multibind(b, location, flags);
        if (mods.has('parameters')) return this.parameters(b, location);
        if (mods.has('variables') || mods.has('variable')) return this.variables(b, location, mods.has('abstract'));
        if (mods.has('map')) return this.map(b, location);
        if (mods.has('alias') || mods.has('renamed')) {
            const original = this.key(b.key);
            const asFlags = new Set<string>(b.asModifiers);
            return [{
                $type: mods.has('renamed') ? 'RenamedBinding' : 'AliasBinding', location,
                ...this.key(b.asKey),
                ...(original.type !== undefined ? { originalType: original.type } : {}),
                originalName: original.name ?? '',
                ...(asFlags.has('abstract') ? { abstract: true } : {}),
                ...(asFlags.has('override') ? { override: true } : {}),
                ...(asFlags.has('final') ? { final: true } : {})
            }];
        }
        const { producer, args } = this.producerAndArgs(b);
        const inId = b.in ? this.name(b.in) : undefined;
        return [{
            $type: 'Binding', location, ...this.key(b.key), ...flags,
            ...(inId !== undefined ? { multibindId: inId } : {}),
            ...(producer ? { producer } : {}),
            ...(args.length > 0 ? { producerArgs: args } : {})
        }];
    }

    private multibind(b: BindOperation, location: SourceLocation, flags: object): AbstractBinding[] {
        const key = this.key(b.key);
        // ARM-8: "If no as clause is used, the binding id is the same as the name in the multibind's key."
        const id = b.asKey?.name ? this.name(b.asKey.name) : key.name;
        const inId = b.in ? this.name(b.in) : undefined;
        const isHash = /^Hash\b/.test(key.type ?? 'Hash');
        // The parser's validator allows only `combinator` among the collection options (the
        // binder's flatten/uniq/conflict_resolution are not ARM-8 syntax); other options are producer arguments.
        let combinator: PuppetLambda | undefined;
        const args: NamedArgument[] = [];
        for (const o of b.options) {
            if (o.name === 'combinator' && o.lambda) combinator = this.lambda(o.lambda);
            else args.push(this.argument(o));
        }
        const producer = combinator
            ? { $type: isHash ? 'HashMultibindProducerDescriptor' : 'ArrayMultibindProducerDescriptor', location: combinator.location, combinator } as ProducerDescriptor
            : undefined;
        return [{
            $type: 'Multibinding', location, ...key, ...flags,
            ...(id !== undefined ? { id } : {}),
            ...(inId !== undefined ? { multibindId: inId } : {}),
            ...(producer ? { producer } : {}),
            ...(args.length > 0 ? { producerArgs: args } : {})
        } as AbstractBinding];
    }

    private parameters(b: BindOperation, location: SourceLocation): AbstractBinding[] {
        const target = b.key?.className !== undefined ? `Class[${b.key.className}]` : b.key?.type ? this.type(b.key.type) : undefined;
        if (target === undefined) {
            this.error(b, BindingsIssues.BIND_MISSING_TARGET, 'bind parameters needs a target (a class or a resource type or instance)');
            return [];
        }
        const map: ParameterMapping[] = [];
        const rest: BindOption[] = [];
        for (const o of b.options) {
            if (o.name === 'map') map.push(...this.mappings(o, o.value));
            else rest.push(o);
        }
        const { producer, args } = this.producerAndArgs(b, rest);
        // A hash written in place whose values are not all data (`{ require => Notify['a'] }`) is
        // evaluated; its keys still name the parameters, one binding each, as a constant hash's do.
        if (map.length === 0 && producer?.$type === 'EvaluatingProducerDescriptor' && b.value?.$type === 'HashLiteral') {
            for (const e of b.value.entries) {
                const k = this.literal(e.key);
                if (typeof k === 'string') map.push({ $type: 'ParameterMapping', location: this.at(e), targetParameter: k, sourceParameter: k });
            }
        }
        return [{
            $type: 'ParametersBinding', location, target,
            ...(producer ? { producer } : {}),
            ...(map.length > 0 ? { map } : {}),
            ...(args.length > 0 ? { producerArgs: args } : {})
        } as AbstractBinding];
    }

    private variables(b: BindOperation, location: SourceLocation, abstract: boolean): AbstractBinding[] {
        const type = b.key?.type ? this.type(b.key.type) : undefined;
        if (abstract) {
            const v = b.value && b.value.$type !== 'ClassTypeReference' ? this.literal(b.value) : NOT_LITERAL;
            const names = typeof v === 'string' ? [v] : Array.isArray(v) && v.every(x => typeof x === 'string') ? v as string[] : undefined;
            if (!names) {
                this.error(b, BindingsIssues.BIND_VARIABLES_VALUE, 'abstract variables are given as a name or an array of names');
                return [];
            }
            return [{ $type: 'VariablesBinding', location, abstract: true, ...(type !== undefined ? { type } : {}), variableNames: names.map(n => n.replace(/^\$/, '')) } as AbstractBinding];
        }
        const { producer, args } = this.producerAndArgs(b);
        return [{
            $type: 'VariablesBinding', location, ...(type !== undefined ? { type } : {}),
            ...(producer ? { producer } : {}),
            ...(args.length > 0 ? { producerArgs: args } : {})
        } as AbstractBinding];
    }

    private map(b: BindOperation, location: SourceLocation): AbstractBinding[] {
        const fromType = b.key?.type ? this.type(b.key.type) : b.key?.className !== undefined ? `Class[${b.key.className}]` : undefined;
        const toType = b.value ? (b.value.$type === 'ClassTypeReference' ? `Class[${b.value.name}]` : this.text(b.value)) : undefined;
        if (fromType === undefined || toType === undefined) {
            this.error(b, BindingsIssues.BIND_MISSING_TARGET, 'bind map needs two types: bind map LHS to RHS { lhs_param => rhs_param }');
            return [];
        }
        // The options block of `bind map` is the mapping itself: each `a => b` maps a parameter.
        const mappings = b.options.flatMap(o => this.mapping(o, o.name, o.value));
        return [{ $type: 'ParameterMapBinding', location, fromType, toType, mappings } as AbstractBinding];
    }

    private mappings(at: AstNode, value: Expression | undefined): ParameterMapping[] {
        if (value?.$type !== 'HashLiteral') {
            this.error(at, BindingsIssues.BIND_OPTION_VALUE, "'map' must be a hash of parameter names: { target => source }");
            return [];
        }
        return value.entries.flatMap(e => {
            const k = this.literal(e.key);
            return typeof k === 'string' ? this.mapping(e, k, e.value) : (this.error(e.key, BindingsIssues.BIND_OPTION_VALUE, 'a parameter name must be a word or a string'), []);
        });
    }

    private mapping(at: AstNode, target: string, value: Expression | undefined): ParameterMapping[] {
        const source = value ? this.literal(value) : NOT_LITERAL;
        if (typeof source !== 'string') {
            this.error(at, BindingsIssues.BIND_OPTION_VALUE, `the parameter '${target}' must map to a parameter name`);
            return [];
        }
        return [{ $type: 'ParameterMapping', location: this.at(at), targetParameter: target, sourceParameter: source }];
    }

    // -----------------------------------------------------------------------------------------
    // producers and options

    private producerAndArgs(b: BindOperation, options: readonly BindOption[] = b.options): { producer?: ProducerDescriptor; args: NamedArgument[] } {
        const args: NamedArgument[] = [];
        let selectResult: PuppetLambda | undefined;
        for (const o of options) {
            if (o.name === 'producer_args') {
                const v = o.value ? this.literal(o.value) : NOT_LITERAL;
                if (typeof v !== 'object' || v === null || Array.isArray(v)) {
                    this.error(o, BindingsIssues.BIND_OPTION_VALUE, "'producer_args' must be a literal hash");
                    continue;
                }
                for (const [name, value] of Object.entries(v)) args.push({ $type: 'NamedArgument', location: this.at(o), name, value });
            } else if (o.name === 'select_result' && o.lambda) {
                selectResult = this.lambda(o.lambda);
            } else {
                args.push(this.argument(o));
            }
        }
        if (!b.value) return { args };
        // `to producer 'name'`: the producer is the one bound to that name (a lookup), not the string.
        const named = b.producer && b.value.$type !== 'ClassTypeReference' ? this.literal(b.value) : NOT_LITERAL;
        let producer: ProducerDescriptor = typeof named === 'string'
            ? { $type: 'LookupProducerDescriptor', location: this.at(b.value), name: named }
            : this.producer(b.value, selectResult);
        // A class is its own (only) instance: `bind parameters web to class dbconfig` takes the parameters of Class[dbconfig] in the catalog.
        const cls = producer.$type === 'EvaluatingProducerDescriptor' && b.modifiers.includes('parameters') ? /^Class\[\s*['"]?([^'"\]]+?)['"]?\s*\]$/.exec(producer.expression.source) : null;
        if (cls) producer = { $type: 'InstanceReferenceProducerDescriptor', location: producer.location, reference: `Class[${cls[1]}]` };
        if (b.producer) producer = { $type: 'ProducerProducerDescriptor', location: producer.location, producer };
        if (b.optional) producer = { $type: 'OptionalProducerDescriptor', location: producer.location, producer };
        if (selectResult && producer.$type !== 'QueryProducerDescriptor' && !(producer.$type === 'OptionalProducerDescriptor' && producer.producer.$type === 'QueryProducerDescriptor')) {
            this.error(b, BindingsIssues.BIND_OPTION_VALUE, "'select_result' applies to query producers (Type[?? query]) only");
        }
        return { producer, args };
    }

    /**
     * The descriptor of a `to` value: data is a constant, `Type[X]` (a runtime class) an instance,
     * `T[x]` a reference, `T[?? q]` a query, the rest is evaluated — so a Puppet type (`class
     * ntp2`, `Class[ntp2]`, `MyBetterResourceType`) is the type itself (ARM-8 "Typed, Anonymous
     * Binding": "bind class ntp to class ntp2").
     */
    private producer(value: NonNullable<BindOperation['value']>, selectResult: PuppetLambda | undefined): ProducerDescriptor {
        const location = this.at(value);
        if (value.$type === 'ClassTypeReference') {
            return { $type: 'EvaluatingProducerDescriptor', location, expression: { $type: 'PuppetExpression', location, source: `Class['${value.name.replace(/^::/, '')}']` } };
        }
        const v = this.literal(value);
        if (v !== NOT_LITERAL) return { $type: 'ConstantProducerDescriptor', location, value: v };
        if (value.$type === 'AccessExpression' && value.left.$type === 'TypeReference') {
            if (value.query) {
                return {
                    $type: 'QueryProducerDescriptor', location, resourceType: value.left.value,
                    query: this.expression(value.query.query), ...(selectResult ? { selectResult } : {})
                };
            }
            if (value.left.value === 'Type' && value.keys.length === 1 && value.keys[0].$type === 'TypeReference') {
                return { $type: 'InstanceProducerDescriptor', location, className: value.keys[0].value };
            }
            // `Class[x]` is a type; `Sql[one]` an instance (of the catalog).
            if (value.left.value !== 'Class') return { $type: 'InstanceReferenceProducerDescriptor', location, reference: this.text(value) };
        }
        return { $type: 'EvaluatingProducerDescriptor', location, expression: this.expression(value) };
    }

    private argument(o: BindOption): NamedArgument {
        if (o.lambda) return { $type: 'NamedArgument', location: this.at(o), name: o.name, expression: this.lambda(o.lambda) };
        const v = o.value ? this.literal(o.value) : null;
        return v === NOT_LITERAL && o.value
            ? { $type: 'NamedArgument', location: this.at(o), name: o.name, expression: this.expression(o.value) }
            : { $type: 'NamedArgument', location: this.at(o), name: o.name, value: v === NOT_LITERAL ? null : v };
    }

    // -----------------------------------------------------------------------------------------
    // include/exclude, dependency

    private classes(c: ClassBinding): AbstractBinding[] {
        // `exclude []` binds nothing; the model's class list is never empty.
        if (c.classes.length === 0) return [];
        return [{ $type: c.kind === 'include' ? 'IncludeClassesBinding' : 'ExcludeClassesBinding', location: this.at(c), classNames: [...c.classes] }];
    }

    /** `A -> B ~> C` becomes one DependencyBinding per arrow, each located at its statement (the parser allows only `->` and `~>`). */
    private dependency(d: BindDependency): AbstractBinding[] {
        const out: AbstractBinding[] = [];
        const walk = (e: Expression): string[] => {
            if (e.$type !== 'RelationshipExpression') return this.references(e);
            const sources = walk(e.left);
            const targets = walk(e.right);
            out.push({ $type: 'DependencyBinding', location: this.at(d), sources, targets, arrow: e.operator === '~>' ? 'notify' : 'before' } as AbstractBinding);
            return targets;
        };
        if (d.expr.$type !== 'RelationshipExpression') {
            this.error(d, BindingsIssues.BIND_DEPENDENCY, 'bind dependency needs a relationship: A -> B or A ~> B');
            return [];
        }
        walk(d.expr);
        return out;
    }

    private references(e: Expression): string[] {
        return e.$type === 'ArrayLiteral' ? e.elements.flatMap(x => this.references(x)) : [this.text(e)];
    }

    // -----------------------------------------------------------------------------------------
    // site

    private site(s: SiteExpression): SiteDefinition {
        let categorization: SiteCategorization | undefined;
        let layers: NamedLayer[] | undefined;
        for (const st of s.body) {
            if (st.$type === 'SiteCategories') {
                categorization = {
                    $type: 'SiteCategorization', location: this.at(st),
                    categories: st.entries.map((e): CategoryDefinition => ({ $type: 'CategoryDefinition', location: this.at(e), categorization: e.name, valueExpression: this.expression(e.value) }))
                };
            } else if (st.$type === 'SiteLayers') {
                layers = st.layers.flatMap(l => this.layer(l));
            }
            // Other statements of a site block (environments...) are the catalog builder's.
        }
        return { location: this.at(s), ...(categorization ? { categorization } : {}), ...(layers ? { layers } : {}) };
    }

    private layer(l: Layer): NamedLayer[] {
        const name = this.literal(l.name);
        if (typeof name !== 'string' || name === '') {
            this.error(l.name, BindingsIssues.BIND_LAYER, `a layer name must be a non-empty string, not ${this.text(l.name)}`);
            return [];
        }
        const lists: Record<'include' | 'exclude', string[]> = { include: [], exclude: [] };
        for (const op of l.ops) {
            const v = op.$type === 'AttributeAssign' ? this.literal(op.value) : NOT_LITERAL;
            const uris = typeof v === 'string' ? [v] : Array.isArray(v) && v.every(x => typeof x === 'string') ? v as string[] : undefined;
            if (op.$type !== 'AttributeAssign' || (op.name !== 'include' && op.name !== 'exclude') || !uris) {
                this.error(op, BindingsIssues.BIND_LAYER, `layer '${name}': only include => URI(s) and exclude => URI(s) are allowed`);
                continue;
            }
            lists[op.name].push(...uris);
        }
        return [{ $type: 'NamedLayer', location: this.at(l), name, include: lists.include, exclude: lists.exclude, bindings: [] }];
    }

    // -----------------------------------------------------------------------------------------
    // keys, names, types, literals

    private key(k: BindKey | undefined): { type?: string; name?: string } {
        if (!k) return {};
        const type = k.className !== undefined ? `Class[${k.className}]` : k.type ? this.type(k.type) : undefined;
        const name = k.name ? this.name(k.name) : undefined;
        return { ...(type !== undefined ? { type } : {}), ...(name !== undefined ? { name } : {}) };
    }

    private name(n: BindName): string {
        const v = this.literal(n);
        if (typeof v === 'string') return v;
        this.error(n, BindingsIssues.BIND_NAME, `a bound name must be a literal string, not ${this.text(n)}`);
        return this.text(n);
    }

    /** A bind type as a Puppet type string: `Array[Class[ntp]]`, `Web[one]`. */
    private type(t: BindType | BindTypeArg): string {
        switch (t.$type) {
            case 'ClassTypeReference': return `Class[${t.name}]`;
            case 'BindTypeReference':
                if (t.query) return `${t.name}[?? ${this.text(t.query.query)}]`;
                return t.args.length > 0 ? `${t.name}[${t.args.map(a => this.type(a)).join(', ')}]` : t.name;
            default: return this.text(t);
        }
    }

    /** The data value of a literal expression (strings without interpolation, numbers, arrays, hashes, bare words), else NOT_LITERAL. */
    private literal(e: Expression): Literal {
        switch (e.$type) {
            case 'StringLiteral': case 'QualifiedName': case 'WordLiteral': return e.value;
            case 'ConcatString': return e.parts.length === 0 ? e.pre : NOT_LITERAL;
            case 'BooleanLiteral': return e.value === 'true';
            case 'UndefLiteral': return null;
            case 'NumberLiteral': {
                const n = /^0x/i.test(e.value) ? parseInt(e.value, 16) : /^0\d+$/.test(e.value) ? parseInt(e.value, 8) : Number(e.value);
                // Rich data has no whole Float (2.0 would come back an Integer): such a Float is evaluated.
                if (Number.isInteger(n) && /[.eE]/.test(e.value) && !/^0x/i.test(e.value)) return NOT_LITERAL;
                return Number.isFinite(n) ? n : NOT_LITERAL;
            }
            case 'UnaryMinusExpression': {
                const v = this.literal(e.expr);
                return typeof v === 'number' ? -v : NOT_LITERAL;
            }
            case 'ArrayLiteral': {
                const out: RichData[] = [];
                for (const x of e.elements) {
                    const v = this.literal(x);
                    if (v === NOT_LITERAL) return NOT_LITERAL;
                    out.push(v);
                }
                return out;
            }
            case 'HashLiteral': {
                const out: Record<string, RichData> = {};
                for (const entry of e.entries) {
                    const k = this.literal(entry.key);
                    const v = this.literal(entry.value);
                    // Non-string keys need the rich-data pair form; such hashes are evaluated instead.
                    if (typeof k !== 'string' || v === NOT_LITERAL || k === '__ptype') return NOT_LITERAL;
                    out[k] = v;
                }
                return out;
            }
            default: return NOT_LITERAL;
        }
    }

    private expression(e: AstNode): PuppetExpression {
        return { $type: 'PuppetExpression', location: this.at(e), source: this.text(e) };
    }

    private lambda(l: Lambda): PuppetLambda {
        return { $type: 'PuppetLambda', location: this.at(l), source: this.text(l), parameters: l.params.map(p => p.name.replace(/^\$/, '')) };
    }

    private text(n: AstNode): string {
        return n.$cstNode?.text.trim() ?? '';
    }

    private at(n: AstNode): SourceLocation {
        const start = n.$cstNode?.range.start;
        return start ? { $type: 'SourceLocation', file: this.file, line: start.line + 1, column: start.character + 1 } : { $type: 'SourceLocation', file: this.file };
    }

    private error(n: AstNode, code: string, message: string): void {
        const loc = this.at(n);
        this.diagnostics.push({ severity: 'error', code, message, at: { file: this.file, line: loc.line ?? 1, column: loc.column ?? 1 } });
    }
}
