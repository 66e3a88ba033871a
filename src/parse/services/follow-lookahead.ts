import {
    Alternation, Alternative, EOF, NonTerminal, Option, Repetition, RepetitionMandatory, RepetitionMandatoryWithSeparator,
    RepetitionWithSeparator, Terminal, type IProduction, type Rule, type TokenType
} from 'chevrotain';

/**
 * Two-token lookahead with the grammar's global FOLLOW sets, for the fast parser's optionals and
 * loops. ALL(*) prediction is rule-local: at the end of a rule it must consider every place the
 * rule is called from, so deciding whether `, x => 1` continues a resource body's attribute list
 * (`(',' AttributeOperation)* ','?` at the end of ResourceBody) made it read the whole attribute
 * value, up to 19 tokens, and build a new DFA state for every shape of value it had not seen (a
 * third of a cold parse). Puppet's LR parser decides that on the token after the comma. Here a
 * decision takes two tokens when the two-token sequences that enter the production and those
 * that pass it by (the rest of the rule, then what can follow the rule anywhere) are disjoint:
 * for valid input only one of the two can then lead to a parse, so the choice is the one ALL(*)
 * makes. Decisions that are not disjoint within two tokens keep ALL(*).
 */

/** A token sequence; `open`: shorter than asked because only one token of FOLLOW is known. */
interface Path {
    readonly tokens: readonly TokenType[];
    readonly open: boolean;
}

type Tail = (need: number) => Path[];

const DONE: Path[] = [{ tokens: [], open: false }];
/** Beyond this many paths a decision keeps ALL(*) (the analysis would cost more than it saves). */
const MAX_PATHS = 20_000;

class TooMany extends Error {}

function prefixed(t: TokenType, paths: readonly Path[]): Path[] {
    return paths.map(p => ({ tokens: [t, ...p.tokens], open: p.open }));
}

export class FollowAnalysis {
    /** FOLLOW(1) of every rule, by name: the tokens that can come right after a call of it. */
    private readonly follow = new Map<string, Map<number, TokenType>>();
    private readonly rules: ReadonlyMap<string, Rule>;

    constructor(rules: readonly Rule[]) {
        this.rules = new Map(rules.map(r => [r.name, r]));
        for (const r of rules) this.follow.set(r.name, new Map());
        // A rule no other rule calls is an entry: the end of input follows it.
        const called = new Set<string>();
        for (const r of rules) this.visit(r.definition, 0, () => [], callee => { called.add(callee); });
        for (const r of rules) if (!called.has(r.name)) this.follow.get(r.name)?.set(EOF.tokenTypeIdx as number, EOF);
        // Fixpoint: a rule's FOLLOW grows with its callers' until nothing changes.
        for (let changed = true; changed;) {
            changed = false;
            for (const r of rules) {
                const atEnd = this.followPaths(r.name);
                this.visit(r.definition, 0, atEnd, (callee, after) => {
                    const set = this.follow.get(callee);
                    if (!set) return;
                    for (const p of after(1)) {
                        const t = p.tokens[0];
                        if (t && !set.has(t.tokenTypeIdx as number)) {
                            set.set(t.tokenTypeIdx as number, t);
                            changed = true;
                        }
                    }
                });
            }
        }
    }

    /**
     * The decision function for the optional or loop `prodType` number `occurrence` of `rule`:
     * true to enter it. Undefined when two tokens with FOLLOW do not separate entering from
     * passing by.
     */
    optional(rule: Rule, prodType: string, occurrence: number): ((la1: number, la2: number) => boolean) | undefined {
        let found: { prod: IProduction; rest: Tail } | undefined;
        this.visit(rule.definition, 0, this.followPaths(rule.name), () => undefined, (prod, rest) => {
            if (!found && isProduction(prod, prodType) && (prod as { idx?: number }).idx === occurrence) found = { prod, rest };
        });
        if (!found) return undefined;
        const { prod, rest } = found;
        try {
            const body = (prod as Option).definition;
            let inside: Path[];
            if (prod instanceof Option) {
                inside = this.paths(body, 0, 2, rest);
            } else if (prod instanceof Repetition || prod instanceof RepetitionMandatory) {
                const again: Tail = need => [...rest(need), ...this.paths(body, 0, need, again)];
                inside = this.paths(body, 0, 2, again);
            } else {
                return undefined;
            }
            return decide(inside, rest(2));
        } catch (e) {
            if (e instanceof TooMany) return undefined;
            throw e;
        }
    }

    private followPaths(ruleName: string): Tail {
        return need => [...(this.follow.get(ruleName)?.values() ?? [])].map(t => ({ tokens: [t], open: need > 1 && t !== EOF }));
    }

