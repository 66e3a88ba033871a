import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readRegularFile } from '../common/index.js';
import type { LangiumDocument } from 'langium';
import type { CompletionProvider } from 'langium/lsp';
import { CompletionItemKind, type CompletionItem, type CompletionList, type CompletionParams } from 'vscode-languageserver';
import type { ClassDefinition, DefineDefinition, Program } from '../../generated/langium/ast.js';
import { coreFunctions } from '../catalog/index.js';
import { CORE_RESOURCE_TYPES, coreResourceType, METAPARAMS } from '../resource-types/index.js';
import { parameterSignature } from './docs.js';
import { sitesOf } from './sites.js';
import type { PuppetWorkspace } from './workspace.js';

const KEYWORDS = ['class', 'define', 'function', 'node', 'if', 'elsif', 'else', 'unless', 'case', 'type', 'inherits', 'and', 'or', 'in', 'undef', 'true', 'false', 'default'];
/** Variables every scope sees (Puppet's top scope and the compiler's own). */
const BUILTIN_VARIABLES = ['facts', 'trusted', 'server_facts', 'environment', 'name', 'title', 'module_name', 'caller_module_name'];

/** How the text before the cursor places it. */
type CompletionContext =
    | { readonly kind: 'hiera'; readonly prefix: string }
    | { readonly kind: 'variable'; readonly prefix: string }
    | { readonly kind: 'class'; readonly prefix: string }
    | { readonly kind: 'attribute'; readonly type: string; readonly title?: string; readonly prefix: string; readonly body: string }
    | { readonly kind: 'any'; readonly prefix: string };

/**
 * The completion context of `before` (the text up to the cursor). Read from the text, not the
 * AST: the text being typed is the incomplete part the parser recovers from.
 */
