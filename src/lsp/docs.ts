import type { AstNode, LangiumDocument } from 'langium';
import type { ClassDefinition, DefineDefinition, FunctionDefinition, Parameter, TypeAlias } from '../../generated/langium/ast.js';

/** A Puppet Strings comment block: the prose, and the `@param NAME text` entries. */
export interface DocComment {
    readonly summary: string;
    readonly params: ReadonlyMap<string, string>;
}

/** The `#` comment lines right above a definition, read the way Puppet Strings reads them. */
export function docCommentOf(document: LangiumDocument, node: AstNode): DocComment {
    const start = node.$cstNode?.offset ?? 0;
    const lines = document.textDocument.getText().slice(0, start).split('\n');
    lines.pop();
    const block: string[] = [];
    for (let i = lines.length - 1; i >= 0; i--) {
        const m = /^\s*#\s?(.*)$/.exec(lines[i]);
        if (!m) break;
        block.unshift(m[1]);
    }
    const summary: string[] = [];
    const params = new Map<string, string>();
    let current: string | undefined;
    for (const line of block) {
        const tag = /^@(\w+)\s*(?:\[[^\]]*\]\s*)?(\S*)\s*(.*)$/.exec(line.trim());
        if (tag) {
            current = tag[1] === 'param' ? tag[2].replace(/^\$/, '') : undefined;
            if (current !== undefined) params.set(current, tag[3]);
            continue;
        }
        if (current !== undefined && /^\s/.test(line) && line.trim() !== '') params.set(current, `${params.get(current) ?? ''} ${line.trim()}`.trim());
        else if (current === undefined) summary.push(line);
        else current = undefined;
    }
    return { summary: summary.join('\n').trim(), params };
}

/** The source text of a node, whitespace runs folded. */
export function sourceOf(node: AstNode | undefined): string {
    return (node?.$cstNode?.text ?? '').replace(/\s+/g, ' ').trim();
}

/** `Type $name = default` as written. */
export function parameterSignature(p: Parameter): string {
    return `${p.type ? `${sourceOf(p.type)} ` : ''}${p.splat ? '*' : ''}$${p.name}${p.value ? ` = ${sourceOf(p.value)}` : ''}`;
}

/** `class a::b(\n  Type $x = 1,\n) inherits c` and the like. */
export function definitionSignature(node: ClassDefinition | DefineDefinition | FunctionDefinition): string {
    const keyword = node.$type === 'ClassDefinition' ? 'class' : node.$type === 'DefineDefinition' ? 'define' : 'function';
    const params = node.params.length === 0 ? '' : `(\n${node.params.map(p => `  ${parameterSignature(p)},`).join('\n')}\n)`;
    const tail = node.$type === 'ClassDefinition' && node.parent ? ` inherits ${node.parent}`
        : node.$type === 'FunctionDefinition' && node.returnType ? ` >> ${sourceOf(node.returnType)}` : '';
    return `${keyword} ${node.name}${params}${tail}`;
}

/** The right-hand side of `type A = ...`. */
export function aliasBody(alias: TypeAlias): string {
    const text = alias.$cstNode?.text ?? '';
    const eq = text.indexOf('=');
    return eq < 0 ? '' : text.slice(eq + 1).replace(/\s+/g, ' ').trim();
}
