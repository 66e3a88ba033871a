import { formatValue } from '../types/index.js';
import { fromRichData, type RichData } from '../model/index.js';
import { copyValue, puppetEquals, type PuppetValue } from '../values/index.js';

/**
 * An object made by an InstanceFactory or a runtime extension (a syntax checker, a logger);
 * `runtimeType` names its class so type checks and explanations can talk about it.
 */
export interface RuntimeValue {
    readonly runtimeType: string;
}

/** What an injection yields: a Puppet value (undef = null) or a runtime object. */
export type InjectedValue = PuppetValue | RuntimeValue;

export function isRuntimeValue(v: unknown): v is RuntimeValue {
    return typeof v === 'object' && v !== null && typeof (v as { runtimeType?: unknown }).runtimeType === 'string'
        && !(v instanceof Map) && !Array.isArray(v);
}

/** Rich data (binding values in models) to a Puppet value: Integer = bigint, Hash = Map. */
export function toPuppetValue(d: RichData): PuppetValue {
    return fromRichData(d);
}

/** A fresh copy of a value (values' copyValue), so non-singleton producers hand out their own; runtime objects are shared. */
export function deepCopy(v: InjectedValue): InjectedValue {
    return isRuntimeValue(v) ? v : copyValue(v);
}

/** Puppet `==` for the values the injector compares (uniq, class names). */
export function valueEquals(a: InjectedValue, b: InjectedValue): boolean {
    if (isRuntimeValue(a) || isRuntimeValue(b)) return a === b;
    return puppetEquals(a, b);
}

export function displayValue(v: InjectedValue): string {
    if (isRuntimeValue(v)) return `<${v.runtimeType}>`;
    return typeof v === 'string' ? `'${v}'` : formatValue(v);
}
