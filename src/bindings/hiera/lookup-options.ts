import type { PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import { LookupError } from './errors.js';

/** lookup_options split into exact keys and `^`-patterns (LookupAdapter#compile_patterns). */
export interface CompiledOptions {
    readonly keys?: ReadonlyMap<string, PuppetValue>;
    readonly patterns?: readonly (readonly [RegExp, PuppetValue])[];
}

export const LOOKUP_OPTIONS = 'lookup_options';

/** The value of lookup_options must be a hash; in a module, every key must belong to it. */
export function validateLookupOptions(options: PuppetValue, moduleName: string | undefined): Map<PuppetValue, PuppetValue> | undefined {
    if (options === null) return undefined;
    if (!(options instanceof Map)) {
        throw new LookupError('value of lookup_options must be a hash', { code: BindingsIssues.LOOKUP_OPTIONS_NOT_A_HASH });
    }
    if (moduleName === undefined) return options;
    const pfx = `${moduleName}::`;
    for (const k of options.keys()) {
        const key = String(k);
        if (key.startsWith('^')) {
            if (key.slice(1, 1 + pfx.length) !== pfx) {
                throw new LookupError(`all lookup_options patterns must match a key starting with module name '${moduleName}'`, { code: BindingsIssues.LOOKUP_OPTIONS_NOT_IN_MODULE });
            }
        } else if (!key.startsWith(pfx)) {
            throw new LookupError(`all lookup_options keys must start with module name '${moduleName}'`, { code: BindingsIssues.LOOKUP_OPTIONS_NOT_IN_MODULE });
        }
    }
    return options;
}

export function compilePatterns(options: ReadonlyMap<PuppetValue, PuppetValue> | undefined): CompiledOptions | undefined {
    if (options === undefined) return undefined;
    const keys = new Map<string, PuppetValue>();
    const patterns: [RegExp, PuppetValue][] = [];
    for (const [k, v] of options) {
        const key = String(k);
        if (key.startsWith('^')) patterns.push([rubyRegExp(key), v]);
        else keys.set(key, v);
    }
    return { keys: keys.size > 0 ? keys : undefined, patterns: patterns.length > 0 ? patterns : undefined };
}

/** The options for a root key: an exact entry first, else the first matching pattern. */
export function optionsForKey(rootKey: string, options: CompiledOptions | undefined): ReadonlyMap<PuppetValue, PuppetValue> | undefined {
    if (!options) return undefined;
    const exact = options.keys?.get(rootKey);
    if (exact !== undefined && exact !== null) return exact instanceof Map ? exact : undefined;
    for (const [re, v] of options.patterns ?? []) {
        if (re.test(rootKey)) return v instanceof Map ? v : undefined;
    }
    return undefined;
}

/** Ruby regexp source to JS: the anchors \A \z \Z and (?<name>) work the same after this. */
function rubyRegExp(source: string): RegExp {
    return new RegExp(source.replace(/\\A/g, '^').replace(/\\[zZ]/g, '$'), 'm');
}
