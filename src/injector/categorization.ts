import type { CategoryDefinition, EffectiveCategories, SiteCategorization, SourceLocation } from '../../generated/model/bindings.js';
import { diagnostic, fail, type InjectorDiagnostic } from './diagnostics.js';
import type { EvaluationScope, ExpressionEvaluator } from './spi.js';
import type { TypeService } from './types/type-service.js';
import type { InjectedValue } from './values.js';

/** One category of the request: its value (undefined when it does not apply) and precedence. */
export interface EffectiveCategory {
    readonly categorization: string;
    readonly value: string | undefined;
    readonly precedence: number;
    readonly location?: SourceLocation;
}

export interface Categorization {
    /** Highest precedence first; node, environment and common are always present. */
    readonly categories: readonly EffectiveCategory[];
    readonly byName: ReadonlyMap<string, EffectiveCategory>;
    readonly issues: readonly InjectorDiagnostic[];
}

export interface CategorizationInput {
    readonly site: SiteCategorization | undefined;
    /** Values the composer already evaluated (LayeredBindings.effectiveCategories). */
    readonly known: EffectiveCategories | undefined;
    readonly environment: string;
    readonly categoryValues: Readonly<Record<string, string>>;
    /** The scope category expressions are evaluated in; it refuses injection. */
    readonly scope: EvaluationScope;
}

export const CATEGORY_LIMIT = 1000;

interface Def {
    readonly name: string;
    readonly def: CategoryDefinition | undefined;
}

/**
 * Evaluates the site categorization for one request (ARM-8 "Categorization"): checks the rules,
 * adds the built-in node/environment/common categories, assigns precedences (descending from
 * 1000 as the binder did, common = 0) and computes each category's value, downcased as the
 * binder compared them.
 */
export class Categorizer {
    constructor(private readonly evaluator: ExpressionEvaluator, private readonly types: TypeService) {}

    categorize(input: CategorizationInput): Categorization {
        const issues: InjectorDiagnostic[] = [];
        const defs = this.orderedDefinitions(input.site, issues);
        const precedences = this.precedences(input.site, defs, issues);
        const known = new Map((input.known?.categories ?? []).map(c => [c.categorization, c.value] as const));
        const categories: EffectiveCategory[] = defs.map((d, i) => ({
            categorization: d.name,
            value: this.valueOf(d, input, known, issues),
            precedence: precedences[i],
            ...(d.def?.location ? { location: d.def.location } : {})
        }));
        categories.push({ categorization: 'common', value: 'true', precedence: 0 });
        return { categories, byName: new Map(categories.map(c => [c.categorization, c])), issues };
    }

    private orderedDefinitions(site: SiteCategorization | undefined, issues: InjectorDiagnostic[]): Def[] {
        const all = site?.categories ?? [];
        const seen = new Set<string>();
        const defs: Def[] = [];
        all.forEach((def, i) => {
            const name = def.categorization;
            const at = { locations: [def.location ?? site?.location] };
            if (seen.has(name)) {
                issues.push(diagnostic('error', 'INJECT_CATEGORY_REDEFINED', at, name));
                return;
            }
            seen.add(name);
            if (name === 'common') {
                // The composer may list the built-in common last (no expression); a user may not write it.
                if (def.valueExpression || i !== all.length - 1) issues.push(diagnostic('error', 'INJECT_CATEGORY_COMMON_SPECIFIED', at));
                return;
            }
            if (name === 'environment' && def.valueExpression && def.valueExpression.source.trim() !== 'true') {
                issues.push(diagnostic('error', 'INJECT_CATEGORY_ENVIRONMENT_NOT_TRUE', { locations: [def.valueExpression.location ?? def.location] }, def.valueExpression.source));
            }
            defs.push({ name, def });
        });
        const node = defs.findIndex(d => d.name === 'node');
        const env = defs.findIndex(d => d.name === 'environment');
        if (node >= 0 && env >= 0 && node > env) {
            issues.push(diagnostic('error', 'INJECT_CATEGORY_NODE_BELOW_ENVIRONMENT', { locations: [defs[node].def?.location, defs[env].def?.location] }));
        }
        if (env < 0) defs.push({ name: 'environment', def: undefined });
        if (node < 0) defs.unshift({ name: 'node', def: undefined });
        if (defs.length + 1 > CATEGORY_LIMIT) issues.push(diagnostic('error', 'INJECT_CATEGORY_LIMIT', { locations: [site?.location] }));
        return defs;
    }

