import type { Diff } from '../../../generated/model/index.js';
import type { Model } from '../model.js';
import type { RichData } from '../model-object.js';
import type { ChangeRecord, DiffResult } from './diff-engine.js';
import type { BindingOrigin, Provenance } from './diff-profile.js';

type DiffModel = Diff.ModelDiff;

export interface SideInfo {
    readonly model: Model;
    readonly file?: string;
    readonly label?: string;
}

const DIFF_TYPE: Record<ChangeRecord['kind'], string> = { added: '+', removed: '-', changed: '~', moved: '~' };

/** The Diff model for a comparison, so a diff can itself be stored, validated and exchanged. */
export function toDiffModel(result: DiffResult, oldSide: SideInfo, newSide: SideInfo): DiffModel {
    const changes = result.changes.map(toChange);
    const byType = new Map<string, Diff.TypeCounts>();
    for (const c of result.changes) {
        const t = c.octocatalog?.type || c.objectType;
        const counts = byType.get(t) ?? { $type: 'TypeCounts', objectType: t, added: 0, removed: 0, changed: 0, moved: 0 };
        byType.set(t, { ...counts, [c.kind]: (counts[c.kind] ?? 0) + 1 });
    }
    const count = (k: ChangeRecord['kind']): number => result.changes.filter(c => c.kind === k).length;
    return {
        $type: 'ModelDiff',
        oldSide: side(oldSide),
        newSide: side(newSide),
        equal: changes.length === 0,
        changes,
        summary: {
            $type: 'DiffSummary',
            added: count('added'), removed: count('removed'), changed: count('changed'), moved: count('moved'),
            total: changes.length, matched: result.matched,
            byType: [...byType.values()].sort((a, b) => a.objectType.localeCompare(b.objectType, 'en'))
        }
    };
}

function side(s: SideInfo): Diff.DiffSide {
    return {
        $type: 'DiffSide',
        modelKind: s.model.root.$type,
        nsURI: s.model.index.pkg.nsURI,
        ...(s.file !== undefined ? { file: s.file } : {}),
        ...(s.label !== undefined ? { label: s.label } : {})
    };
}

function toChange(c: ChangeRecord): Diff.Change {
    const octo = c.octocatalog;
    return {
        $type: 'Change',
        kind: c.kind,
        path: c.path,
        ...(c.matchKey !== undefined ? { matchKey: c.matchKey } : {}),
        objectType: c.objectType,
        ...(c.feature !== undefined ? { feature: c.feature } : {}),
        ...(c.oldValue !== undefined ? { oldValue: c.oldValue as RichData } : {}),
        ...(c.newValue !== undefined ? { newValue: c.newValue as RichData } : {}),
        ...(c.oldIndex !== undefined ? { oldIndex: c.oldIndex } : {}),
        ...(c.newIndex !== undefined ? { newIndex: c.newIndex } : {}),
        ...(c.textDiff ? { textDiff: [...c.textDiff] } : {}),
        ...(c.redacted ? { redacted: true } : {}),
        ...(c.oldLocation ? { oldLocation: location(c.oldLocation) } : {}),
        ...(c.newLocation ? { newLocation: location(c.newLocation) } : {}),
        ...(c.oldBinding ? { oldBinding: binding(c.oldBinding) } : {}),
        ...(c.newBinding ? { newBinding: binding(c.newBinding) } : {}),
        diffType: DIFF_TYPE[c.kind],
        ...(octo ? { type: octo.type, title: octo.title, structure: [...octo.structure] } : {}),
        ...(c.oldLocation ? { oldFile: c.oldLocation.file, ...(c.oldLocation.line !== undefined ? { oldLine: c.oldLocation.line } : {}) } : {}),
        ...(c.newLocation ? { newFile: c.newLocation.file, ...(c.newLocation.line !== undefined ? { newLine: c.newLocation.line } : {}) } : {})
    };
}

function location(p: Provenance): Diff.SourceLocation {
    return { $type: 'SourceLocation', file: p.file, ...(p.line !== undefined ? { line: p.line } : {}), ...(p.column !== undefined ? { column: p.column } : {}) };
}

function binding(b: BindingOrigin): Diff.BindingOrigin {
    return {
        $type: 'BindingOrigin',
        key: b.key,
        ...(b.layer !== undefined ? { layer: b.layer } : {}),
        ...(b.category !== undefined ? { category: b.category } : {}),
        ...(b.namedBindings !== undefined ? { namedBindings: b.namedBindings } : {}),
        ...(b.location ? { location: location(b.location) } : {})
    };
}
