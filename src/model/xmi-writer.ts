import { UserError } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { compactJson } from './json-text.js';
import { isUnset } from './unset.js';
import { isMany, type MFeature } from './metamodel.js';
import type { Model } from './model.js';
import type { ModelObject, ModelRef } from './model-object.js';
import type { PackageIndex } from './package-index.js';

/**
 * XMI 2.0 instance documents as Java EMF's XMIResource reads them: single-valued attributes and
 * references as XML attributes, many-valued attributes and containments as elements, `xsi:type`
 * where the object's class differs from the feature's declared type, references as fragments.
 */
export function toXmi(model: Model): string {
    const { index, root } = model;
    const prefix = index.pkg.nsPrefix;
    const head = [
        'xmi:version="2.0"',
        'xmlns:xmi="http://www.omg.org/XMI"',
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
        `xmlns:${prefix}="${escapeXml(index.pkg.nsURI)}"`
    ];
    const lines: string[] = [];
    writeObject(root, `${prefix}:${root.$type}`, head, index, '', lines);
    const body = lines.join('\n');
    // XML 1.0 cannot carry control characters even as references; XML 1.1 can, and EMF reads it.
    const version = RESTRICTED.test(body) ? '1.1' : '1.0';
    return `<?xml version="${version}" encoding="UTF-8"?>\n${body}\n`;
}

function writeObject(obj: ModelObject, tag: string, extra: string[], index: PackageIndex, indent: string, lines: string[]): void {
    const attrs = [...extra];
    const children: Array<() => void> = [];
    for (const f of index.allFeatures(obj.$type)) {
        const v = obj[f.name];
        if (isUnset(v, f, index)) continue;
        switch (f.kind) {
            case 'attribute':
                if (isMany(f)) {
                    children.push(() => (v as unknown[]).forEach(x => lines.push(`${indent}  <${f.name}>${escapeXml(literal(x, f, index))}</${f.name}>`)));
                } else {
                    attrs.push(`${f.name}="${escapeXml(literal(v, f, index))}"`);
                }
                break;
            case 'reference': {
                const refs = isMany(f) ? v as ModelRef[] : [v as ModelRef];
                attrs.push(`${f.name}="${escapeXml(refs.map(r => r.$ref).join(' '))}"`);
                break;
            }
            case 'containment': {
                const list = isMany(f) ? v as ModelObject[] : [v as ModelObject];
                children.push(() => list.forEach(c => {
                    const typeAttr = c.$type !== f.type ? [`xsi:type="${index.pkg.nsPrefix}:${c.$type}"`] : [];
                    writeObject(c, f.name, typeAttr, index, `${indent}  `, lines);
                }));
                break;
            }
        }
    }
    const open = [tag, ...attrs].join(' ');
    if (children.length === 0) {
        lines.push(`${indent}<${open}/>`);
        return;
    }
    lines.push(`${indent}<${open}>`);
    children.forEach(write => write());
    lines.push(`${indent}</${tag}>`);
}

/** Ecore's string form of a value; `Data` values travel as their rich-data JSON text. */
function literal(v: unknown, f: MFeature, index: PackageIndex): string {
    if (index.primitiveOf(f.type) === 'Data') return compactJson(v);
    switch (typeof v) {
        case 'string': return v;
        case 'number': case 'bigint': case 'boolean': return String(v);
        default:
            throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: `cannot write ${typeof v} value of '${f.name}' as XMI` });
    }
}

const RESTRICTED = /&#x(?:[1-8BCEF]|1[0-9A-F]|7F|8[0-9A-F]|9[0-9A-F]);/;

export function escapeXml(s: string): string {
    if (s.includes('\u0000')) {
        throw new UserError({ severity: 'error', code: ModelIssues.NOT_SERIALIZABLE, message: 'XML cannot carry the character U+0000' });
    }
    return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
        .replace(/[\u0001-\u001f\u007f-\u009f]/g, c => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`);
}
