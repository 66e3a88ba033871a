import type {
    Arm8Definition, AttributeOperation, BindingsStatement, BindKey, BindName, BindOperation, BindType, BindTypeArg, BindValue,
    CategoryExpression, Expression, Lambda, QueryExpression, SiteStatement
} from '../../../generated/langium/ast.js';
import { assertUnreachable } from '../../common/index.js';
import { pnCall, pnList, pnMap, pnString } from './pn-format.js';

/**
 * PN for the ARM-8 forms. Puppet has no reference output for them, so this extension follows the
 * shapes of Puppet's own PN (calls named by the construct, `{:key value}` maps whose absent
 * entries are left out, statement bodies as lists):
 *
 *   (site {:body [stmt...]})                    statements in a site block; inside:
 *     (categories [(=> "node" expr) ...])        `categories { node => expr, ... }`
 *     (layers [(layer {:name expr :ops [op...]}) ...])   `bindings => [layer {'x': include => ..}]`
 *   (bindings {:name "x" :body [stmt...]})      `bindings x { ... }`
 *   (when {:condition cond :body [stmt...]})    cond: (category "node" expr), (and c c), (or c c)
 *   (bind {:kind k :modifiers ["abstract" ...] :key key :as-modifiers [...] :as key
 *          :to value :optional true :producer true :in "id" :options [(=> "name" value) ...]})
 *       k is "bind", "multibind" or "rebind"; key is {:type t :name n} or {:class "ntp"};
 *       a type is (qr "T"), (access (qr "T") arg...), (class-type "ntp") or
 *       (access (qr "T") (query expr)); absent clauses are left out, `{}` options print `[]`
 *   (bind-dependency expr)                      `bind dependency A -> B`
 *   (include-classes ["a" ...]), (exclude-classes ["a" ...])
 *   (query expr)                                `Type[?? expr]`, as the access key
 *       Inside a query the seed's `~=`, `~!` and `not` are accepted (the lexer, `arm8.ts`); they
 *       mean Puppet's `=~`, `!~` and `!`, parse with their precedence, and print as those:
 *       `a ~= /x/` is (=~ (qn "a") (regexp "x")), `a ~! b` is (!~ ..), `not a` is (! (qn "a")).
 *       (The lexer gives them the images `=~`/`!~`; `queryOperator` maps a written one too.)
 */
export interface Arm8Printers {
    readonly expr: (e: Expression) => string;
    readonly statements: (list: readonly Expression[]) => string[];
    readonly ops: (ops: readonly AttributeOperation[]) => string;
    readonly lambda: (l: Lambda) => string;
    readonly args: (args: readonly Expression[]) => string[];
}

export function printArm8(d: Arm8Definition, p: Arm8Printers): string {
    switch (d.$type) {
        case 'SiteExpression':
            return pnCall('site', pnMap([['body', pnList(printSiteBody(d.body, p))]]));
        case 'BindingsDefinition':
            return pnCall('bindings', pnMap([['name', pnString(d.name)], ['body', pnList(d.body.map(s => printBindingsStatement(s, p)))]]));
        default:
            return assertUnreachable(d);
    }
}

/** Site statements: runs of ordinary statements are lowered together (statement calls merge). */
function printSiteBody(body: readonly SiteStatement[], p: Arm8Printers): string[] {
    const out: string[] = [];
    let run: Expression[] = [];
    const flush = (): void => {
        out.push(...p.statements(run));
        run = [];
    };
    for (const s of body) {
        if (s.$type === 'SiteCategories') {
            flush();
            out.push(pnCall('categories', pnList(s.entries.map(e => pnCall('=>', pnString(e.name), p.expr(e.value))))));
        } else if (s.$type === 'SiteLayers') {
            flush();
            out.push(pnCall('layers', pnList(s.layers.map(l => pnCall('layer', pnMap([['name', p.expr(l.name)], ['ops', p.ops(l.ops)]]))))));
        } else {
            run.push(s);
        }
    }
    flush();
    return out;
}

function printBindingsStatement(s: BindingsStatement, p: Arm8Printers): string {
    switch (s.$type) {
        case 'WhenBlock':
            return pnCall('when', pnMap([['condition', printCondition(s.condition, p)], ['body', pnList(s.body.map(b => printBindingsStatement(b, p)))]]));
        case 'BindOperation':
            return printBind(s, p);
        case 'BindDependency':
            return pnCall('bind-dependency', p.expr(s.expr));
        case 'ClassBinding':
            return pnCall(`${s.kind}-classes`, pnList(s.classes.map(c => pnString(c))));
        default:
            return assertUnreachable(s);
    }
}

function printCondition(c: CategoryExpression, p: Arm8Printers): string {
    switch (c.$type) {
        case 'CategoryMatch':
            return pnCall('category', pnString(c.category), p.expr(c.value));
        case 'CategoryCondition':
            return pnCall(c.operator, printCondition(c.left, p), printCondition(c.right, p));
        default:
            return assertUnreachable(c);
    }
}

function printBind(b: BindOperation, p: Arm8Printers): string {
    const strings = (list: readonly string[]): string | undefined => (list.length > 0 ? pnList(list.map(pnString)) : undefined);
    return pnCall('bind', pnMap([
        ['kind', pnString(b.kind)],
        ['modifiers', strings(b.modifiers)],
        ['key', b.key ? printKey(b.key, p) : undefined],
        ['as-modifiers', strings(b.asModifiers)],
        ['as', b.asKey ? printKey(b.asKey, p) : undefined],
        ['to', b.value ? printValue(b.value, p) : undefined],
        ['optional', b.optional ? 'true' : undefined],
        ['producer', b.producer ? 'true' : undefined],
        ['in', b.in ? printName(b.in, p) : undefined],
        ['options', b.hasOptions
            ? pnList(b.options.map(o => pnCall('=>', pnString(o.name), o.lambda ? p.lambda(o.lambda) : o.value ? p.expr(o.value) : 'nil')))
            : undefined]
    ]));
}

function printKey(k: BindKey, p: Arm8Printers): string {
    return pnMap([
        ['type', k.type ? printType(k.type, p) : undefined],
        ['name', k.name ? printName(k.name, p) : undefined],
        ['class', k.className !== undefined ? pnString(k.className) : undefined]
    ]);
}

function printName(n: BindName, p: Arm8Printers): string {
    return p.expr(n);
}

function printType(t: BindType | BindTypeArg, p: Arm8Printers): string {
    switch (t.$type) {
        case 'ClassTypeReference':
            return pnCall('class-type', pnString(t.name));
        case 'BindTypeReference': {
            const ref = pnCall('qr', pnString(t.name));
            if (t.query) {
                return pnCall('access', ref, printQuery(t.query, p));
            }
            return t.args.length > 0 ? pnCall('access', ref, ...t.args.map(a => printType(a, p))) : ref;
        }
        default:
            return p.args([t])[0] ?? 'nil';
    }
}

function printValue(v: BindValue, p: Arm8Printers): string {
    return v.$type === 'ClassTypeReference' ? pnCall('class-type', pnString(v.name)) : p.expr(v);
}

export function printQuery(q: QueryExpression, p: Pick<Arm8Printers, 'expr'>): string {
    return pnCall('query', p.expr(q.query));
}

/** The PN operator of a binary operator: a query's `~=`/`~!` print as Puppet's `=~`/`!~`. */
export function queryOperator(op: string): string {
    return op === '~=' ? '=~' : op === '~!' ? '!~' : op;
}
