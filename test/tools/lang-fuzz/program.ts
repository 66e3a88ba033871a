/**
 * A generated Puppet program under construction: definitions (classes, defines, functions, type
 * aliases, in site.pp or in a module's autoload layout), statement blocks and where they run
 * (top scope, a holder class, a holder define instance, the node block), the resources other
 * scenes may refer to, and the features used.
 */
import type { Rng } from '../hiera-fuzz/rng.ts';

/** Where a block of statements may run. */
export type Place = 'top' | 'class' | 'define' | 'node';

export interface Block {
    readonly lines: string[];
    /** The places this block may go (any of them when absent). */
    readonly places?: readonly Place[];
}

/** A resource declared unconditionally, so relationships and overrides can name it. */
export interface Declared {
    readonly type: string;
    readonly title: string;
    readonly tags: readonly string[];
    /** Declared as virtual (`@`) or exported (`@@`). */
    readonly mode: 'real' | 'virtual' | 'exported';
}

export class Program {
    readonly features = new Set<string>();
    readonly settings: string[] = [];
    /** Module files (path → text), besides manifests/site.pp. */
    readonly files = new Map<string, string>();
    readonly defs: string[] = [];
    readonly blocks: Block[] = [];
    readonly declared: Declared[] = [];
    /** Classes defined whose inclusion is harmless anywhere (no required parameters). */
    readonly includable: string[] = [];
    node = 'testnode.example.com';
    private counter = 0;

    readonly rng: Rng;

    constructor(rng: Rng) {
        this.rng = rng;
    }

    /** A fresh lowercase name: `prefix` and a number unique in the program. */
    name(prefix: string): string {
        this.counter += 1;
        return `${prefix}${this.counter}`;
    }

    use(...features: string[]): void {
        for (const f of features) this.features.add(f);
    }

    def(text: string): void {
        this.defs.push(text);
    }

    /** A definition written once however many scenes need it (keyed by its text). */
    defOnce(text: string): void {
        if (!this.defs.includes(text)) this.defs.push(text);
    }

    emit(lines: string[], places?: readonly Place[]): void {
        this.blocks.push({ lines, places });
    }

    /** A declared resource of `type` (real unless `mode` says otherwise), if any. */
    pickDeclared(mode: Declared['mode'] = 'real', type?: string): Declared | undefined {
        const c = this.declared.filter(d => d.mode === mode && (type === undefined || d.type === type));
        return c.length === 0 ? undefined : this.rng.pick(c);
    }

    /**
     * The environment's files: blocks are spread over the top scope, holder classes (included
     * from the top scope or the node), holder define instances and the node definition.
     */
    assemble(): Map<string, string> {
        const r = this.rng;
        const top: string[] = [];
        const node: string[] = [];
        const holders: string[] = [];
        for (const b of this.blocks) {
            const places = b.places ?? ['top', 'class', 'define', 'node'];
            const place = r.pick(places);
            const body = b.lines;
            if (place === 'top') top.push(...body);
            else if (place === 'node') node.push(...body);
            else {
                const name = this.name(place === 'class' ? 'hold' : 'wrap');
                holders.push(`${place === 'class' ? 'class' : 'define'} ${name} {\n${indent(body)}\n}`);
                const use = place === 'class' ? `include ${name}` : `${name} { '${name}-i': }`;
                (r.chance(0.5) || node.length === 0 ? top : node).push(use);
                this.use(place === 'class' ? 'cat.class' : 'cat.define');
            }
        }
        const parts = [...this.defs, ...holders];
        // Definitions and statements interleave as in real manifests: a definition is found
        // wherever it is written, statements run in order.
        const site = r.chance(0.3) ? [...top, ...parts] : [...parts, ...top];
        if (node.length > 0 || r.chance(0.15)) site.push(...this.nodeDefinitions(node));
        const files = new Map(this.files);
        files.set('manifests/site.pp', `${site.join('\n')}\n`);
        return files;
    }

    private nodeDefinitions(body: string[]): string[] {
        const r = this.rng;
        const inner = indent(body.length === 0 ? ["notice('node')"] : body);
        this.use('cat.node');
        const kind = r.weighted({ exact: 3, regex: 3, default: 3, list: 1 });
        const out: string[] = [];
        if (kind === 'exact') out.push(`node '${this.node}' {\n${inner}\n}`);
        if (kind === 'regex') {
            out.push(`node /^${r.pick(['test(\\w+)\\.', '(\\w+)node\\.example', 'testnode\\.(example)\\.com$'])}/ {\n  notice("node match \${1}")\n${inner}\n}`);
            this.use('expr.regex');
        }
        if (kind === 'default') out.push(`node default {\n${inner}\n}`);
        if (kind === 'list') out.push(`node 'other.example.com', '${this.node}' {\n${inner}\n}`);
        if (r.chance(0.5)) out.push(`node 'elsewhere.example.com' {\n  notice('not this node')\n}`);
        if (kind !== 'default' && r.chance(0.4)) out.push(`node default {\n  notice('default node')\n}`);
        return r.chance(0.5) ? out : out.reverse();
    }
}

export function indent(lines: readonly string[], by = '  '): string {
    return lines.join('\n').split('\n').map(l => (l === '' ? l : by + l)).join('\n');
}

/** Puppet's single-quoted string literal. */
export function sq(s: string): string {
    return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
