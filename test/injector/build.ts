/**
 * A small builder for Bindings models in code: plain objects with short `$type`s, as decodeJson
 * yields them. Every binding gets a source location (`bindings/test.pp:<line>`) so tests can
 * check that diagnostics name the right places.
 */
import type {
    AbstractBinding, Binding, Category, CategoryPredicate, LayeredBindings, NamedArgument, NamedBindings, NamedLayer, ProducerDescriptor,
    PuppetLambda, SourceLocation
} from '../../generated/model/bindings.js';
import { modelRegistry, type Model, type ModelObject, type RichData } from '../../src/model/index.js';

let nextLine = 1;
export function resetLines(): void {
    nextLine = 1;
}

export function at(line?: number, file = 'bindings/test.pp'): SourceLocation {
    return { $type: 'SourceLocation', file, line: line ?? nextLine++, column: 3 };
}

export interface BindOptions {
    readonly type?: string;
    readonly abstract?: boolean;
    readonly override?: boolean;
    readonly final?: boolean;
    readonly in?: string;
    readonly producer?: ProducerDescriptor;
    readonly args?: NamedArgument[];
    readonly line?: number;
    readonly file?: string;
}

export function constant(value: RichData): ProducerDescriptor {
    return { $type: 'ConstantProducerDescriptor', value };
}

/** `bind [Type,] 'name' to value [in 'id']`; value undefined = no producer. */
export function bind(name: string | undefined, value?: RichData, o: BindOptions = {}): Binding {
    const producer = o.producer ?? (value !== undefined ? constant(value) : undefined);
    return {
        $type: 'Binding', location: at(o.line, o.file),
        ...(name !== undefined ? { name } : {}),
        ...(o.type !== undefined ? { type: o.type } : {}),
        ...(o.abstract ? { abstract: true } : {}),
        ...(o.override ? { override: true } : {}),
        ...(o.final ? { final: true } : {}),
        ...(o.in !== undefined ? { multibindId: o.in } : {}),
        ...(producer ? { producer } : {}),
        ...(o.args ? { producerArgs: o.args } : {})
    };
}

export function multibind(name: string, type: string, id: string | undefined, o: BindOptions = {}): AbstractBinding {
    return {
        $type: 'Multibinding', location: at(o.line, o.file), name, type,
        ...(id !== undefined ? { id } : {}),
        ...(o.producer ? { producer: o.producer } : {}),
        ...(o.override ? { override: true } : {}),
        ...(o.in !== undefined ? { multibindId: o.in } : {})
    } as AbstractBinding;
}

export function lambda(source: string, ...parameters: string[]): PuppetLambda {
    return { $type: 'PuppetLambda', source, parameters, location: at() };
}

export function arg(name: string, value: RichData | PuppetLambda): NamedArgument {
    return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { $type?: unknown }).$type === 'PuppetLambda'
        ? { $type: 'NamedArgument', name, expression: value as PuppetLambda }
        : { $type: 'NamedArgument', name, value: value as RichData };
}

export const cat = (categorization: string, value: string): Category => ({ $type: 'Category', categorization, value, location: at() });
export const and = (...operands: CategoryPredicate[]): CategoryPredicate => ({ $type: 'AndPredicate', operands });
export const or = (...operands: CategoryPredicate[]): CategoryPredicate => ({ $type: 'OrPredicate', operands });

export function when(predicates: CategoryPredicate | CategoryPredicate[], ...bindings: AbstractBinding[]): AbstractBinding {
    return { $type: 'CategorizedBindings', location: at(), predicates: Array.isArray(predicates) ? predicates : [predicates], bindings };
}

export function named(name: string, ...bindings: AbstractBinding[]): NamedBindings {
    return { $type: 'NamedBindings', name, location: at(), bindings };
}

export function contributed(name: string, uri: string, ...bindings: AbstractBinding[]): NamedBindings {
    return { ...named(name, ...bindings), contributedBy: { $type: 'ContributionSource', scheme: uri.slice(0, uri.indexOf(':')), uri } };
}

export function layer(name: string, ...bindings: NamedBindings[]): NamedLayer {
    return { $type: 'NamedLayer', name, location: at(), bindings };
}

export function layerExcluding(name: string, exclude: string[], ...bindings: NamedBindings[]): NamedLayer {
    return { ...layer(name, ...bindings), exclude };
}

export interface CategoryDef {
    readonly name: string;
    /** The value expression's source; omitted for built-ins. */
    readonly expr?: string;
    readonly precedence?: number;
}

export function layered(layers: NamedLayer[], categories?: CategoryDef[]): Model {
    const root: LayeredBindings = {
        $type: 'LayeredBindings', location: at(), layers,
        ...(categories ? {
            categorization: {
                $type: 'SiteCategorization', location: at(),
                categories: categories.map(c => ({
                    $type: 'CategoryDefinition', categorization: c.name, location: at(),
                    ...(c.expr !== undefined ? { valueExpression: { $type: 'PuppetExpression', source: c.expr, location: at() } } : {}),
                    ...(c.precedence !== undefined ? { precedence: c.precedence } : {})
                }))
            }
        } : {})
    };
    const index = modelRegistry().byPackageName('bindings');
    if (!index) throw new Error('no bindings package');
    return { index, root: root as unknown as ModelObject };
}

/** One layer 'site' with one named bindings 'site::default'. */
export function site(...bindings: AbstractBinding[]): Model {
    return layered([layer('site', named('site::default', ...bindings))]);
}
