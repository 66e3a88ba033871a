/** Puppet's capitalised type name: `apt_key` → `Apt_key`, as resource references show it. */
export function capitalizeType(name: string): string {
    return name.split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('::');
}
