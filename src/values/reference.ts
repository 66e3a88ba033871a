/**
 * A type or class name as Puppet writes it in references and type names: every `::` segment
 * with its first letter upper case (`apt_key` → `Apt_key`, `foo::bar` → `Foo::Bar`), a leading
 * `::` dropped. The rest of each segment is kept; callers holding a name in any case lower it
 * first (Puppet's canonical names are lower case).
 */
export function capitalizeTypeName(name: string): string {
    let out = capitalized.get(name);
    if (out === undefined) {
        out = name.replace(/^::/, '').split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('::');
        // Asked for every resource declared and referenced, of a few hundred type names: kept, within a bound.
        if (capitalized.size > 10_000) capitalized.clear();
        capitalized.set(name, out);
    }
    return out;
}

const capitalized = new Map<string, string>();

/** `Type[title]`: a resource reference as catalogs, logs and relationship edges print it. */
export function resourceReference(type: string, title: string): string {
    return `${capitalizeTypeName(type)}[${title}]`;
}
