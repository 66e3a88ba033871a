import type { PuppetValue } from '../model/index.js';
import { fail } from './diagnostics.js';
import type { EvaluationScope } from './spi.js';
import type { InjectedValue } from './values.js';

/** What an injector is created for: one node in one environment, with its facts. */
export interface InjectionRequest {
    /** The node (certname) the request is for. */
    readonly node: string;
    /** The environment; defaults to the layered bindings' environment, then `production`. */
    readonly environment?: string;
    /** The node's facts; they become top-scope variables (and `$facts`). */
    readonly facts?: ReadonlyMap<string, PuppetValue> | Readonly<Record<string, PuppetValue>>;
    /** The node's `$trusted` (src/node builds it); unset leaves `$trusted` undefined. */
    readonly trusted?: ReadonlyMap<string, PuppetValue>;
    /** Category values decided by the caller; they win over evaluating the category expressions. */
    readonly categoryValues?: Readonly<Record<string, string>>;
    /** The Bindings model file the injector is built from, recorded in the EffectiveBindings model. */
    readonly bindingsFile?: string;
}

/** The request's top scope: facts as variables, `$facts`, `$environment` and, when given, `$trusted`. */
export class RequestScope implements EvaluationScope {
    private vars: Map<string, PuppetValue> | undefined;

    constructor(
        readonly node: string,
        readonly environment: string,
        private readonly facts: ReadonlyMap<string, PuppetValue>,
        private readonly injector: ((name: string, type?: string) => InjectedValue) | undefined,
        private readonly trusted?: ReadonlyMap<string, PuppetValue>
    ) {}

    variables(): ReadonlyMap<string, PuppetValue> {
        if (!this.vars) {
            const vars = new Map<string, PuppetValue>(this.facts);
            vars.set('facts', new Map(this.facts));
            vars.set('environment', this.environment);
            if (!vars.has('fqdn')) vars.set('fqdn', this.node);
            vars.set('clientcert', this.node);
            if (this.trusted) vars.set('trusted', new Map(this.trusted));
            this.vars = vars;
        }
        return this.vars;
    }

    inject(name: string, type?: string): InjectedValue {
        if (!this.injector) fail('INJECT_CATEGORY_INJECTION', {});
        return this.injector(name, type);
    }
}

export function factsMap(facts: InjectionRequest['facts']): ReadonlyMap<string, PuppetValue> {
    if (!facts) return new Map();
    return facts instanceof Map ? facts : new Map(Object.entries(facts));
}
