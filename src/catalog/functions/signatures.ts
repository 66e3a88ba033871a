import { describeMismatch, formatMismatches, isInstance, joinMismatchLines, parseTypeString, type PAnyType } from '../../types/index.js';
import type { PuppetValue } from '../../values/index.js';
import { countText } from '../compiler.js';
import { RuntimeFailure } from '../errors.js';

/** A single-dispatch signature of a core function: its named, typed parameters (Puppet's dispatch). */
interface Signature {
    readonly params: ReadonlyArray<readonly [string, string]>;
    /** How many parameters are required; the rest are optional. */
    readonly required: number;
    /** Extra arguments allowed after the declared ones (repeated last parameter). */
    readonly repeated?: boolean;
}

const SIGNATURES: Record<string, Signature> = {
    split: { params: [['str', 'String'], ['pattern', 'Variant[String, Regexp, Type[Regexp]]']], required: 2 },
    join: { params: [['arg', 'Array'], ['delimiter', 'String']], required: 1 },
    keys: { params: [['hsh', 'Hash']], required: 1 },
    values: { params: [['hsh', 'Hash']], required: 1 },
    size: { params: [['arg', 'Variant[Collection, String, Binary]']], required: 1 },
    length: { params: [['arg', 'Variant[Collection, String, Binary]']], required: 1 },
    regsubst: { params: [['target', 'Variant[Array[String], String]'], ['pattern', 'Variant[String, Regexp, Type[Regexp]]'], ['replacement', 'Variant[String, Hash[String, String]]'], ['flags', 'Optional[Pattern[/^[GEIM]*$/]]'], ['encoding', 'Enum[N, E, S, U]']], required: 3 },
    dig: { params: [['data', 'Optional[Collection]'], ['arg', 'Any']], required: 1, repeated: true },
    versioncmp: { params: [['a', 'String'], ['b', 'String'], ['ignore_trailing_zeroes', 'Boolean']], required: 2 },
    match: { params: [['string', 'Variant[String, Array]'], ['pattern', 'Variant[String, Regexp, Type[Pattern], Type[Regexp], Array]']], required: 2 },
    lookup: { params: [['name', 'Any'], ['value_type', 'Any'], ['merge', 'Any'], ['default_value', 'Any']], required: 1 }
};

const parsed = new Map<string, PAnyType>();

function typeOf(text: string): PAnyType {
    let t = parsed.get(text);
    if (!t) { t = parseTypeString(text); parsed.set(text, t); }
    return t;
}

/** Checks the arguments of a core function call against its signature, with Puppet's messages. */
export function checkSignature(name: string, args: readonly PuppetValue[]): void {
    const sig = SIGNATURES[name];
    if (!sig) return;
    const max = sig.repeated ? Infinity : sig.params.length;
    if (args.length < sig.required || args.length > max) {
        throw new RuntimeFailure(`'${name}' ${countText(sig.required, max)}, got ${args.length === 0 ? 'none' : args.length}`);
    }
    args.forEach((a, i) => {
        const [param, typeText] = sig.params[Math.min(i, sig.params.length - 1)];
        const t = typeOf(typeText);
        if (!isInstance(t, a)) throw new RuntimeFailure(joinMismatchLines(formatMismatches(`'${name}' parameter '${param}'`, describeMismatch(t, a))));
    });
}
