import type { TypeService } from './types/type-service.js';

/**
 * Keys: `<effective type>/<name>`, where every Data-compatible type collapses to `Data` so that
 * `String 'x'` and `Integer 'x'` share one name space (binder KeyFactory#named_key). Names of
 * the ARM-8 naming scheme (`/param/...`, `/map/...`, `/var/...`, `/classes`) are keys by
 * themselves: they are unique across all types.
 */
export class KeyFactory {
    private readonly effective = new Map<string, string>();

    constructor(private readonly types: TypeService) {}

    /** The key of a type (unset = Data) and name (unset = anonymous). */
    key(type: string | undefined, name: string | undefined): string {
        const n = name ?? '';
        if (n.startsWith('/')) return n;
        return `${this.effectiveType(type)}/${n}`;
    }

    effectiveType(type: string | undefined): string {
        if (type === undefined || type === 'Data') return 'Data';
        let eff = this.effective.get(type);
        if (eff === undefined) {
            eff = this.types.isDataCompatible(type) ? 'Data' : this.types.normalize(type);
            this.effective.set(type, eff);
        }
        return eff;
    }

    /** `/param/Class[ntp]/servers`, `/param/Web[one]/dbuser` (ARM-8 Naming Scheme: Parameters). */
    paramKey(target: string, parameter: string): string {
        return `/param/${target}/${parameter}`;
    }

    /** `/map/Web/Sql`: the parameter map from RHS instances to LHS parameters. */
    mapKey(lhs: string, rhs: string): string {
        return `/map/${lhs}/${rhs}`;
    }

    /** `/var/name` for the top-scope variable `$name`. */
    varKey(name: string): string {
        return `/var/${name.replace(/^\$(::)?/, '')}`;
    }
}

export const CLASSES_KEY = '/classes';
export const DEPENDENCIES_KEY = '/dependencies';
export const INCLUDED_CLASSES = 'included_classes';
/** The built-in Hash multibind of named producers (ARM-8: `bind Type[Producer[String]], 'mymodule::uuid' to Type[P] in 'producers'`). */
export const PRODUCERS = 'producers';
export const PRODUCERS_TYPE = 'Hash[String, Type[Producer]]';
export const EXCLUDED_CLASSES = 'excluded_classes';

/**
 * Instance names in /param and /map keys are URL-encoded for `/`, `[`, `]` and `%` so they
 * cannot make keys overlap: File['foo/bar[x]'] becomes File[foo%2Fbar%5Bx%5D] (ARM-8 Instance names).
 */
export function escapeInstanceName(title: string): string {
    return title.replace(/[%/[\]]/g, ch => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** A parameter target as written (`ntp`, `class ntp`, `Class[ntp]`, `Web`, `Web['one']`) in key form. */
export interface Target {
    /** The key form: `Class[ntp]`, `Web`, `Web[one]` (instance name escaped). */
    readonly key: string;
    /** The type part: `Class[ntp]`, `Web`. For an instance, the resource type. */
    readonly type: string;
    /** The instance title, unescaped, for instances. */
    readonly title?: string;
}

export function parseTarget(text: string): Target {
    const t = text.trim();
    const cls = /^(?:class\s+)?([a-z][\w]*(?:::[a-z][\w]*)*)$/.exec(t);
    if (cls) return { key: `Class[${cls[1]}]`, type: `Class[${cls[1]}]` };
    const classRef = /^Class\[\s*['"]?([a-z][\w:]*)['"]?\s*\]$/.exec(t);
    if (classRef) return { key: `Class[${classRef[1]}]`, type: `Class[${classRef[1]}]` };
    const inst = /^([A-Z][\w]*(?:::[A-Z][\w]*)*)\[(.*)\]$/s.exec(t);
    if (inst) {
        const raw = inst[2].trim();
        const quoted = /^(['"])(.*)\1$/s.exec(raw);
        const title = quoted ? quoted[2].replace(/\\(['"\\])/g, '$1') : raw;
        return { key: `${inst[1]}[${escapeInstanceName(title)}]`, type: inst[1], title };
    }
    return { key: t, type: t };
}