    /** The token sequences of up to `need` tokens that `seq` from `i` on, then `tail`, can begin with. */
    private paths(seq: readonly IProduction[], i: number, need: number, tail: Tail): Path[] {
        if (need === 0) return DONE;
        if (i === seq.length) return tail(need);
        const prod = seq[i];
        const rest: Tail = n => this.paths(seq, i + 1, n, tail);
        let out: Path[];
        if (prod instanceof Terminal) {
            out = prefixed(prod.terminalType, rest(need - 1));
        } else if (prod instanceof NonTerminal) {
            const callee = this.rules.get(prod.nonTerminalName)?.definition ?? prod.definition;
            out = this.paths(callee, 0, need, rest);
        } else if (prod instanceof Option) {
            out = [...this.paths(prod.definition, 0, need, rest), ...rest(need)];
        } else if (prod instanceof Repetition || prod instanceof RepetitionMandatory) {
            const again: Tail = n => [...rest(n), ...this.paths(prod.definition, 0, n, again)];
            out = prod instanceof Repetition ? again(need) : this.paths(prod.definition, 0, need, again);
        } else if (prod instanceof RepetitionWithSeparator || prod instanceof RepetitionMandatoryWithSeparator) {
            const { separator: sep, definition: body } = prod;
            const again: Tail = n => [...rest(n), ...prefixed(sep, this.paths(body, 0, n - 1, again))];
            const first = this.paths(body, 0, need, again);
            out = prod instanceof RepetitionWithSeparator ? [...first, ...rest(need)] : first;
        } else if (prod instanceof Alternation) {
            out = (prod as Alternation).definition.flatMap(alt => this.paths((alt as Alternative).definition, 0, need, rest));
        } else if (prod instanceof Alternative) {
            out = this.paths(prod.definition, 0, need, rest);
        } else {
            throw new TooMany(`unknown production ${prod.constructor.name}`);
        }
        if (out.length > MAX_PATHS) throw new TooMany();
        return out;
    }

    /**
     * Walks `seq` from `i` with `tail` after it, calling `call` for every rule call with what can
     * follow it, and `each` for every production with what follows it.
     */
    private visit(seq: readonly IProduction[], i: number, tail: Tail,
        call: (callee: string, after: Tail) => void, each?: (prod: IProduction, after: Tail) => void): void {
        for (let j = i; j < seq.length; j++) {
            const prod = seq[j];
            const after: Tail = n => this.paths(seq, j + 1, n, tail);
            each?.(prod, after);
            if (prod instanceof NonTerminal) {
                call(prod.nonTerminalName, after);
            } else if (prod instanceof Option || prod instanceof Alternative) {
                this.visit(prod.definition, 0, after, call, each);
            } else if (prod instanceof Repetition || prod instanceof RepetitionMandatory) {
                const again: Tail = n => [...after(n), ...this.paths(prod.definition, 0, n, again)];
                this.visit(prod.definition, 0, again, call, each);
            } else if (prod instanceof RepetitionWithSeparator || prod instanceof RepetitionMandatoryWithSeparator) {
                const { separator: sep, definition: body } = prod;
                const again: Tail = n => [...after(n), ...prefixed(sep, this.paths(body, 0, n - 1, again))];
                this.visit(body, 0, again, call, each);
            } else if (prod instanceof Alternation) {
                for (const alt of (prod as Alternation).definition) this.visit((alt as Alternative).definition, 0, after, call, each);
            }
        }
    }
}

function isProduction(prod: IProduction, prodType: string): boolean {
    switch (prodType) {
        case 'Option': return prod instanceof Option;
        case 'Repetition': return prod instanceof Repetition;
        case 'RepetitionMandatory': return prod instanceof RepetitionMandatory;
        default: return false;
    }
}

/** The token indexes a grammar token stands for (itself and, for a category, its members). */
function indexes(t: TokenType): number[] {
    return [t.tokenTypeIdx as number, ...((t as { categoryMatches?: number[] }).categoryMatches ?? [])];
}

function overlaps(a: TokenType, b: TokenType): boolean {
    const bs = new Set(indexes(b));
    return indexes(a).some(i => bs.has(i));
}

/** Whether some input could begin with both paths. */
function conflict(p: Path, q: Path): boolean {
    const n = Math.min(p.tokens.length, q.tokens.length);
    for (let i = 0; i < n; i++) {
        if (!overlaps(p.tokens[i], q.tokens[i])) return false;
    }
    // Equal as far as both go: a conflict unless the shorter one ended for good (end of input).
    return p.tokens.length === q.tokens.length || (p.tokens.length < q.tokens.length ? p.open : q.open);
}

function decide(inside: readonly Path[], passing: readonly Path[]): ((la1: number, la2: number) => boolean) | undefined {
    const byFirst = new Map<number, Path[]>();
    for (const q of passing) {
        for (const i of q.tokens.length ? indexes(q.tokens[0]) : []) {
            const list = byFirst.get(i) ?? [];
            list.push(q);
            byFirst.set(i, list);
        }
        if (q.tokens.length === 0) return undefined;
    }
    for (const p of inside) {
        if (p.tokens.length === 0) return undefined;
        for (const i of indexes(p.tokens[0])) {
            for (const q of byFirst.get(i) ?? []) {
                if (conflict(p, q)) return undefined;
            }
        }
    }
    // Entering: the first token, then (when one token is not enough) the second. The second
    // tokens are a bit set per first token: these tables live in the CLI's startup snapshot, where
    // a Set per first token of every decision was 1.6 MB of hash tables to load at every start.
    let words = 0;
    for (const p of inside) for (const j of p.tokens.length < 2 ? [] : indexes(p.tokens[1])) words = Math.max(words, (j >>> 5) + 1);
    const second: Array<Uint32Array | true | undefined> = [];
    for (const p of inside) {
        for (const i of indexes(p.tokens[0])) {
            const prev = second[i];
            if (prev === true) continue;
            if (p.tokens.length < 2) {
                second[i] = true;
                continue;
            }
            const bits = prev ?? (second[i] = new Uint32Array(words));
            for (const j of indexes(p.tokens[1])) bits[j >>> 5] |= 1 << (j & 31);
        }
    }
    return (la1, la2) => {
        const s = second[la1];
        // Beyond the set's last word: undefined & bit is 0.
        return s === true || (s !== undefined && (s[la2 >>> 5] & (1 << (la2 & 31))) !== 0);
    };
}
