import { URI, type LangiumDocument } from 'langium';
import type { MmClass, MmFeature, MmFile } from '../../../generated/langium/ast.js';
import type { Diagnostic } from '../../common/index.js';
import type { MClass, MClassifier, MFeature, MPackage, Primitive } from '../../model/index.js';
import { MetaIssues } from '../issues.js';
import { builtinType } from './builtin-types.js';
import { createMetamodelServices, type MetamodelServices } from './metamodel-module.js';
import { multiplicityOf } from './multiplicity.js';

export interface LoadedMetamodel {
    readonly pkg?: MPackage;
    readonly diagnostics: readonly Diagnostic[];
}

let cached: MetamodelServices | undefined;
function services(): MetamodelServices {
    cached ??= createMetamodelServices().metamodel;
    return cached;
}

/** Parses and validates one metamodel source; yields a package only when there are no errors. */
export async function loadMetamodel(text: string, file: string): Promise<LoadedMetamodel> {
    const svc = services();
    const factory = svc.shared.workspace.LangiumDocumentFactory;
    const uri = URI.file(`/virtual/${Math.random().toString(36).slice(2)}/${file}`);
    const doc = factory.fromString<MmFile>(text, uri);
    await svc.shared.workspace.DocumentBuilder.build([doc], { validation: true });
    svc.shared.workspace.LangiumDocuments.deleteDocument(uri);
    const diagnostics = toDiagnostics(doc, file);
    if (diagnostics.some(d => d.severity === 'error')) {
        return { diagnostics };
    }
    return { pkg: toPackage(doc.parseResult.value, svc), diagnostics };
}

function toDiagnostics(doc: LangiumDocument, file: string): Diagnostic[] {
    return (doc.diagnostics ?? []).map(d => ({
        severity: d.severity === 1 ? 'error' : 'warning',
        code: typeof d.code === 'string' ? d.code : MetaIssues.SYNTAX,
        message: typeof d.message === 'string' ? d.message : d.message.value,
        at: { file, line: d.range.start.line + 1, column: d.range.start.character + 1 }
    }));
}

function toPackage(file: MmFile, svc: MetamodelServices): MPackage {
    const ns = file.annotations.find(a => a.key === 'namespace');
    const detail = (key: string): string => unquote(ns?.details.find(d => d.key === key)?.value ?? '""');
    const docOf = (node: Parameters<MetamodelServices['documentation']['CommentProvider']['getComment']>[0]): string | undefined =>
        docComment(svc.documentation.CommentProvider.getComment(node));
    const classifiers: MClassifier[] = file.classifiers.map((c): MClassifier => {
        switch (c.$type) {
            case 'MmClass': return toClass(c, docOf);
            case 'MmEnum': {
                let next = 0;
                const literals = c.literals.map(l => {
                    const value = l.value ?? next;
                    next = value + 1;
                    return { name: l.name, value };
                });
                return { kind: 'enum', name: c.name, literals, ...opt('doc', docOf(c)) };
            }
            case 'MmDataType':
                return { kind: 'datatype', name: c.name, base: builtinType(c.base) ?? 'String', ...opt('doc', docOf(c)) };
        }
    });
    return { name: file.name, nsURI: detail('uri'), nsPrefix: detail('prefix'), ...opt('doc', docOf(file)), classifiers };
}

function toClass(c: MmClass, docOf: (n: MmClass | MmFeature) => string | undefined): MClass {
    return {
        kind: 'class',
        name: c.name,
        abstract: c.abstract,
        interface: c.kind === 'interface',
        superTypes: [...c.superTypes],
        features: c.features.map(f => toFeature(f, docOf(f))),
        ...opt('doc', docOf(c))
    };
}

function toFeature(f: MmFeature, doc: string | undefined): MFeature {
    const { lower, upper } = multiplicityOf(f.multiplicity);
    const kind = f.kind === 'attr' ? 'attribute' : f.kind === 'val' ? 'containment' : 'reference';
    const type: string = builtinType(f.type) satisfies Primitive | undefined ?? f.type;
    return {
        kind, name: f.name, type, lower, upper,
        ...(f.modifiers.includes('id') ? { id: true } : {}),
        ...opt('defaultValue', f.defaultValue !== undefined ? unquote(f.defaultValue) : undefined),
        ...opt('opposite', f.opposite),
        ...opt('doc', doc)
    };
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
    return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function unquote(s: string): string {
    return s.startsWith('"') ? JSON.parse(s) as string : s;
}

/** Only `/** ... *\/` comments are documentation; plain block comments are notes for editors. */
function docComment(raw: string | undefined): string | undefined {
    if (!raw?.startsWith('/**')) return undefined;
    const body = raw.slice(3, -2).split(/\r?\n/).map(line => line.replace(/^\s*\* ?/, '').trimEnd());
    while (body.length > 0 && body[0] === '') body.shift();
    while (body.length > 0 && body[body.length - 1] === '') body.pop();
    const text = body.join('\n').trim();
    return text === '' ? undefined : text;
}
