import { isUserError } from '../../common/index.js';
import {
    coreType, generalize, inferType, isAssignable, isInstance, parseTypeString, PAnyType, PArrayType, PHashType, T, typeToString
} from '../../types/index.js';
import { isRuntimeValue, type InjectedValue } from '../values.js';
import type { TypeService } from './type-service.js';

/**
 * The injector's view of the shared Puppet type system (`src/types`). Two additions of its own:
 * ARM-8's type table makes a bare `Array` an Array of Data and a bare `Hash` a Hash of Data (so
 * they share the Data name space), and runtime objects (made by instance producers) are judged
 * by their class name, since the type system has no runtime classes.
 */
export class SharedTypeService implements TypeService {
    private readonly parsed = new Map<string, PAnyType | undefined>();

    normalize(type: string): string {
        const t = this.parse(type);
        return t ? typeToString(t) : type.trim();
    }

    isDataCompatible(type: string): boolean {
        const t = this.parse(type);
        return t !== undefined && isAssignable(T.data, t);
    }

    isInstance(value: InjectedValue, type: string): boolean {
        const t = this.parse(type);
        if (t === undefined) return true;
        if (isRuntimeValue(value)) return runtimeInstance(value.runtimeType, t);
        return isInstance(t, value);
    }

    isAssignable(target: string, source: string): boolean {
        const t = this.parse(target);
        const s = this.parse(source);
        if (!t || !s) return target.trim() === source.trim();
        return isAssignable(t, s);
    }

    infer(value: InjectedValue): string {
        if (isRuntimeValue(value)) return value.runtimeType;
        return typeToString(generalize(inferType(value)));
    }

    collectionOf(type: string): { kind: 'array'; element: string } | { kind: 'hash'; key: string; value: string } | undefined {
        const t = this.parse(type);
        if (t instanceof PArrayType) return { kind: 'array', element: t.element ? typeToString(t.element) : 'Any' };
        if (t instanceof PHashType) return { kind: 'hash', key: t.key ? typeToString(t.key) : 'Any', value: t.value ? typeToString(t.value) : 'Any' };
        return undefined;
    }

    private parse(type: string): PAnyType | undefined {
        if (this.parsed.has(type)) return this.parsed.get(type);
        const text = arm8Type(type.trim());
        // Plain core type names need no parser (and no parser construction on a cold start).
        let t: PAnyType | undefined = /^[A-Z]\w*$/.test(text) ? coreType(text) : undefined;
        try {
            t ??= parseTypeString(text);
        } catch (e) {
            if (!isUserError(e)) throw e;
            t = undefined; // not a type we can read: it is then only a name
        }
        this.parsed.set(type, t);
        return t;
    }
}

/**
 * ARM-8's type table: a bare `Array` holds Data, a bare `Hash` is keyed by literals and holds
 * Data, and `Hash[x]` is such a hash with values of type x (Puppet 4 needs two parameters).
 * Its `Literal` ("Boolean, Integer, Float, or String") and `Number` ("Integer or Float") are
 * Puppet 4's ScalarData and Numeric, wherever they occur in the type.
 */
function arm8Type(written: string): string {
    const text = renameArm8Types(written);
    if (text === 'Array') return 'Array[Data]';
    if (text === 'Hash') return 'Hash[String, Data]';
    const m = /^Hash\[(.*)\]$/s.exec(text);
    return m && topLevelCommas(m[1]) === 0 ? `Hash[String, ${m[1].trim()}]` : text;
}

const ARM8_NAMES: Readonly<Record<string, string>> = { Literal: 'ScalarData', Number: 'Numeric' };

/** `Literal` and `Number` as type names (not inside quotes, not part of a longer or qualified name) in Puppet 4's words. */
function renameArm8Types(text: string): string {
    if (!/Literal|Number/.test(text)) return text;
    let out = '';
    let quote: string | undefined;
    for (let i = 0; i < text.length;) {
        const ch = text[i];
        if (quote) { out += ch; if (ch === quote) quote = undefined; i++; continue; }
        if (ch === "'" || ch === '"') { quote = ch; out += ch; i++; continue; }
        const word = /^[A-Za-z_][\w]*(?:::[A-Za-z_][\w]*)*/.exec(text.slice(i))?.[0];
        if (word === undefined) { out += ch; i++; continue; }
        out += ARM8_NAMES[word] ?? word;
        i += word.length;
    }
    return out;
}

function topLevelCommas(text: string): number {
    let depth = 0;
    let n = 0;
    let quote: string | undefined;
    for (const ch of text) {
        if (quote) { if (ch === quote) quote = undefined; continue; }
        if (ch === "'" || ch === '"') quote = ch;
        else if (ch === '[' || ch === '{') depth++;
        else if (ch === ']' || ch === '}') depth--;
        else if (ch === ',' && depth === 0) n++;
    }
    return n;
}

/** A runtime object is an instance of Any, of a runtime/resource/Type[...] type (no class hierarchy is known), or of its own class name. */
function runtimeInstance(className: string, t: PAnyType): boolean {
    switch (t.kind) {
        case 'Any': case 'Type': case 'Resource': case 'Class': return true;
        case 'Optional': case 'NotUndef': case 'Variant': return true;
        default: return typeToString(t) === className;
    }
}