    /** Explicit precedences are kept when the site gave one for every category it wrote and none had to be added. */
    private precedences(site: SiteCategorization | undefined, defs: readonly Def[], issues: InjectorDiagnostic[]): number[] {
        const explicit = defs.every(d => d.def?.precedence !== undefined);
        if (!explicit) return defs.map((_, i) => CATEGORY_LIMIT - i);
        const ps = defs.map(d => d.def?.precedence ?? 0);
        for (let i = 0; i < ps.length; i++) {
            const below = i + 1 < ps.length ? ps[i + 1] : 0;
            const belowName = i + 1 < ps.length ? defs[i + 1].name : 'common';
            if (ps[i] <= below) {
                issues.push(diagnostic('error', 'INJECT_CATEGORY_PRECEDENCE_ORDER', { locations: [defs[i].def?.location ?? site?.location] }, belowName, below, defs[i].name, ps[i]));
            }
        }
        return ps;
    }

    private valueOf(d: Def, input: CategorizationInput, known: ReadonlyMap<string, string>, issues: InjectorDiagnostic[]): string | undefined {
        if (d.name === 'environment') return input.environment.toLowerCase();
        const given = input.categoryValues[d.name];
        if (given !== undefined) return given === '' ? undefined : given.toLowerCase();
        const expr = d.def?.valueExpression;
        if (!expr) {
            if (d.name === 'node') return this.literal(input.scope.variables().get('fqdn') ?? input.scope.node, d, issues);
            return known.get(d.name)?.toLowerCase();
        }
        let value: InjectedValue;
        // ARM-8: no injection in a category value expression (the injector is not set up yet).
        let injected = false;
        const scope: EvaluationScope = {
            node: input.scope.node, environment: input.scope.environment, variables: () => input.scope.variables(),
            inject: () => { injected = true; return fail('INJECT_CATEGORY_INJECTION', { locations: [expr.location ?? d.def?.location] }); }
        };
        try {
            value = this.evaluator.evaluate({ source: expr.source, ...(expr.location ? { file: expr.location.file, line: expr.location.line } : {}) }, scope);
        } catch (e) {
            if (injected) {
                issues.push(diagnostic('error', 'INJECT_CATEGORY_INJECTION', { locations: [expr.location ?? d.def?.location] }));
                return undefined;
            }
            const fallback = known.get(d.name);
            if (fallback !== undefined) return fallback.toLowerCase();
            issues.push(diagnostic('error', 'INJECT_CATEGORY_EVALUATION_FAILED', { locations: [expr.location ?? d.def?.location] }, d.name, e instanceof Error ? e.message : String(e)));
            return undefined;
        }
        // A fact this request lacks: the value the composer evaluated, if it knew one.
        if ((value === null || value === '') && known.has(d.name)) return known.get(d.name)?.toLowerCase();
        return this.literal(value, d, issues);
    }

    private literal(value: InjectedValue | undefined, d: Def, issues: InjectorDiagnostic[]): string | undefined {
        if (value === null || value === undefined || value === '') return undefined;
        if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint' || typeof value === 'number') return String(value).toLowerCase();
        const loc = d.def?.valueExpression?.location ?? d.def?.location;
        issues.push(diagnostic('error', 'INJECT_CATEGORY_VALUE_NOT_LITERAL', { locations: [loc] }, d.name, this.types.infer(value)));
        return undefined;
    }
}
