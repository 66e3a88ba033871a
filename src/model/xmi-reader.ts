import { lazyRequire, UserError, type SourcePoint } from '../common/index.js';
import { decodeWire, type DecodeOptions } from './json-codec.js';
import { ModelIssues } from './issues.js';
import { isMany, type MFeature } from './metamodel.js';
import type { Model } from './model.js';
import type { PackageIndex } from './package-index.js';
import { modelRegistry } from './registry.js';

const saxes = lazyRequire<typeof import('saxes')>(import.meta.url, 'saxes');

/** An XML element as the reader needs it: its attributes, children, text, and where it starts. */
interface XmlElement {
    readonly name: string;
    readonly attributes: Readonly<Record<string, string>>;
    readonly children: XmlElement[];
    text: string;
    readonly at: SourcePoint;
}

const XMI_NS = 'http://www.omg.org/XMI';

/** Parses XML with saxes (XML 1.0 and 1.1, as EMF writes both) into elements with positions. */
function parseXml(text: string, file: string): XmlElement {
    const parser = new (saxes().SaxesParser)({ position: true, fileName: file });
    const stack: XmlElement[] = [];
    let root: XmlElement | undefined;
    let start: SourcePoint = { file, line: 1, column: 1 };
    parser.on('opentagstart', () => { start = { file, line: parser.line, column: Math.max(1, parser.column - 1) }; });
    parser.on('opentag', tag => {
        const el: XmlElement = { name: tag.name, attributes: { ...tag.attributes as Record<string, string> }, children: [], text: '', at: start };
        if (stack.length > 0) stack[stack.length - 1].children.push(el);
        else root = el;
        stack.push(el);
    });
    parser.on('closetag', () => { stack.pop(); });
    parser.on('text', t => { if (stack.length > 0) stack[stack.length - 1].text += t; });
    parser.on('cdata', t => { if (stack.length > 0) stack[stack.length - 1].text += t; });
    try {
        parser.write(text).close();
    } catch (e) {
        const message = e instanceof Error ? e.message.replace(/^[^:]*:\d+:\d+: /, '') : String(e);
        throw new UserError({ severity: 'error', code: ModelIssues.INVALID_XML, message: `invalid XML: ${message}`, file, at: { file, line: parser.line, column: Math.max(1, parser.column) } });
    }
    if (!root) throw new UserError({ severity: 'error', code: ModelIssues.INVALID_XML, message: 'invalid XML: no root element', file });
    return root;
}

class XmiToWire {
    constructor(private readonly index: PackageIndex, private readonly prefixes: ReadonlyMap<string, string>, private readonly file: string) {}

    fail(at: SourcePoint, code: string, message: string): never {
        throw new UserError({ severity: 'error', code, message, file: this.file, at });
    }

    /** `prefix:Class` of an xsi:type or a root tag, checked to name a class of this package. */
    classOf(qname: string, at: SourcePoint): string {
        const i = qname.indexOf(':');
        const prefix = i < 0 ? '' : qname.slice(0, i);
        const name = qname.slice(i + 1);
        const ns = this.prefixes.get(prefix);
        if (ns !== this.index.pkg.nsURI) this.fail(at, ModelIssues.UNKNOWN_PACKAGE, `'${qname}': the prefix '${prefix}' is not bound to ${this.index.pkg.nsURI}`);
        if (!this.index.cls(name)) this.fail(at, ModelIssues.WRONG_TYPE, `${name} is not a class of ${this.index.pkg.name}`);
        return name;
    }

    object(el: XmlElement, className: string): Record<string, unknown> {
        const out: Record<string, unknown> = { $type: this.index.qualified(className) };
        const feature = (name: string): MFeature =>
            this.index.feature(className, name) ?? this.fail(el.at, ModelIssues.UNKNOWN_FEATURE, `unknown feature '${name}' of ${className}`);
        for (const [name, value] of Object.entries(el.attributes)) {
            if (name === 'xmlns' || /^(xmlns|xmi|xsi):/.test(name)) continue;
            const f = feature(name);
            if (f.kind === 'containment') this.fail(el.at, ModelIssues.WRONG_TYPE, `'${name}' holds objects: write them as <${name}> elements`);
            if (f.kind === 'reference') {
                const refs = value.trim().split(/\s+/).filter(r => r !== '').map(r => ({ $ref: fragmentOf(r) }));
                out[name] = isMany(f) ? refs : refs[0];
            } else {
                const v = this.literal(value, f, el.at);
                out[name] = isMany(f) ? [v] : v;
            }
        }
        for (const child of el.children) {
            const f = feature(child.name);
            let v: unknown;
            switch (f.kind) {
                case 'attribute': v = this.literal(child.text, f, child.at); break;
                case 'reference': {
                    const href = child.attributes.href;
                    if (href === undefined) this.fail(child.at, ModelIssues.WRONG_TYPE, `reference '${child.name}' needs an href`);
                    v = { $ref: fragmentOf(href) };
                    break;
                }
                case 'containment': {
                    const xsiType = child.attributes['xsi:type'];
                    v = this.object(child, xsiType !== undefined ? this.classOf(xsiType, child.at) : f.type);
                    break;
                }
            }
            if (isMany(f)) out[f.name] = [...(out[f.name] as unknown[] | undefined ?? []), v];
            else if (out[f.name] !== undefined) this.fail(child.at, ModelIssues.BAD_MULTIPLICITY, `'${f.name}' of ${className} holds one value`);
            else out[f.name] = v;
        }
        return out;
    }

