import type { EffectiveBinding, EffectiveBindings } from '../../generated/model/effective-bindings.js';
import { fromRichData, type Model, type RichData } from '../model/index.js';
import type { PuppetValue } from '../values/index.js';
import { DEPENDENCIES_KEY, escapeInstanceName } from '../injector/index.js';
import { PClassType, PResourceType } from '../types/index.js';
import { createHieraDataBinding, type DataBindingContext, type DataBindingOptions, type DataBindingResult } from './hiera/data-binding.js';
import type { HieraEnvironment, HieraTypeSupport } from './hiera/engine.js';
import type { WarningSink } from './hiera/data-cache.js';
import type { InjectingDataBinding } from './injecting-data-binding.js';
import { parameterKeyOf, parameterNamesOf } from './injecting-data-binding.js';
import { BindingsIssues } from './issues.js';
import { fail } from './providers/provider.js';

/** The node an EffectiveBindings model was made for, checked against the compile's node. */
export function checkEffectiveNode(model: Model, node: string, file: string): void {
    const made = (model.root as unknown as EffectiveBindings).request?.node;
    if (made !== node) {
        fail(BindingsIssues.BIND_EFFECTIVE_NODE, `these effective bindings were made for node '${made ?? ''}', not for '${node}'`, { file, path: '/request/node' });
    }
}

/**
 * The catalog builder's data binding from an EffectiveBindings model (`modelc effective --values`):
 * what the injector decided for the node is read, not recomputed. A key a Hiera level won (its
 * winner was contributed by `hiera:`), or that nothing binds, is answered by Hiera 5 with its own
 * semantics (merges, lookup_options, interpolation), exactly as the injecting data binding does.
 */
export function createEffectiveDataBinding(options: {
    readonly environment: HieraEnvironment;
    readonly effective: Model;
    readonly file: string;
    readonly types?: HieraTypeSupport;
    readonly warn?: WarningSink;
}): InjectingDataBinding {
    const hiera = createHieraDataBinding(options);
    const entries = (options.effective.root as unknown as EffectiveBindings).entries ?? [];
    let paramKeys: string[] | undefined;
    const byKey = new Map<string, { entry: EffectiveBinding; index: number }>();
    entries.forEach((entry, index) => { if (!byKey.has(entry.key)) byKey.set(entry.key, { entry, index }); });
    // The injector's names: `/...` names its own keys (/classes, /param/Class[c]/p), a plain name Data/NAME.
    const entryOf = (name: string): { entry: EffectiveBinding; index: number } | undefined => byKey.get(name.startsWith('/') || name.endsWith('/') ? name : `Data/${name}`);
    const valueOf = (name: string): PuppetValue => {
        const found = entryOf(name);
        if (!found) return fail(BindingsIssues.BIND_EFFECTIVE_NO_VALUE, `'${name}' is not bound in these effective bindings`, { file: options.file, path: '/entries' });
        const e = found.entry as EffectiveBinding & { produced?: boolean; value?: RichData };
        if (e.produced !== true) {
            return fail(BindingsIssues.BIND_EFFECTIVE_NO_VALUE, `these effective bindings carry no value for '${name}' (make them with --values)`, { file: options.file, path: `/entries/${found.index}` });
        }
        return fromRichData(e.value ?? null, `/entries/${found.index}/value`);
    };
    const bound = (name: string): boolean => {
        const w = entryOf(name)?.entry.winner;
        return w !== undefined && !(w.contributedBy ?? '').startsWith('hiera:');
    };
    return {
        lookup(key: string, opts: DataBindingOptions, ctx: DataBindingContext): DataBindingResult {
            if (bound(key)) return { found: true, value: valueOf(key) };
            const param = parameterKeyOf(key);
            if (param !== undefined && bound(param)) return { found: true, value: valueOf(param) };
            return hiera.lookup(key, opts, ctx);
        },
        inject(name, _type, optional) {
            return optional && entryOf(name) === undefined ? null : valueOf(name);
        },
        classes() {
            if (entryOf('/classes') === undefined) return [];
            const v = valueOf('/classes');
            return Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : [];
        },
        // The catalog's other ARM-8 inputs, as the injecting data binding gives them, read from the model.
        variables() {
            return entries.filter(e => e.key.startsWith('/var/') && bound(e.key)).map((e): [string, PuppetValue] => [e.key.slice('/var/'.length), valueOf(e.key)]);
        },
        dependencies() {
            const v = bound(DEPENDENCIES_KEY) ? valueOf(DEPENDENCIES_KEY) : [];
            const strings = (x: PuppetValue | undefined): string[] => (Array.isArray(x) ? x : x === undefined || x === null ? [] : [x]).filter((t): t is string => typeof t === 'string');
            return (Array.isArray(v) ? v : []).filter((d): d is Map<PuppetValue, PuppetValue> => d instanceof Map)
                .map(d => ({ sources: strings(d.get('sources')), targets: strings(d.get('targets')), arrow: String(d.get('arrow') ?? '->') }));
        },
        resourceParameter(type, title, name) {
            for (const key of [`/param/${type}[${escapeInstanceName(title)}]/${name}`, `/param/${type}/${name}`]) {
                const e = entryOf(key)?.entry as (EffectiveBinding & { produced?: boolean }) | undefined;
                if (e?.produced === true) {
                    const value = valueOf(key);
                    if (value !== null) return { value, key };
                }
            }
            return undefined;
        },
        resourceParameterNames(type, title) {
            paramKeys ??= entries.map(e => e.key).filter(k => k.startsWith('/param/'));
            return parameterNamesOf(paramKeys, type, title);
        },
        boundType(type) {
            const e = byKey.get(`${type}/`)?.entry as (EffectiveBinding & { produced?: boolean }) | undefined;
            if (e?.produced !== true) return undefined;
            const v = valueOf(`${type}/`);
            if (v instanceof PClassType && v.className !== null) return `Class[${v.className}]`;
            return v instanceof PResourceType && v.typeName !== null && v.title === null ? v.typeName : undefined;
        }
    };
}
