import type { AstNode } from 'langium';
import type { Program } from '../../../generated/langium/ast.js';
import type { Where } from '../errors.js';
import { whereOf } from './ast-util.js';

/**
 * Where the nodes of the programs one compilation evaluates are: each program's file, and each
 * node's place, found once (a node is evaluated many times, its place never changes).
 */
export class Places {
    private readonly files = new WeakMap<AstNode, string>();
    private readonly places = new WeakMap<AstNode, Where>();
    private readonly lines = new WeakMap<AstNode, Where>();

    /** Remembers the file of a program (positions of its nodes are reported in it). */
    registerProgram(program: Program, file: string): void {
        this.files.set(program, file);
    }

    fileOf(node: AstNode): string {
        let n: AstNode | undefined = node;
        while (n) {
            const f = this.files.get(n);
            if (f !== undefined) return f;
            n = n.$container;
        }
        return '';
    }

    /** Where Puppet locates `node`. */
    where(node: AstNode): Where {
        let w = this.places.get(node);
        if (!w) {
            w = whereOf(node, this.fileOf(node));
            this.places.set(node, w);
        }
        return w;
    }

    /** `where(node)` without the column; one object per node, shared by every resource declared there. */
    whereLine(node: AstNode): Where {
        let w = this.lines.get(node);
        if (!w) {
            const at = this.where(node);
            w = { file: at.file, line: at.line };
            this.lines.set(node, w);
        }
        return w;
    }
}
