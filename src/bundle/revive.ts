import type { AstNode, CstNode } from 'langium';
import type { Program } from '../../generated/langium/ast.js';
import { isMany, isModelObject, type ModelObject, type PackageIndex } from '../model/index.js';
import { LineIndex, locatingOperator } from '../parse/index.js';

/** A file's text and its line starts, shared by the positions of every node of the file. */
class SourceText {
    private index?: LineIndex;

    constructor(readonly text: string) {}

    position(offset: number): { line: number; character: number } {
        this.index ??= new LineIndex(this.text);
        const line = this.index.line(offset);
        return { line, character: offset - this.index.lineStart(line) };
    }
}

/**
 * The part of Langium's CST the compiler reads, made from a node's recorded position: its
 * offset, length, range and text, and for an operator expression one leaf for the operator (where
 * Puppet locates the expression).
 */
class RecordedCst {
    content?: RecordedCst[];

    constructor(private readonly source: SourceText, readonly offset: number, readonly length: number, readonly astNode: AstNode) {}

    get end(): number {
        return this.offset + this.length;
    }

    get text(): string {
        return this.source.text.slice(this.offset, this.end);
    }

    get range(): { start: { line: number; character: number }; end: { line: number; character: number } } {
        return { start: this.source.position(this.offset), end: this.source.position(this.end) };
    }
}

/**
 * Turns a decoded Program of the Puppet package back into the AST the compiler evaluates (what
 * Langium's parser makes): every many-valued feature an array, unset booleans false, each node
 * linked to its container, and a CST stand-in built from the recorded positions and the file's
 * text, so locations, provenance and error messages are the same as from source.
 */
export function reviveProgram(root: ModelObject, text: string, index: PackageIndex): Program {
    const source = new SourceText(text);
    const stack: Array<{ obj: Record<string, unknown>; container?: AstNode; property?: string; at?: number }> = [{ obj: root as Record<string, unknown> }];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
        const node = top.obj;
        const type = node.$type as string;
        if (top.container) Object.assign(node, { $container: top.container, $containerProperty: top.property, ...(top.at !== undefined ? { $containerIndex: top.at } : {}) });
        for (const f of index.allFeatures(type)) {
            const value = node[f.name];
            if (isMany(f)) {
                const list = Array.isArray(value) ? value : [];
                node[f.name] = list;
                if (f.kind === 'containment') list.forEach((child, i) => { if (isModelObject(child)) stack.push({ obj: child as Record<string, unknown>, container: node as unknown as AstNode, property: f.name, at: i }); });
            } else if (value === undefined && f.type === 'Boolean') {
                node[f.name] = false;
            } else if (f.kind === 'containment' && isModelObject(value)) {
                stack.push({ obj: value as Record<string, unknown>, container: node as unknown as AstNode, property: f.name });
            }
        }
        attachCst(node as unknown as AstNode & Record<string, unknown>, source);
    }
    return root as unknown as Program;
}

function attachCst(node: AstNode & Record<string, unknown>, source: SourceText): void {
    const { offset, length, operatorOffset } = node;
    if (typeof offset !== 'number' || typeof length !== 'number') return;
    const cst = new RecordedCst(source, offset, length, node);
    const op = locatingOperator(node);
    if (op !== undefined && typeof operatorOffset === 'number') cst.content = [new RecordedCst(source, operatorOffset, op.length, node)];
    // The recorded positions stay on the node as the model's features; the CST is not enumerable,
    // as Langium's, so walks over the node's properties do not enter it.
    Object.defineProperty(node, '$cstNode', { value: cst as unknown as CstNode, enumerable: false, writable: true, configurable: true });
}
