import { BindingsIssues } from '../issues.js';
import { isLookupError, LookupError, PuppetErrorClass } from './errors.js';
import type { PuppetValue } from '../../values/index.js';
import type { Explainer } from './explain.js';

/** Where a found value was read: the layer, the hierarchy level and the data file position of its key. */
export interface LookupOrigin {
    readonly layer: 'global' | 'environment' | 'module';
    /** The module of a module layer. */
    readonly module?: string;
    /** The hierarchy level's name as written in hiera.yaml. */
    readonly level: string;
    /** The data file as messages show it (relative to the environment when inside it). */
    readonly file: string;
    readonly line?: number;
    readonly column?: number;
}

/**
 * What supplied a lookup's value: every data source that contributed, highest precedence first
 * (one for a `first` lookup), and the merge strategy that combined them.
 */
export class LookupTrace {
    readonly sources: LookupOrigin[] = [];
    merge = 'first';
}

/**
 * The state of one lookup and the lookups it triggers (Puppet's Lookup::Invocation): nested
 * lookups from `%{lookup()}` share the name stack, which is how endless recursion is caught.
 */
export class Invocation {
    topKey = '';
    moduleName: string | undefined;
    /**
     * Only the global layer answers: a hiera_xxx() call in an environment without a version 5
     * hiera.yaml (Invocation#set_global_only); lookups it makes inherit it.
     */
    globalOnly = false;

    constructor(
        readonly nameStack: string[] = [],
        readonly explainer?: Explainer,
        /** lookup()'s `override` hash: values used instead of any lookup, also seen by `%{var}`. */
        readonly overrides?: ReadonlyMap<PuppetValue, PuppetValue>,
        /** lookup()'s `default_values_hash`: values for names found nowhere, also seen by `%{var}`. */
        readonly defaults?: ReadonlyMap<PuppetValue, PuppetValue>,
        /** Records where the value came from; nested lookups (interpolation, lookup_options) keep their own. */
        readonly trace?: LookupTrace
    ) {}

    /**
     * A nested invocation sharing the recursion guard, the explanation and the override/default
     * hashes; not the trace, since a `%{lookup()}` inside a value is not where the value was found.
     */
    child(): Invocation {
        const c = new Invocation(this.nameStack, this.explainer, this.overrides, this.defaults);
        c.globalOnly = this.globalOnly;
        return c;
    }

    begin(key: string, moduleName: string | undefined): this {
        this.topKey = key;
        this.moduleName = moduleName;
        return this;
    }

    /** Runs `body` with `name` on the stack; a name already there is a recursive lookup. */
    check<T>(name: string, body: () => T): T {
        if (this.nameStack.includes(name)) {
            throw new LookupError(`Recursive lookup detected in [${this.nameStack.join(', ')}]`, {
                code: BindingsIssues.LOOKUP_RECURSION, puppetClass: PuppetErrorClass.RECURSIVE, keyPath: name
            });
        }
        this.nameStack.push(name);
        try {
            return body();
        } catch (e) {
            // Ruby's check re-raises other Puppet::Errors (a merge's TypeAssertionError...) as LookupErrors;
            // Ruby errors such as ArgumentError pass through.
            if (isLookupError(e) && (e.puppetClass === PuppetErrorClass.TYPE_ASSERTION || e.puppetClass === PuppetErrorClass.PUPPET)) {
                throw e.rewrap(e.message, PuppetErrorClass.LOOKUP);
            }
            throw e;
        } finally {
            this.nameStack.pop();
        }
    }

    /** Explanation scope; free when not explaining. */
    with<T>(text: () => string, body: () => T, dropEmpty = false): T {
        return this.explainer ? this.explainer.within(text(), body, dropEmpty) : body();
    }
}
