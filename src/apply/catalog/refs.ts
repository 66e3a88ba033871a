import { capitalize, parseTypeString, PClassType, PResourceType } from '../../types/index.js';
import { capitalizeTypeName } from '../values.js';

function capitalizeName(name: string): string {
    return capitalizeTypeName(name.toLowerCase());
}

/**
 * "file[/x]" → "File[/x]", "foo::bar[t]" → "Foo::Bar[t]", "class[a::b]" → "Class[A::B]": Puppet's
 * canonical reference form (a class's title is its name, capitalized as the type is; main stays).
 */
export function canonicalRef(ref: string): string {
    const i = ref.indexOf('[');
    if (i <= 0 || !ref.endsWith(']')) return ref;
    const type = capitalizeName(ref.slice(0, i));
    const title = ref.slice(i + 1, -1);
    return `${type}[${type === 'Class' && title !== 'main' ? capitalizeName(title.replace(/^::/, '')) : title}]`;
}

/**
 * A rich-data Type value ("Group['admins']", "Class[profile::db]") as the reference string a
 * relationship metaparameter carries in Puppet's catalog JSON; undefined when the type is not a
 * reference to one resource (e.g. String[1]) or cannot be read.
 */
export function typeValueRef(text: string): string | undefined {
    let t;
    try {
        t = parseTypeString(text);
    } catch {
        return undefined;
    }
    if (t instanceof PResourceType && t.typeName !== null && t.title !== null) return canonicalRef(`${capitalize(t.typeName)}[${t.title}]`);
    if (t instanceof PClassType && t.className !== null) return canonicalRef(`Class[${t.className}]`);
    return undefined;
}