export function completionContext(before: string): CompletionContext {
    let m = /\blookup\s*\(\s*['"]([^'"\n]*)$/.exec(before);
    if (m) return { kind: 'hiera', prefix: m[1] };
    m = /\$((?:::)?[\w:]*)$/.exec(before);
    if (m) return { kind: 'variable', prefix: m[1] };
    m = /(?:\b(?:include|contain|require)\s+['"]?|\bclass\s*\{\s*['"]|\bClass\[\s*['"])([\w:]*)$/.exec(before);
    if (m) return { kind: 'class', prefix: m[1] };
    const prefix = /[\w:]*$/.exec(before)?.[0] ?? '';
    const open = unmatchedBrace(before);
    if (open !== undefined) {
        const head = /(?:^|[^\w:$])([a-z][\w]*(?:::[a-z]\w*)*)\s*$/.exec(before.slice(0, open));
        const body = before.slice(open + 1, before.length - prefix.length);
        // A resource body: a title then `:`, and the cursor where an attribute name starts.
        if (head && /:\s*(?:$|[\s\S]*[,;:]\s*$)/.test(body) && /(?:^|[:,;])\s*$/.test(body)) {
            // `class { 'a::b': ...`: the attributes are the class's parameters.
            const title = head[1] === 'class' ? /^\s*['"]?(?:::)?([a-z][\w]*(?:::[a-z]\w*)*)['"]?\s*:/.exec(body)?.[1] : undefined;
            if (head[1] !== 'class') return { kind: 'attribute', type: head[1], prefix, body };
            if (title !== undefined) return { kind: 'attribute', type: 'class', title, prefix, body };
        }
    }
    return { kind: 'any', prefix };
}

/** The offset of the innermost `{` left open before the end of `text` (strings and comments skipped). */
function unmatchedBrace(text: string): number | undefined {
    const stack: number[] = [];
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (c === '#') {
            const nl = text.indexOf('\n', i);
            if (nl < 0) break;
            i = nl;
        } else if (c === '"' || c === "'") {
            let j = i + 1;
            while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
            i = j;
        } else if (c === '{') {
            stack.push(i);
        } else if (c === '}') {
            stack.pop();
        }
    }
    return stack[stack.length - 1];
}

/**
 * Completion: attributes of the resource type being declared (core schema, a define's
 * parameters, a module's Ruby type), class names, variables in scope, Hiera keys in `lookup()`,
 * otherwise resource types, functions and keywords.
 */
export class PuppetCompletionProvider implements CompletionProvider {
    constructor(private readonly workspace: PuppetWorkspace) {}

    getCompletion(document: LangiumDocument, params: CompletionParams): CompletionList {
        const offset = document.textDocument.offsetAt(params.position);
        const context = completionContext(document.textDocument.getText().slice(0, offset));
        return { isIncomplete: false, items: this.items(document, offset, context) };
    }

    private items(document: LangiumDocument, offset: number, c: CompletionContext): CompletionItem[] {
        switch (c.kind) {
            case 'hiera': return this.hieraKeys();
            case 'variable': return this.variables(document, offset);
            case 'class': return this.named('class', CompletionItemKind.Class);
            case 'attribute': return this.attributes(c.type, c.body, c.title);
            case 'any': return [
                ...this.resourceTypes(),
                ...this.functions(),
                ...this.named('class', CompletionItemKind.Class),
                ...KEYWORDS.map(k => ({ label: k, kind: CompletionItemKind.Keyword }))
            ];
        }
    }

    private definitions(kind: 'class' | 'define' | 'function'): Map<string, ClassDefinition | DefineDefinition> {
        const out = new Map<string, ClassDefinition | DefineDefinition>();
        for (const document of this.workspace.all()) {
            for (const s of sitesOf(document.parseResult.value as Program)) {
                if (s.role === 'definition' && s.kinds[0] === kind && !out.has(s.name)) out.set(s.name, s.node as ClassDefinition);
            }
        }
        return out;
    }

    private named(kind: 'class' | 'define' | 'function', itemKind: CompletionItemKind): CompletionItem[] {
        return [...this.definitions(kind).keys()].map(label => ({ label, kind: itemKind, detail: kind }));
    }

    private resourceTypes(): CompletionItem[] {
        return [
            ...CORE_RESOURCE_TYPES.map(t => ({ label: t.name, kind: CompletionItemKind.Struct, detail: 'core resource type' })),
            ...[...this.moduleTypes().keys()].map(label => ({ label, kind: CompletionItemKind.Struct, detail: 'module resource type' })),
            ...this.named('define', CompletionItemKind.Struct)
        ];
    }

    private functions(): CompletionItem[] {
        return [
            ...[...coreFunctions().keys()].map(label => ({ label, kind: CompletionItemKind.Function, detail: 'built-in function' })),
            ...this.named('function', CompletionItemKind.Function)
        ];
    }

    private attributes(type: string, body: string, title?: string): CompletionItem[] {
        const given = new Set([...body.matchAll(/(?:^|[:,;])\s*([a-z_]\w*)\s*=>/g)].map(m => m[1]));
        const own: { name: string; detail: string }[] = [];
        const core = coreResourceType(type);
        if (title !== undefined) {
            const cls = this.definitions('class').get(title.toLowerCase());
            if (cls) for (const p of cls.params) own.push({ name: p.name, detail: parameterSignature(p) });
        } else if (core) {
            for (const a of core.attributes) own.push({ name: a.name, detail: `${a.kind} of ${type}` });
        } else {
            const define = this.definitions('define').get(type.toLowerCase());
            if (define) for (const p of define.params) own.push({ name: p.name, detail: parameterSignature(p) });
            for (const a of this.moduleTypes().get(type.toLowerCase()) ?? []) own.push({ name: a, detail: `attribute of ${type}` });
        }
        const meta = [...METAPARAMS].map(name => ({ name, detail: 'metaparameter' }));
        return [...own, ...meta].filter(a => !given.has(a.name)).map((a, i) => ({
            label: a.name, kind: CompletionItemKind.Property, detail: a.detail, insertText: `${a.name} => `, sortText: String(i).padStart(4, '0')
        }));
    }

    /**
     * Module types (`lib/puppet/type/NAME.rb`) and the attributes their `newparam`/`newproperty`
     * calls declare: a listing for completion only, the compiler loads them through the Ruby runtime.
     */
    private moduleTypes(): Map<string, string[]> {
        const out = new Map<string, string[]>();
        for (const dir of this.workspace.modules().values()) {
            const typeDir = join(dir, 'lib', 'puppet', 'type');
            for (const file of safeList(typeDir).filter(f => f.endsWith('.rb'))) {
                let text = '';
                try {
                    text = readRegularFile(join(typeDir, file)).toString('utf8');
                } catch {
                    continue;
                }
                out.set(file.slice(0, -3), [...text.matchAll(/\bnew(?:param|property)\s*\(\s*:(\w+)/g)].map(m => m[1]));
            }
        }
        return out;
    }

    private variables(document: LangiumDocument, offset: number): CompletionItem[] {
        const names = new Map<string, string>();
        const sites = sitesOf(document.parseResult.value as Program);
        const here = [...sites].filter(s => s.start <= offset).pop()?.scope ?? '';
        for (const s of sites) {
            if (s.role !== 'definition' || !s.kinds.includes('variable')) continue;
            const local = s.name.startsWith(`${here}::`) || s.name.includes('@') ? s.name.replace(/^.*::/, '').replace(/@.*$/, '') : undefined;
            if (local !== undefined && (s.scope === here || here.startsWith(s.scope)) && s.start <= offset) names.set(local, 'local variable');
        }
        for (const d of this.workspace.all()) {
            for (const s of sitesOf(d.parseResult.value as Program)) {
                if (s.role === 'definition' && s.node.$type === 'Parameter' && s.node.$container?.$type === 'ClassDefinition') names.set(s.name, 'class parameter');
            }
        }
        for (const v of BUILTIN_VARIABLES) names.set(v, 'built-in variable');
        return [...names].map(([label, detail]) => ({ label, kind: CompletionItemKind.Variable, detail }));
    }

    /** Keys of the environment's and modules' data files, each with the first file that sets it. */
    private hieraKeys(): CompletionItem[] {
        const root = this.workspace.root ?? '';
        return [...this.workspace.hieraKeys()].map(([label, places]) => ({ label, kind: CompletionItemKind.Constant, detail: relative(root, places[0]?.file ?? '') }));
    }
}

function safeList(dir: string): string[] {
    try {
        return readdirSync(dir);
    } catch {
        return [];
    }
}
