import { formatValue } from '../../types/index.js';
import type { Expression, NodeDefinition } from '../../../generated/langium/ast.js';
import { PRegexp } from '../../values/index.js';
import { PuppetFailure } from '../errors.js';
import { programOf } from '../evaluator/ast-util.js';
import { CatalogIssues } from '../issues.js';
import type { Definition } from '../loader.js';
import { CatalogResource } from '../resource.js';
import { Scope } from '../scope.js';
import { isValidTag } from './attributes.js';
import type { OpsState } from './state.js';

/** Matches and evaluates the node definition; returns its scope (undefined without node definitions). */
export function evaluateNode(s: OpsState, top: Scope): Scope | undefined {
    const nodes = s.rt.loader.nodes;
    if (nodes.length === 0) return undefined;
    const name = s.rt.nodeName.toLowerCase();
    const names = [name];
    if (s.settings.get('strict_hostname_checking') === 'false') {
        const segs = name.split('.');
        for (let i = segs.length - 1; i >= 1; i--) names.push(segs.slice(0, i).join('.'));
    }
    let match: { def: Definition<NodeDefinition>; title: string; groups?: (string | null)[] } | undefined;
    for (const n of names) {
        for (const def of nodes) {
            for (const h of def.ast.hosts) {
                if (h.$type !== 'RegexLiteral' && h.$type !== 'DefaultLiteral' && hostName(s, h, top).toLowerCase() === n) { match = { def, title: n }; break; }
            }
            if (match) break;
        }
        if (match) break;
        for (const def of nodes) {
            for (const h of def.ast.hosts) {
                if (h.$type === 'RegexLiteral') {
                    const m = new PRegexp(h.value).regexp.exec(n);
                    if (m) {
                        const title = '__node_regexp__' + h.value.toLowerCase().replace(/[^-\w:.]/g, '').replace(/^\.+/, '');
                        match = { def, title, groups: [...m].map(g => g ?? null) };
                        break;
                    }
                }
            }
            if (match) break;
        }
        if (match) break;
    }
    if (!match) {
        for (const def of nodes) if (def.ast.hosts.some(h => h.$type === 'DefaultLiteral')) { match = { def, title: 'default' }; break; }
    }
    if (!match) {
        throw new PuppetFailure(CatalogIssues.EVAL_NODE_NOT_FOUND.message({ names }));
    }
    const catalog = s.catalog;
    const r = new CatalogResource('Node', match.title, 'node', undefined);
    r.tags.add('node');
    if (isValidTag(match.title)) r.tags.add(match.title);
    for (const t of s.mainClass.tags) r.tags.add(t);
    catalog.add(r);
    catalog.addEdge(s.mainClass, r);
    catalog.classes.push(match.title);
    catalog.tags.add('node');
    if (isValidTag(match.title)) catalog.tags.add(match.title);
    r.container = s.mainClass;
    const scope = new Scope('node', top, r, '');
    scope.setLocal('title', match.title);
    scope.setLocal('name', match.title);
    if (match.groups) scope.setMatch(match.groups);
    s.ev.registerProgram(programOf(match.def.ast), match.def.file);
    s.ev.evalBlock(match.def.ast.body, scope);
    return scope;
}

function hostName(s: OpsState, h: Expression, scope: Scope): string {
    return formatValue(s.ev.evaluate(h, scope));
}
