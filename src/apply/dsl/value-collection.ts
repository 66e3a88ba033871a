import { ArgumentError, DevError } from '../errors.js';
import { sym, toS, type DslValue } from './values.js';

export interface ValueOptions {
    readonly event?: string;
    readonly invalidateRefreshes?: boolean;
    readonly requiredFeatures?: readonly string[];
}

/** One declared value: a literal (a Symbol) or a regex, with aliases and an optional sync block. */
export interface DeclaredValue {
    readonly name: symbol | RegExp;
    readonly aliases: symbol[];
    readonly options: ValueOptions;
    readonly block?: (value: DslValue) => void;
}

/**
 * Puppet's ValueCollection: literals normalised to Symbols, regexes kept apart; literals (and
 * their aliases) match first, in definition order, then regexes (type-dsl.md §3.1).
 */
export class ValueCollection {
    private readonly values: DeclaredValue[] = [];

    get isEmpty(): boolean {
        return this.values.length === 0;
    }

    newvalue(name: string | symbol | boolean | RegExp, options: ValueOptions = {}, block?: (value: DslValue) => void): DeclaredValue {
        const n = name instanceof RegExp ? name : typeof name === 'symbol' ? name : sym(String(name));
        const v: DeclaredValue = { name: n, aliases: [], options, ...(block ? { block } : {}) };
        this.values.push(v);
        return v;
    }

    aliasvalue(alias: string | symbol, existing: string | symbol): void {
        const target = this.values.find(v => typeof v.name === 'symbol' && toS(v.name) === toS(existing));
        if (!target) throw new DevError(`Cannot alias nonexistent value ${toS(existing)}`);
        target.aliases.push(sym(toS(alias)));
    }

    /** The declared value a given value matches: literals and aliases first, then regexes. */
    match(value: DslValue): DeclaredValue | undefined {
        const text = toS(value);
        const literal = this.values.find(v => typeof v.name === 'symbol' && (toS(v.name) === text || v.aliases.some(a => toS(a) === text)));
        return literal ?? this.values.find(v => v.name instanceof RegExp && v.name.test(text));
    }

    /** The default validation: with nothing declared anything goes; otherwise Puppet's message. */
    validate(value: DslValue): void {
        if (this.isEmpty || this.match(value)) return;
        const literals = this.values.filter(v => typeof v.name === 'symbol').map(v => toS(v.name as symbol));
        const regexes = this.values.filter((v): v is typeof v & { name: RegExp } => v.name instanceof RegExp).map(v => rubyRegexpInspect(v.name));
        let message = `Invalid value ${JSON.stringify(toS(value))}.`;
        if (literals.length > 0) message += ` Valid values are ${literals.join(', ')}.`;
        if (regexes.length > 0) message += ` Valid values match ${regexes.join(', ')}.`;
        throw new ArgumentError(message);
    }

    /** The default munge: a matching literal or alias becomes the canonical Symbol; anything else stays. */
    munge(value: DslValue): DslValue {
        const m = this.match(value);
        if (m && typeof m.name === 'symbol') return m.name;
        return value;
    }

    /** "Valid values are `a`, `b` (also called `c`). Values can match `/re/`." for docs. */
    doc(): string {
        const literals = this.values.filter(v => typeof v.name === 'symbol')
            .map(v => `\`${toS(v.name as symbol)}\`${v.aliases.length > 0 ? ` (also called ${v.aliases.map(a => `\`${toS(a)}\``).join(', ')})` : ''}`);
        const regexes = this.values.filter(v => v.name instanceof RegExp).map(v => `\`${String(v.name)}\``);
        const parts: string[] = [];
        if (literals.length > 0) parts.push(`Valid values are ${literals.join(', ')}.`);
        if (regexes.length > 0) parts.push(`Values can match ${regexes.join(', ')}.`);
        return parts.join(' ');
    }
}

/**
 * A Ruby regexp as Ruby's inspect shows it: the `m` flag the translation to JavaScript adds for
 * Ruby's line anchors is no option of the source; JavaScript's dotAll is Ruby's `m`.
 */
function rubyRegexpInspect(re: RegExp): string {
    // A pattern declared in module Ruby carries Ruby's own inspect of it.
    const declared = (re as RegExp & { readonly rubyInspect?: string }).rubyInspect;
    if (declared !== undefined) return declared;
    return `/${re.source}/${re.flags.includes('s') ? 'm' : ''}${re.flags.includes('i') ? 'i' : ''}`;
}
