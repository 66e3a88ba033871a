import type { HieraFunctions } from './function-provider.js';
import type { PuppetValue } from '../../values/index.js';

/**
 * What a lookup may read besides the data: the node's facts and trusted data and, when a
 * catalog is being compiled, its top-scope variables. Without a compile, the top scope holds
 * only what Puppet puts there for a node: every fact, `facts`, `trusted`, `server_facts` and
 * `environment`.
 */
export interface HieraContext {
    /** The environment name ($environment, $server_facts['environment']). */
    readonly environment: string;
    /** The node's facts (a fact whose value is null reads as ''). */
    readonly facts: ReadonlyMap<string, PuppetValue>;
    /** $trusted: authenticated, certname, extensions, hostname, domain, external. */
    readonly trusted: ReadonlyMap<string, PuppetValue>;
    /**
     * A compile's variables as the scope the lookup is made from sees them (name without `$` or
     * `::`; `topScope` for `::name`): Puppet interpolates a lookup's hierarchy and data in the
     * calling scope (a class's for its parameters). Return undefined when the variable is not
     * defined; the built-in node variables then apply.
     */
    readonly variable?: (name: string, topScope: boolean) => PuppetValue | undefined;
    /** Whether a compile's environment has a class of that name (Scope#qualified_scope's two reasons). */
    readonly classExists?: (name: string) => boolean;
    /** The environment's functions (a compile's), for data_hash, lookup_key and data_dig functions it defines. */
    readonly functions?: HieraFunctions;
}

/**
 * Top-scope variable resolution; `local` holds mapped_paths' temporary variables. `undefinedVariable`
 * hears of each read of a variable that does not exist (Puppet warns of those once per name).
 */
export class HieraScope {
    constructor(
        private readonly context: HieraContext,
        private readonly local?: ReadonlyMap<string, PuppetValue>,
        private readonly undefinedVariable?: (warning: string) => void
    ) {}

    withLocal(name: string, value: PuppetValue): HieraScope {
        return new HieraScope(this.context, new Map([...(this.local ?? []), [name, value]]), this.undefinedVariable);
    }

    /**
     * `scope[name]` as Hiera's interpolation reads it: the value, or undefined for a variable that
     * does not exist, which Puppet's Scope#lookupvar reports as "Undefined variable 'NAME'; REASON"
     * (a qualified name keeps its `::`; a class part names the class it could not find; numeric
     * and built-in names are never reported).
     */
    read(rawName: string): PuppetValue | undefined {
        const v = this.get(rawName);
        if (v !== undefined || this.undefinedVariable === undefined) return v;
        if (/^\d+$/.test(rawName) || rawName === 'module_name' || rawName === 'caller_module_name') return v;
        const name = rawName.startsWith('::') ? rawName.slice(2) : rawName;
        const leaf = name.lastIndexOf('::');
        const cls = name.slice(0, leaf);
        const reason = leaf > 0 ? `class ${cls} ${this.context.classExists?.(cls) ? 'has not been evaluated' : 'could not be found'}` : '';
        this.undefinedVariable(`Undefined variable '${leaf > 0 ? name : rawName.startsWith('::') ? `::${name}` : name}'; ${reason}`);
        return v;
    }

    /** The variable's value, or undefined when no such variable exists. */
    get(rawName: string): PuppetValue | undefined {
        const name = rawName.startsWith('::') ? rawName.slice(2) : rawName;
        if (this.local?.has(name)) return this.local.get(name);
        const v = this.context.variable?.(name, rawName.startsWith('::'));
        if (v !== undefined) return v;
        switch (name) {
            case 'facts': return this.context.facts as Map<PuppetValue, PuppetValue>;
            case 'trusted': return this.context.trusted as Map<PuppetValue, PuppetValue>;
            case 'server_facts': return new Map<PuppetValue, PuppetValue>([['environment', this.context.environment]]);
            case 'environment': return this.context.environment;
            default: {
                if (!this.context.facts.has(name)) return undefined;
                const f = this.context.facts.get(name) ?? null;
                return f === null ? '' : f;
            }
        }
    }
}
