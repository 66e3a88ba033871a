import { ResourceApi as M } from '../../../generated/model/index.js';
import { asModelObject, modelRegistry, toRichData, type Model, type ModelObject, type PuppetValue as ModelValue } from '../../model/index.js';
import { fromRichData } from '../catalog/load.js';
import type { PuppetValue } from '../values.js';
import type { AttributeDefinition, AutoRelation, Behaviour, TransportDefinition, TypeDefinition } from './definition.js';

function attributeToModel(a: AttributeDefinition): M.Attribute {
    return M.createAttribute({
        name: a.name,
        type: a.type,
        ...(a.desc !== undefined ? { desc: a.desc } : {}),
        // Defaults are plain data (strings, numbers, booleans, arrays, hashes): the shapes both value classes share.
        ...(a.default !== undefined ? { defaultValue: toRichData(a.default as ModelValue) } : {}),
        ...(a.behaviour !== undefined ? { behaviour: a.behaviour } : {}),
        ...(a.sensitive ? { sensitive: true } : {})
    });
}

function attributeFromModel(o: ModelObject): AttributeDefinition {
    return {
        name: String(o.name),
        type: String(o.type),
        ...(typeof o.desc === 'string' ? { desc: o.desc } : {}),
        ...('defaultValue' in o ? { default: fromRichData(o.defaultValue, true) } : {}),
        ...(typeof o.behaviour === 'string' ? { behaviour: o.behaviour as Behaviour } : {}),
        ...(o.sensitive === true ? { sensitive: true } : {})
    };
}

/** The definitions of an environment as a ResourceApi model (what the compiler side loads). */
export function definitionsToModel(environment: string, types: readonly TypeDefinition[], transports: readonly TransportDefinition[]): Model {
    const index = modelRegistry().byPackageName('ResourceApi');
    if (!index) throw new Error('the ResourceApi package is not generated');
    const root = M.createDefinitions({
        environment,
        types: types.map(t => M.createTypeDefinition({
            name: t.name,
            ...(t.desc !== undefined ? { desc: t.desc } : {}),
            attributes: t.attributes.map(attributeToModel),
            features: [...t.features],
            titlePatterns: (t.titlePatterns ?? []).map(p => M.createTitlePattern({ source: p.pattern.source, ...(p.pattern.flags ? { flags: p.pattern.flags } : {}), ...(p.desc !== undefined ? { desc: p.desc } : {}) })),
            autoRelations: t.autoRelations.map(r => M.createAutoRelation({ kind: r.kind, type: r.type, values: r.values.map(v => toRichData(v as ModelValue)) }))
        })),
        transports: transports.map(t => M.createTransportDefinition({ name: t.name, desc: t.desc, connectionInfo: t.connectionInfo.map(attributeToModel), connectionInfoOrder: [...t.connectionInfoOrder] }))
    });
    return { index, root: asModelObject(root) };
}

/** Reads definitions back from a ResourceApi model; no provider code is involved. */
export function definitionsFromModel(root: ModelObject): { environment?: string; types: TypeDefinition[]; transports: TransportDefinition[] } {
    const list = (v: unknown): ModelObject[] => (Array.isArray(v) ? v : []) as ModelObject[];
    const types = list(root.types).map((t): TypeDefinition => {
        const patterns = list(t.titlePatterns);
        return {
            name: String(t.name),
            ...(typeof t.desc === 'string' ? { desc: t.desc } : {}),
            attributes: list(t.attributes).map(attributeFromModel),
            features: ((t.features ?? []) as string[]).map(String),
            ...(patterns.length > 0 ? { titlePatterns: patterns.map(p => ({ pattern: { source: String(p.source), ...(typeof p.flags === 'string' ? { flags: p.flags } : {}) }, ...(typeof p.desc === 'string' ? { desc: p.desc } : {}) })) } : {}),
            autoRelations: list(t.autoRelations).map((r): AutoRelation => ({ kind: r.kind as AutoRelation['kind'], type: String(r.type), values: ((r.values ?? []) as unknown[]).map(v => fromRichData(v, true) as PuppetValue) }))
        };
    });
    const transports = list(root.transports).map((t): TransportDefinition => ({
        name: String(t.name), desc: String(t.desc), connectionInfo: list(t.connectionInfo).map(attributeFromModel), connectionInfoOrder: ((t.connectionInfoOrder ?? []) as string[]).map(String)
    }));
    return { ...(typeof root.environment === 'string' ? { environment: root.environment } : {}), types, transports };
}
