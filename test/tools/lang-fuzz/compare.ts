/** Exact comparison of normalized outputs, and a short signature of the first difference so like differences group. */

/**
 * The JSON text re-serialized compactly, numbers kept exactly as written (2 and 2.0 stay apart).
 * Puppet names Ruby objects (the code that set an overridden parameter, a Timestamp's inspect)
 * by their address, which differs from run to run: addresses are blanked.
 */
export function canonical(text: string): string {
    const json = JSON.stringify(JSON.parse(text, (_k, v: unknown, c?: { source?: string }) => (typeof v === 'number' ? JSON.rawJSON(c?.source ?? String(v)) : v)));
    return json.replace(/#<Puppet::Resource::Type:0x[0-9a-f]{16}>/g, '#<Puppet::Resource::Type>').replace(/(#<[A-Z][\w:]*:)0x[0-9a-f]{16}/g, '$10x');
}

/** Replaces the varying parts of a message (quoted names, numbers) so like failures group. */
export function shape(message: string): string {
    return message
        .replace(/'[^']*'/g, "'…'")
        .replace(/"[^"]*"/g, '"…"')
        .replace(/\b(s\d+-\d+|[a-z]+\d+)\b/g, 'X')
        .replace(/\b\d+\b/g, 'N')
        .replace(/\(file: [^)]*\)/g, '(file: …)')
        .slice(0, 140);
}

type Json = Record<string, unknown>;

const text = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

export function firstDifference(p: Json, m: Json): { sig: string; detail: string } {
    if ('modelc_crash' in m) return { sig: `CRASH ${shape(String(m.modelc_crash).split('\n')[0])}`, detail: String(m.modelc_crash).slice(0, 600) };
    const pe = p.error as Json | undefined;
    const me = m.error as Json | undefined;
    if (pe && !me) return { sig: `puppet fails: ${shape(String(pe.message))}`, detail: String(pe.message).slice(0, 400) };
    if (me && !pe) return { sig: `modelc fails: ${shape(String(me.message))}`, detail: String(me.message).slice(0, 400) };
    if (pe && me) {
        if (pe.message !== me.message) return { sig: `error message: ${shape(String(pe.basic_message ?? pe.message))}`, detail: `\n    puppet: ${String(pe.message).slice(0, 400)}\n    modelc: ${String(me.message).slice(0, 400)}` };
        const keys = [...new Set([...Object.keys(pe), ...Object.keys(me)])].filter(k => text(pe[k]) !== text(me[k]));
        if (keys.length > 0) return { sig: `error fields ${keys.join(',')}: ${shape(String(pe.message))}`, detail: keys.map(k => `${k}: ${text(pe[k])} ≠ ${text(me[k])}`).join('; ') };
    }
    for (const k of ['notices', 'logs', 'resources', 'edges', 'resource_order', 'classes', 'tags', 'name', 'environment']) {
        if (text(p[k]) === text(m[k])) continue;
        if (k === 'resources') return resourceDifference(p[k] as Json[], m[k] as Json[]);
        if (Array.isArray(p[k]) && Array.isArray(m[k])) {
            const a = p[k] as unknown[];
            const b = m[k] as unknown[];
            const i = a.findIndex((x, j) => text(x) !== text(b[j]));
            const at = i < 0 ? a.length : i;
            const entry = (x: unknown): string => (x === undefined ? '<none>' : typeof x === 'object' && x !== null && 'message' in x ? `${(x as Json).level}: ${String((x as Json).message)}` : text(x));
            return { sig: `${k}: ${shape(entry(a[at]))} ≠ ${shape(entry(b[at]))}`, detail: `[${at}] puppet ${text(a[at]).slice(0, 300)}\n      modelc ${text(b[at]).slice(0, 300)}` };
        }
        return { sig: k, detail: `${text(p[k]).slice(0, 300)} ≠ ${text(m[k]).slice(0, 300)}` };
    }
    return { sig: 'key order or other fields', detail: '' };
}

function resourceDifference(a: Json[], b: Json[]): { sig: string; detail: string } {
    const key = (r: Json): string => `${String(r.type)}[${String(r.title)}]`;
    const bm = new Map(b.map(r => [key(r), r]));
    const am = new Map(a.map(r => [key(r), r]));
    for (const r of a) {
        const o = bm.get(key(r));
        if (!o) return { sig: `resource missing in modelc: ${String(r.type)}`, detail: key(r) };
        if (text(r) === text(o)) continue;
        for (const f of ['parameters', 'tags', 'exported', 'file', 'line', 'sensitive_parameters']) {
            if (text(r[f]) === text(o[f])) continue;
            if (f === 'parameters') {
                const pp = (r[f] ?? {}) as Json;
                const mp = (o[f] ?? {}) as Json;
                const names = [...new Set([...Object.keys(pp), ...Object.keys(mp)])].filter(n => text(pp[n]) !== text(mp[n]));
                return { sig: `resource parameter ${String(r.type)}.${names.join(',')}`, detail: `${key(r)}: ${names.map(n => `${n}: ${text(pp[n])} ≠ ${text(mp[n])}`).join('; ').slice(0, 400)}` };
            }
            return { sig: `resource ${f} (${String(r.type)})`, detail: `${key(r)}: ${text(r[f])} ≠ ${text(o[f])}` };
        }
        return { sig: 'resource key order', detail: key(r) };
    }
    const extra = b.find(r => !am.has(key(r)));
    return { sig: `resource extra in modelc: ${String(extra?.type)}`, detail: extra ? key(extra) : '' };
}