    /** Ecore's string form back to a value; a `Data` value is its rich-data JSON text. */
    literal(text: string, f: MFeature, at: SourcePoint): unknown {
        const bad = (what: string): never => this.fail(at, ModelIssues.WRONG_DATATYPE, `'${f.name}' expects ${what}, got ${JSON.stringify(text)}`);
        const classifier = this.index.classifier(f.type);
        if (classifier?.kind === 'enum') return text;
        switch (this.index.primitiveOf(f.type)) {
            case 'Int': return /^[-+]?\d+$/.test(text.trim()) ? Number(text) : bad('an integer');
            case 'Long': {
                if (!/^[-+]?\d+$/.test(text.trim())) return bad('an integer');
                const n = BigInt(text.trim());
                return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
            }
            case 'Double': {
                const n = Number(text);
                return text.trim() !== '' && Number.isFinite(n) ? n : bad('a number');
            }
            case 'Boolean': return text === 'true' ? true : text === 'false' ? false : bad('true or false');
            case 'Data': {
                try {
                    return JSON.parse(text, (_k, v: unknown, ctx?: { source?: string }) =>
                        typeof v === 'number' && !Number.isSafeInteger(v) && ctx?.source !== undefined && /^-?\d+$/.test(ctx.source) ? BigInt(ctx.source) : v);
                } catch {
                    return bad('rich-data JSON text');
                }
            }
            default: return text;
        }
    }
}

/** A reference as EMF writes it: a fragment, an id, or `other.xmi#fragment` (kept, then refused as dangling). */
function fragmentOf(ref: string): string {
    return ref.startsWith('#') ? ref.slice(1) : ref;
}

/**
 * Reads an XMI 2.0 document as Java EMF's XMIResource writes it (single-valued features as XML
 * attributes, many-valued ones and containments as elements, `xsi:type` for subclasses) into the
 * model's wire form, then validates it exactly as a JSON model is validated.
 */
export function decodeXmi(text: string, file = '<input>', options: DecodeOptions = {}): Model {
    let root = parseXml(text, file);
    const prefixes = new Map<string, string>();
    const collect = (el: XmlElement): void => {
        for (const [k, v] of Object.entries(el.attributes)) {
            if (k === 'xmlns') prefixes.set('', v);
            else if (k.startsWith('xmlns:')) prefixes.set(k.slice(6), v);
        }
    };
    collect(root);
    if (root.name === 'xmi:XMI' || (root.name.endsWith(':XMI') && prefixes.get(root.name.slice(0, -4)) === XMI_NS)) {
        if (root.children.length !== 1) {
            throw new UserError({ severity: 'error', code: ModelIssues.NOT_A_MODEL, message: `a model document has one root object, this XMI has ${root.children.length}`, file, at: root.at });
        }
        root = root.children[0];
        collect(root);
    }
    const i = root.name.indexOf(':');
    const ns = prefixes.get(i < 0 ? '' : root.name.slice(0, i));
    const registry = options.registry ?? modelRegistry();
    const index = ns !== undefined ? registry.byNsURI(ns) : undefined;
    if (!index) {
        const known = registry.packages.map(p => p.pkg.nsURI).join(', ');
        throw new UserError({ severity: 'error', code: ModelIssues.UNKNOWN_PACKAGE, message: `the root element <${root.name}> is in no known package (namespace ${ns ?? 'none'}; known: ${known})`, file, at: root.at });
    }
    const reader = new XmiToWire(index, prefixes, file);
    const className = reader.classOf(root.attributes['xsi:type'] ?? root.name, root.at);
    return decodeWire(reader.object(root, className), file, options);
}
