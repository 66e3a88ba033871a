import type { PuppetValue } from '../../values/index.js';
import { rubyInspect } from './ruby-format.js';

/**
 * One line of an explanation, with its nested lines. Found values are rendered when the
 * explanation is printed, as Puppet's are: a merge that later edits a value in place (deep
 * merge knockouts) shows in the explanation too.
 */
export interface ExplainNode {
    readonly text: string | (() => string);
    readonly children: ExplainNode[];
    /**
     * A merge over several variants, printed as Puppet's ExplainMerge: only when at least two
     * variants were tried (one is printed in its place, none not at all), with its options
     * first and, when the merge completed, its result last.
     */
    readonly merge?: { readonly options?: string; result?: () => string };
    /** Texts a data provider function reported (`$context.explain`): Puppet prints them after the node's outcome. */
    texts?: string[];
}

/**
 * Records what a lookup did, in the shape of Puppet's `lookup --explain` text: which providers,
 * levels and paths were searched, what was found where, and the merges. The trace is kept as a
 * tree (for tools) and rendered as Puppet's indented text.
 */
export class Explainer {
    readonly roots: ExplainNode[] = [];
    private readonly stack: ExplainNode[] = [];

    /** Runs `body` inside a new nested node; a node that stays empty is dropped when `dropEmpty`. */
    within<T>(text: string, body: () => T, dropEmpty = false): T {
        const node: ExplainNode = { text, children: [] };
        const parent = this.stack[this.stack.length - 1];
        (parent ? parent.children : this.roots).push(node);
        this.stack.push(node);
        try {
            return body();
        } finally {
            this.stack.pop();
            if (dropEmpty && node.children.length === 0) {
                const list = parent ? parent.children : this.roots;
                list.splice(list.indexOf(node), 1);
            }
        }
    }

    /** Runs `body` inside a merge node (see ExplainNode.merge); `result` renders the merged value. */
    merging<T>(header: string, options: string | undefined, body: () => T, result: (r: T) => (() => string) | undefined): T {
        const node: ExplainNode = { text: header, children: [], merge: { options } };
        const parent = this.stack[this.stack.length - 1];
        (parent ? parent.children : this.roots).push(node);
        this.stack.push(node);
        try {
            const r = body();
            if (node.merge) node.merge.result = result(r);
            return r;
        } finally {
            this.stack.pop();
        }
    }

    line(text: string | (() => string)): void {
        const parent = this.stack[this.stack.length - 1];
        (parent ? parent.children : this.roots).push({ text, children: [] });
    }

    /** Invocation#report_text: a text kept apart and printed after the current node's lines. */
    text(text: string): void {
        const parent = this.stack[this.stack.length - 1];
        if (parent) (parent.texts ??= []).push(text);
        else this.roots.push({ text, children: [] });
    }

    found(key: string, value: PuppetValue): void {
        this.line(() => `Found key: "${key}" value: ${pretty(value, '')}`);
    }

    notFound(key: string): void {
        this.line(`No such key: "${key}"`);
    }

    merged(value: PuppetValue): void {
        this.line(() => `Merged result: ${pretty(value, '')}`);
    }

    render(): string {
        const out: string[] = [];
        const put = (text: string, indent: string): void => { out.push(indent + text.split('\n').join(`\n${indent}`)); };
        const walk = (n: ExplainNode, indent: string): void => {
            if (n.merge && n.children.length < 2) {
                if (n.children.length === 1) walk(n.children[0], indent);
                return;
            }
            put(typeof n.text === 'string' ? n.text : n.text(), indent);
            if (n.merge?.options !== undefined) put(n.merge.options, `${indent}  `);
            for (const c of n.children) walk(c, `${indent}  `);
            for (const t of n.texts ?? []) put(t, `${indent}  `);
            if (n.merge?.result) put(n.merge.result(), `${indent}  `);
        };
        for (const r of this.roots) walk(r, '');
        return `${out.join('\n')}\n`;
    }
}

/** Puppet's explainer prints values as pretty Ruby inspect (hashes with `=>`, one entry a line). */
export function pretty(v: PuppetValue, indent: string): string {
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
        if (v.length === 0) return '[]';
        return `[\n${v.map(x => inner + pretty(x, inner)).join(',\n')}\n${indent}]`;
    }
    if (v instanceof Map) {
        if (v.size === 0) return '{}';
        return `{\n${[...v].map(([k, x]) => `${inner}${rubyInspect(k)} => ${pretty(x, inner)}`).join(',\n')}\n${indent}}`;
    }
    return rubyInspect(v);
}
