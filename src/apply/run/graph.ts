/**
 * The relationship graph Puppet applies in (its RelationshipGraph): a container C becomes two
 * vertices, `admissible` (before its contents) and C itself (after them, collecting their refresh
 * events); relationships go from the end of one resource to the start of the other.
 */
export interface GraphEdge {
    readonly from: string;
    readonly to: string;
    /** Events travel along this edge (notify/subscribe, and child → container). */
    readonly refresh: boolean;
}

const ADMISSIBLE = 'Admissible_';

export function admissible(ref: string): string {
    return `${ADMISSIBLE}${ref}`;
}

export function isAdmissible(v: string): boolean {
    return v.startsWith(ADMISSIBLE);
}

/** The resource a vertex stands for. */
export function resourceOf(v: string): string {
    return isAdmissible(v) ? v.slice(ADMISSIBLE.length) : v;
}

export class RelationshipGraph {
    readonly vertices: string[] = [];
    private readonly priority = new Map<string, number>();
    private readonly out = new Map<string, GraphEdge[]>();
    private readonly inn = new Map<string, GraphEdge[]>();

    constructor(readonly containers: ReadonlySet<string>) {}

    addResource(ref: string, priority: number): void {
        for (const v of this.containers.has(ref) ? [admissible(ref), ref] : [ref]) {
            if (this.priority.has(v)) continue;
            this.vertices.push(v);
            this.priority.set(v, priority);
            this.out.set(v, []);
            this.inn.set(v, []);
        }
    }

    start(ref: string): string {
        return this.containers.has(ref) ? admissible(ref) : ref;
    }

    end(ref: string): string {
        return ref;
    }

    hasEdge(from: string, to: string): boolean {
        return (this.out.get(from) ?? []).some(e => e.to === to);
    }

    addEdge(from: string, to: string, refresh: boolean): void {
        const existing = (this.out.get(from) ?? []).find(e => e.to === to);
        if (existing) {
            if (refresh && !existing.refresh) {
                const upgraded = { from, to, refresh: true };
                this.out.set(from, (this.out.get(from) ?? []).map(e => e === existing ? upgraded : e));
                this.inn.set(to, (this.inn.get(to) ?? []).map(e => e === existing ? upgraded : e));
            }
            return;
        }
        const e = { from, to, refresh };
        this.out.get(from)?.push(e);
        this.inn.get(to)?.push(e);
    }

    /** Containment: admissible(C) → child's start; child's end → C (events flow up). */
    contain(container: string, child: string): void {
        this.addEdge(admissible(container), this.start(child), false);
        this.addEdge(this.end(child), container, true);
    }

    /** A relationship between resources (before/require, or notify/subscribe with refresh). */
    relate(source: string, target: string, refresh: boolean): void {
        this.addEdge(this.end(source), this.start(target), refresh);
    }

    incoming(v: string): readonly GraphEdge[] {
        return this.inn.get(v) ?? [];
    }

    outgoing(v: string): readonly GraphEdge[] {
        return this.out.get(v) ?? [];
    }

    /**
     * Every cycle (strongly connected component of more than one vertex, or a self loop), each
     * given as one concrete path of resource references that returns to its start.
     */
    cycles(): string[][] {
        let index = 0;
        const idx = new Map<string, number>();
        const low = new Map<string, number>();
        const stack: string[] = [];
        const onStack = new Set<string>();
        const sccs: string[][] = [];
        const strong = (v: string): void => {
            // Iterative Tarjan: catalogs can be deep enough to overflow a recursive walk.
            const work: [string, number][] = [[v, 0]];
            idx.set(v, index); low.set(v, index); index++; stack.push(v); onStack.add(v);
            while (work.length > 0) {
                const frame = work[work.length - 1];
                const [node, i] = frame;
                const edges = this.outgoing(node);
                if (i < edges.length) {
                    frame[1]++;
                    const w = edges[i].to;
                    if (!idx.has(w)) {
                        idx.set(w, index); low.set(w, index); index++; stack.push(w); onStack.add(w);
                        work.push([w, 0]);
                    } else if (onStack.has(w)) {
                        low.set(node, Math.min(low.get(node) ?? 0, idx.get(w) ?? 0));
                    }
                    continue;
                }
                work.pop();
                if (work.length > 0) {
                    const parent = work[work.length - 1][0];
                    low.set(parent, Math.min(low.get(parent) ?? 0, low.get(node) ?? 0));
                }
                if (low.get(node) === idx.get(node)) {
                    const comp: string[] = [];
                    let w: string | undefined;
                    do {
                        w = stack.pop();
                        if (w === undefined) break;
                        onStack.delete(w);
                        comp.push(w);
                    } while (w !== node);
                    if (comp.length > 1 || this.hasEdge(node, node)) sccs.push(comp);
                }
            }
        };
        for (const v of this.vertices) if (!idx.has(v)) strong(v);
        return sccs.map(c => this.cyclePath(new Set(c)));
    }

    /** A shortest path around the component from its first vertex in catalog order, as resource refs. */
    private cyclePath(comp: Set<string>): string[] {
        const first = this.vertices.find(v => comp.has(v)) as string;
        const prev = new Map<string, string>();
        const queue = [first];
        const seen = new Set([first]);
        let closing: string | undefined;
        while (queue.length > 0 && closing === undefined) {
            const v = queue.shift() as string;
            for (const e of this.outgoing(v)) {
                if (!comp.has(e.to)) continue;
                if (e.to === first) { closing = v; break; }
                if (!seen.has(e.to)) { seen.add(e.to); prev.set(e.to, v); queue.push(e.to); }
            }
        }
        const path: string[] = [];
        for (let v: string | undefined = closing; v !== undefined && v !== first; v = prev.get(v)) path.unshift(v);
        const refs = [first, ...path, first].map(resourceOf);
        return refs.filter((r, i) => i === 0 || r !== refs[i - 1]);
    }

    /** Kahn's algorithm, ties broken by catalog order (Puppet's manifest ordering). */
    order(): string[] {
        const remaining = new Map(this.vertices.map(v => [v, this.incoming(v).length]));
        const ready = this.vertices.filter(v => remaining.get(v) === 0);
        const out: string[] = [];
        const prio = (v: string): number => (this.priority.get(v) ?? 0) * 2 + (isAdmissible(v) ? 0 : 1);
        while (ready.length > 0) {
            let best = 0;
            for (let i = 1; i < ready.length; i++) if (prio(ready[i]) < prio(ready[best])) best = i;
            const v = ready.splice(best, 1)[0];
            out.push(v);
            for (const e of this.outgoing(v)) {
                const n = (remaining.get(e.to) ?? 0) - 1;
                remaining.set(e.to, n);
                if (n === 0) ready.push(e.to);
            }
        }
        return out;
    }
}
