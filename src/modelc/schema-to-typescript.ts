import type { JSONSchema } from 'json-schema-to-typescript';
import { UserError } from '../common/index.js';
import type { MPackage } from '../model/index.js';
import { MetaIssues } from './issues.js';

/** A package's JSON Schema as generate-json-schema.ts writes it. */
export interface WireSchema {
    readonly title: string;
    readonly oneOf?: readonly Node[];
    readonly $ref?: string;
    readonly $defs: Readonly<Record<string, Node>>;
}

type Node = Record<string, unknown>;

const DEF_PREFIX = '#/$defs/';

/** The TypeScript name of a `$defs` entry: the class or datatype, or `XOrSubtype` for "X or any subclass". */
function typeName(def: string): string {
    return def.endsWith('.any') ? `${def.slice(0, -'.any'.length)}OrSubtype` : def;
}

/**
 * The model types of a package: json-schema-to-typescript compiles the package's wire schema,
 * read as the in-memory form the runtime holds. Three things differ from the wire and are said
 * with `tsType`: `$type` is the short class name; a reference is a `ModelRef`; a value of the
 * `Data` primitive (a schema that constrains nothing) is `RichData`; a Long may be a bigint.
 * Every `$ref` becomes a named type (`tsType`), so a datatype used by ten features stays one
 * declaration and each feature keeps its own doc comment.
 */
export async function schemaTypes(pkg: MPackage, wire: WireSchema): Promise<string> {
    const compile = await compiler();
    // Every entry is compiled alone: references between entries are named types (`tsType`), and
    // json-schema-to-typescript declares only what a root reaches.
    const declare = async (schema: Node, name: string): Promise<string> => compile(schema as JSONSchema, name, {
        bannerComment: '',
        additionalProperties: false,
        declareExternallyReferenced: false,
        ignoreMinAndMaxItems: true,
        strictIndexSignatures: true,
        format: true,
        style: { tabWidth: 4, singleQuote: true, printWidth: 160, trailingComma: 'none' }
    });
    const out: string[] = [];
    for (const [name, def] of Object.entries(wire.$defs)) {
        // A class's `$type` is its identity: readonly, as the runtime never changes it.
        if (name !== 'EObjectRef') out.push((await declare({ ...inMemory(def), title: typeName(name) }, typeName(name))).replace(/^ {4}\$type: '/m, "    readonly $type: '"));
    }
    const rootMembers = wire.oneOf ?? (wire.$ref !== undefined ? [{ $ref: wire.$ref }] : []);
    const root = rootMembers.length > 0 ? { oneOf: rootMembers.map(m => inMemory(m)) } : { tsType: 'never' };
    out.push(await declare({ ...root, title: `${pkg.name}Object`, description: `Every concrete class of ${pkg.name}.` }, `${pkg.name}Object`));
    return out.join('\n');
}

/** A wire schema node as the in-memory form's schema (see schemaTypes). */
function inMemory(node: Node): Node {
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith(DEF_PREFIX)) {
        const target = ref.slice(DEF_PREFIX.length);
        return withDescription({ tsType: target === 'EObjectRef' ? 'ModelRef' : typeName(target) }, node);
    }
    if (node.type === 'object' && typeof node.properties === 'object' && node.properties !== null) {
        const properties: Record<string, Node> = {};
        for (const [k, v] of Object.entries(node.properties as Record<string, Node>)) {
            if (k === '$id') continue;
            properties[k] = k === '$type' && typeof v.const === 'string' ? { tsType: `'${v.const.replace(/^.*#\/\//, '')}'` } : inMemory(v);
        }
        return { ...node, properties };
    }
    if (node.type === 'array') return { ...node, items: inMemory(node.items as Node) };
    if (Array.isArray(node.oneOf)) {
        const { discriminator: _d, type: _t, ...rest } = node;
        return { ...rest, oneOf: (node.oneOf as Node[]).map(m => inMemory(m)) };
    }
    if (node.type === 'integer' && node.minimum === undefined) return withDescription({ tsType: 'number | bigint' }, node);
    if ('not' in node) return withDescription({ tsType: 'never' }, node);
    const constrains = ['type', 'enum', 'const', 'items', 'properties'].some(k => k in node);
    // The Data primitive: a value in rich-data JSON, which the schema leaves unconstrained.
    if (!constrains) return withDescription({ tsType: 'RichData' }, node);
    return node;
}

function withDescription(target: Node, from: Node): Node {
    return typeof from.description === 'string' ? { ...target, description: from.description } : target;
}

/**
 * json-schema-to-typescript (with prettier) is a development dependency: loaded only when
 * `modelc generate` runs, never by the commands that compile and apply.
 */
async function compiler(): Promise<typeof import('json-schema-to-typescript').compile> {
    try {
        return (await import('json-schema-to-typescript')).compile;
    } catch {
        throw new UserError({ severity: 'error', code: MetaIssues.GENERATOR_MISSING, message: 'modelc generate needs the json-schema-to-typescript package (npm install --include=dev)' });
    }
}
