import { isUserError } from '../common/index.js';
import { describeMismatch, formatMismatches, isInstance, parseTypeString, PAnyType, POptionalType, typesEqual, typeToString } from '../types/index.js';
import { mungeCliValue } from './rsapi/cli-munge.js';
import type { PuppetType, TypeParseResult, TypeSystem } from './type-system.js';
import type { PuppetValue } from './values.js';

/**
 * The apply stage's view of the shared Puppet type system (`src/types`). Parse failures are
 * turned into the two kinds the Resource API reports: syntax errors and non-type expressions.
 */
export class SharedTypeSystem implements TypeSystem {
    private readonly cache = new Map<string, TypeParseResult>();

    parse(typeString: string): TypeParseResult {
        let r = this.cache.get(typeString);
        if (!r) {
            r = this.parseUncached(typeString);
            this.cache.set(typeString, r);
        }
        return r;
    }

    private parseUncached(typeString: string): TypeParseResult {
        try {
            return { ok: true, type: parseTypeString(typeString) };
        } catch (e) {
            if (!isUserError(e)) throw e;
            const message = e.diagnostics[0]?.message ?? e.message;
            const bare = message.replace(/ in type '[\s\S]*'$/, '');
            if (/^Syntax error/.test(bare)) return { ok: false, kind: 'syntax', message: bare };
            return { ok: false, kind: 'notAType', message: `The expression <${typeString}> is not a valid type specification.` };
        }
    }

    isInstance(type: PuppetType, value: unknown): boolean {
        return isInstance(asType(type), value as PuppetValue);
    }

    describeMismatch(prefix: string, type: PuppetType, value: unknown): string {
        return formatMismatches(prefix, describeMismatch(asType(type), value as PuppetValue)).join('\n');
    }

    typeToString(type: PuppetType): string {
        return typeToString(asType(type));
    }

    typesEqual(a: PuppetType, b: PuppetType): boolean {
        return typesEqual(asType(a), asType(b));
    }

    mungeCliValue(prefix: string, type: PuppetType, value: PuppetValue): PuppetValue {
        return mungeCliValue(prefix, asType(type), value);
    }

    isOptional(type: PuppetType): boolean {
        return asType(type) instanceof POptionalType;
    }

    cliCheckedType(type: PuppetType, value: PuppetValue): PuppetType {
        let t = asType(type);
        while (value !== null && t instanceof POptionalType && t.type) t = t.type;
        return t;
    }
}

function asType(t: PuppetType): PAnyType {
    if (!(t instanceof PAnyType)) throw new TypeError('not a Puppet type');
    return t;
}
