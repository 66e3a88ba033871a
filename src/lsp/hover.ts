import { relative } from 'node:path';
import type { AstNode, LangiumDocument } from 'langium';
import type { HoverProvider } from 'langium/lsp';
import type { Hover, HoverParams } from 'vscode-languageserver';
import type { ClassDefinition, DefineDefinition, FunctionDefinition, Parameter, TypeAlias } from '../../generated/langium/ast.js';
import { coreResourceType } from '../resource-types/index.js';
import { aliasBody, definitionSignature, docCommentOf, parameterSignature } from './docs.js';
import { rangeOf, rubyDefinition, siteUnder } from './navigation.js';
import type { NodeAnswer, NodeValues } from './node-values.js';
import type { Site } from './sites.js';
import type { Located, PuppetWorkspace } from './workspace.js';

type Definition = ClassDefinition | DefineDefinition | FunctionDefinition;

function isDefinition(n: AstNode | undefined): n is Definition {
    return n?.$type === 'ClassDefinition' || n?.$type === 'DefineDefinition' || n?.$type === 'FunctionDefinition';
}

const fence = (code: string): string => `\`\`\`puppet\n${code}\n\`\`\``;

/** The node's value as the CLI explains it, as a hover section. */
export function nodeSection(node: string, answer: NodeAnswer | undefined): string[] {
    if (!answer) return [];
    return [`**for node ${node}**${answer.ok ? '' : ' (no value)'}`, `\`\`\`text\n${answer.text.trimEnd()}\n\`\`\``];
}

/**
 * Hover: a parameter's type, default and `@param` doc (and, for a class parameter, the value the
 * chosen node gets with its provenance); a class, define or function's signature and doc; a type
 * alias and the aliases it uses, resolved; a `lookup()` key's value for the node.
 */
export class PuppetHoverProvider implements HoverProvider {
    constructor(private readonly workspace: PuppetWorkspace, private readonly values: NodeValues) {}

    getHoverContent(document: LangiumDocument, params: HoverParams): Hover | undefined {
        const site = siteUnder(document, params.position);
        if (!site) return undefined;
        const sections = this.sections(document, site);
        if (sections.length === 0) return undefined;
        return { contents: { kind: 'markdown', value: sections.join('\n\n') }, range: rangeOf(document, site.start, site.end) };
    }

    private sections(document: LangiumDocument, site: Site): string[] {
        if (site.kinds.includes('hiera')) {
            const root = this.workspace.root ?? '';
            const places = (this.workspace.hieraKeys().get(site.name) ?? []).map(p => `${relative(root, p.file)}:${p.line}`);
            return [
                `Hiera key \`${site.name}\`${places.length > 0 ? ` — set in ${places.join(', ')}` : ' — in no data file'}`,
                ...nodeSection(this.nodeName(), this.values.explainLookup(site.name))
            ];
        }
        if (site.kinds.includes('template')) {
            const file = this.workspace.templateFile(site.name);
            return [file === undefined ? `template \`${site.name}\` (not found on the module path)` : `template \`${file}\``];
        }
        const targets = site.role === 'definition' ? [{ document, site }] : this.workspace.definitionsOf(site);
        const target = targets[0];
        if (!target) {
            const ruby = rubyDefinition(this.workspace, site);
            if (ruby) return [fence(site.kinds.includes('function') ? `${site.name}(...)` : `${site.name} { ... }`), `implemented in Ruby: \`${relative(this.workspace.root ?? '', ruby.file)}\``];
            const core = site.kinds.includes('define') ? coreResourceType(site.name) : undefined;
            if (core) return [fence(`${core.name} { title: ... }`), `core resource type; namevar \`${core.namevar}\`; attributes: ${core.attributes.map(a => `\`${a.name}\``).join(', ')}`];
            return site.kinds.includes('function') ? [fence(`${site.name}(...)`), 'built-in function'] : [];
        }
        return this.describe(target);
    }

    private nodeName(): string {
        const n = this.values.node;
        return n?.certname ?? n?.facts ?? '';
    }

    private describe(target: Located): string[] {
        const node = target.site.node;
        switch (node.$type) {
            case 'Parameter': return this.parameter(target.document, node as Parameter);
            case 'ClassDefinition': case 'DefineDefinition': case 'FunctionDefinition': {
                const def = node as Definition;
                const doc = docCommentOf(target.document, def);
                return [fence(definitionSignature(def)), ...(doc.summary ? [doc.summary] : []), ...[...doc.params].map(([p, t]) => `*@param* \`${p}\` — ${t}`)];
            }
            case 'TypeAlias': return this.alias(node as TypeAlias, target.site.name);
            case 'VariableExpression': return [fence(`$${target.site.name}`), 'assigned here: ' + (node.$container?.$cstNode?.text.split('\n')[0] ?? '')];
            default: return [];
        }
    }

    private parameter(document: LangiumDocument, p: Parameter): string[] {
        const owner = p.$container;
        const out = [fence(parameterSignature(p))];
        if (isDefinition(owner)) {
            const doc = docCommentOf(document, owner).params.get(p.name);
            out.push(`parameter of ${owner.$type === 'ClassDefinition' ? 'class' : owner.$type === 'DefineDefinition' ? 'define' : 'function'} \`${owner.name}\``);
            if (doc) out.push(doc);
            if (owner.$type === 'ClassDefinition') out.push(...nodeSection(this.nodeName(), this.values.explainParameter(owner.name.replace(/^::/, '').toLowerCase(), p.name)));
        }
        return out;
    }

    /** The alias, then every alias its body names, resolved the same way (each once). */
    private alias(alias: TypeAlias, name: string): string[] {
        const lines = [`type ${displayName(name)} = ${aliasBody(alias)}`];
        const seen = new Set([name]);
        const queue = [aliasBody(alias)];
        while (queue.length > 0 && seen.size < 20) {
            const body = queue.shift() ?? '';
            for (const m of body.matchAll(/\b[A-Z]\w*(?:::[A-Z]\w*)+/g)) {
                const ref = m[0].toLowerCase();
                if (seen.has(ref)) continue;
                seen.add(ref);
                const def = this.workspace.find('definition', ref, ['type'])[0];
                if (def?.site.node.$type !== 'TypeAlias') continue;
                const inner = aliasBody(def.site.node as TypeAlias);
                lines.push(`type ${m[0]} = ${inner}`);
                queue.push(inner);
            }
        }
        return [fence(lines.join('\n'))];
    }
}

function displayName(name: string): string {
    return name.split('::').map(s => s.charAt(0).toUpperCase() + s.slice(1)).join('::');
}
