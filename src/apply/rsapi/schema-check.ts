import { DevError, ResourceError } from '../errors.js';
import { namevars } from './definition.js';
import type { ResourceHash } from './provider.js';
import { rubyInspect } from '../inspect.js';
import { PSensitive, type PuppetValue } from '../values.js';
import type { ResourceApiRun } from './rsapi-type.js';

/**
 * The type-schema check of one `get` result (features.md §10): unknown keys and type mismatches
 * follow the strict level (error: DevError; warning: a warning, at most 100 per run; off: debug);
 * a missing namevar is always an error. Run for every resource's current state and for every
 * instance a listing returns.
 */
export function checkSchema(run: ResourceApiRun, found: ResourceHash): void {
    const def = run.definition;
    for (const nv of namevars(def)) {
        if (found[nv.name] === undefined || found[nv.name] === null) {
            throw new ResourceError(`\`${def.name}.get\` did not return a value for the \`${nv.name}\` namevar attribute`);
        }
    }
    const unknown = Object.keys(found).filter(k => k !== 'title' && !run.type.attributes.some(a => a.name === k));
    const mismatches: string[] = [];
    // In the order get returned the keys, as the gem walks the hash.
    for (const [key, v] of Object.entries(found)) {
        const attr = run.type.attributes.find(a => a.name === key);
        if (!attr || v === undefined) continue;
        const t = run.type.typeOf(attr);
        if (run.ts.isInstance(t, v)) continue;
        const why = run.ts.describeMismatch('', t, v).trim();
        mismatches.push(attr.sensitive ? `${attr.name}: << redacted value >> ${why}` : `${attr.name}: ${displayPlain(v)} (${why})`);
    }
    if (unknown.length === 0 && mismatches.length === 0) return;
    const firstNamevar = namevars(def)[0]?.name;
    let message = `Provider returned data that does not match the Type Schema for \`${def.name}[${firstNamevar ? displayPlain(found[firstNamevar]) : ''}]\``;
    if (unknown.length > 0) message += `\n Unknown attribute:\n${unknown.map(u => `    * ${u}`).join('\n')}\n`;
    if (mismatches.length > 0) message += `\n Value type mismatch:\n${mismatches.map(m => `    * ${m}`).join('\n')}\n`;
    if (run.env.strict === 'error') throw new DevError(message);
    // Warnings are capped at 100 per run, like the gem's process-wide counter.
    if (run.env.strict === 'warning' && run.schemaWarnings++ < 100) run.env.log({ level: 'warning', message, time: new Date() });
    else if (run.env.strict === 'off') run.env.log({ level: 'debug', message, time: new Date() });
}

/** A value as the gem interpolates it into messages (Ruby's to_s): strings bare, nil empty, the rest as inspect shows it. */
export function displayPlain(v: PuppetValue | undefined): string {
    if (v instanceof PSensitive) return 'Sensitive [value redacted]';
    if (v === undefined || v === null) return '';
    if (typeof v === 'string') return v;
    return rubyInspect(v, false);
}
