import type { PuppetValue } from './values.js';

/**
 * A HOCON failure as ruby-hocon (what Puppet's hocon_data uses) words it: "String: LINE: problem"
 * (Hocon.parse reads a string, so the origin is "String"). `kind` is the ruby-hocon error class.
 */
export class HoconError extends Error {
    constructor(readonly line: number, readonly problem: string,
                readonly kind: 'ConfigParseError' | 'UnresolvedSubstitutionError' | 'ConfigWrongTypeError' = 'ConfigParseError') {
        super(`String: ${line}: ${problem}`);
    }
}

/**
 * `problem`: text the tokenizer could not read, as ruby-hocon's tokenizer hands it on (`'WHAT'
 * (MESSAGE)`) for the parser to reject where it stands, with that place's message.
 */
type TokenKind = '{' | '}' | '[' | ']' | ',' | 'sep' | '+=' | 'nl' | 'ws' | 'value' | 'subst' | 'problem' | 'eof';

interface Token {
    readonly kind: TokenKind;
    readonly line: number;
    /** The text as written (for error messages and concatenation). */
    readonly text: string;
    /** A value token: a quoted or unquoted string, a number, a boolean or null. */
    readonly value?: PuppetValue;
    readonly quoted?: boolean;
    /** A substitution's path and whether it is optional (`${?x}`). */
    readonly path?: readonly string[];
    readonly optional?: boolean;
}

const NOT_UNQUOTED = new Set([...'$"{}[]:=,+#`^?!@*&\\'].map(c => c));
const NUMBER_CHARS = /[0-9eE+\-.]/;

/** Splits HOCON text into tokens; comments are dropped (their newline stays). */
function tokenize(text: string): Token[] {
    const out: Token[] = [];
    let p = 0;
    let line = 1;
    const push = (kind: TokenKind, t: string, extra: Partial<Token> = {}): void => { out.push({ kind, line, text: t, ...extra }); };
    // Ruby's tokenizer names the end of input it found as its character code, -1.
    const problem = (what: string, message: string): Token[] => {
        push('problem', `'${what}' (${message})`);
        push('eof', 'end of file');
        return out;
    };
    while (p < text.length) {
        const c = text[p];
        if (c === '\n') { push('nl', '\n'); line++; p++; continue; }
        if (c === '#' || (c === '/' && text[p + 1] === '/')) {
            while (p < text.length && text[p] !== '\n') p++;
            continue;
        }
        if (/[ \t\r\f\v\u00a0\ufeff]/.test(c)) {
            const s = p;
            while (p < text.length && /[ \t\r\f\v\u00a0\ufeff]/.test(text[p])) p++;
            push('ws', text.slice(s, p));
            continue;
        }
        if ('{}[],'.includes(c)) { push(c as TokenKind, c); p++; continue; }
        if (c === ':' || c === '=') { push('sep', c); p++; continue; }
        if (c === '+') {
            if (text[p + 1] === '=') { push('+=', '+='); p += 2; continue; }
            const next = text[p + 1] ?? '-1';
            return problem(next, `'+' not followed by =, '${next}' not allowed after '+'`);
        }
        if (c === '$' && text[p + 1] === '{') {
            const end = text.indexOf('}', p + 2);
            if (end < 0) return problem('end of file', 'Substitution ${ was not closed with a }');
            let inner = text.slice(p + 2, end);
            const optional = inner.startsWith('?');
            if (optional) inner = inner.slice(1);
            const path = splitPath(inner.trim(), line);
            if ('what' in path) return problem(path.what, path.message);
            push('subst', text.slice(p, end + 1), { path, optional });
            p = end + 1;
            continue;
        }
        if (c === '"') {
            if (text.startsWith('"""', p)) {
                const end = text.indexOf('"""', p + 3);
                if (end < 0) return problem('-1', 'End of input but triple-quoted string was still open');
                let close = end + 3;
                while (text[close] === '"') close++; // extra quotes belong to the string
                const body = text.slice(p + 3, close - 3);
                push('value', text.slice(p, close), { value: body, quoted: true });
                line += body.split('\n').length - 1;
                p = close;
                continue;
            }
            const read = quoted(text, p, line);
            if ('what' in read) return problem(read.what, read.message);
            const [value, next] = read;
            push('value', text.slice(p, next), { value, quoted: true });
            p = next;
            continue;
        }
        if (c === '-' || (c >= '0' && c <= '9')) {
            const s = p;
            while (p < text.length && NUMBER_CHARS.test(text[p])) p++;
            const t = text.slice(s, p);
            const n = rubyNumber(t);
            push('value', t, n === undefined ? { value: t, quoted: false } : { value: n, quoted: false });
            continue;
        }
        if (c === '$') {
            const next = text[p + 1] ?? '-1';
            return problem(next, `'$' not followed by {, '${next}' not allowed after '$'`);
        }
        if (NOT_UNQUOTED.has(c)) return problem(c, `Reserved character '${c}' is not allowed outside quotes`);
        const s = p;
        while (p < text.length && !NOT_UNQUOTED.has(text[p]) && !/\s/.test(text[p]) && !(text[p] === '/' && text[p + 1] === '/')) p++;
        const t = text.slice(s, p);
        if (t === 'true' || t === 'false') push('value', t, { value: t === 'true', quoted: false });
        else if (t === 'null') push('value', t, { value: null, quoted: false });
        else push('value', t, { value: t, quoted: false });
    }
    push('eof', 'end of file');
    return out;
}

/** A quoted string with JSON escapes; returns its value and the offset after it. */
function quoted(text: string, start: number, line: number): [string, number] | { readonly what: string; readonly message: string } {
    let p = start + 1;
    let out = '';
    while (p < text.length) {
        const c = text[p];
        if (c === '"') return [out, p + 1];
        if (c === '\n') return { what: '\n', message: 'JSON does not allow unescaped \n in quoted strings, use a backslash escape' };
        if (c === '\\') {
            const e = text[p + 1];
            const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
            if (e !== undefined && simple[e] !== undefined) { out += simple[e]; p += 2; continue; }
            if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(p + 2, p + 6))) { out += String.fromCharCode(Number.parseInt(text.slice(p + 2, p + 6), 16)); p += 6; continue; }
            throw new HoconError(line, `backslash followed by '${e ?? ''}', this is not a valid escape sequence (quoted strings use JSON escaping, so use double-backslash \\\\ for literal backslash)`);
        }
        out += c;
        p++;
    }
    return { what: '-1', message: 'End of input but string quote was still open' };
}

/**
 * A run of number characters as ruby-hocon reads it: Ruby's Float() when it has `.`/`e`, else
 * Ruby's Integer() (so `010` is 8); a whole float becomes an Integer. Undefined: not a number
 * (the run is then unquoted text, as `1.2.3` or `08`).
 */
function rubyNumber(t: string): PuppetValue | undefined {
    if (/[.eE]/.test(t)) {
        if (!/^[-+]?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(t)) return undefined;
        const f = Number(t);
        return Number.isFinite(f) && Number.isInteger(f) ? BigInt(f) : f;
    }
    if (!/^-?\d+$/.test(t)) return undefined;
    const neg = t.startsWith('-');
    const body = neg ? t.slice(1) : t;
    if (body.length > 1 && body.startsWith('0')) {
        if (!/^[0-7]+$/.test(body)) return undefined;
        const v = BigInt(`0o${body}`);
        return neg ? -v : v;
    }
    return BigInt(t);
}

/** A path expression (`a.b."c.d"`) as its elements. */
function splitPath(expr: string, line: number): string[] | { readonly what: string; readonly message: string } {
    const parts: string[] = [];
    let cur = '';
    let p = 0;
    while (p < expr.length) {
        const c = expr[p];
        if (c === '"') {
            const read = quoted(expr, p, line);
            if ('what' in read) return read;
            const [v, next] = read;
            cur += v;
            p = next;
        } else if (c === '.') {
            parts.push(cur);
            cur = '';
            p++;
        } else {
            cur += c;
            p++;
        }
    }
    parts.push(cur);
    return parts;
}

/** An unresolved value: literals, substitutions and concatenations of them. */
type Node =
    | { readonly t: 'lit'; readonly v: PuppetValue; readonly text: string; readonly simple: boolean }
    | { readonly t: 'obj'; readonly fields: Map<string, Node> }
    | { readonly t: 'arr'; readonly items: Node[] }
    | { readonly t: 'subst'; readonly path: readonly string[]; readonly optional: boolean; readonly line: number; readonly text: string }
    | { readonly t: 'concat'; readonly parts: readonly Node[]; readonly gaps: readonly string[] }
    /** A value that `+=` appends to whatever the key held before. */
    | { readonly t: 'append'; readonly previous: Node | undefined; readonly item: Node };

class Parser {
    private p = 0;
    readonly positions = new Map<string, number>();

    constructor(private readonly tokens: readonly Token[]) {}

    private peek(): Token {
        return this.tokens[this.p];
    }

    private skip(kinds: readonly TokenKind[]): void {
        while (kinds.includes(this.peek().kind)) this.p++;
    }

    root(): Node {
        this.skip(['ws', 'nl']);
        if (this.peek().kind === '{') {
            this.p++;
            const obj = this.object(true, true);
            this.skip(['ws', 'nl']);
            const t = this.peek();
            if (t.kind !== 'eof') throw new HoconError(t.line, `Document has trailing tokens after first object or array: ${describe(t)}`);
            return obj;
        }
        if (this.peek().kind === '[') {
            // A list parses, then is refused as the root (ruby-hocon's ConfigWrongTypeError, not a parse error).
            const line = this.peek().line;
            this.p++;
            this.array();
            this.skip(['ws', 'nl']);
            const t = this.peek();
            if (t.kind !== 'eof') throw new HoconError(t.line, `Document has trailing tokens after first object or array: ${describe(t)}`);
            throw new HoconError(line, ' has type LIST rather than object at file root', 'ConfigWrongTypeError');
        }
        return this.object(false, true);
    }

    private object(braced: boolean, top: boolean): Node {
        const fields = new Map<string, Node>();
        for (;;) {
            this.skip(['ws', 'nl']);
            let t = this.peek();
            if (t.kind === '}' && braced) { this.p++; return { t: 'obj', fields }; }
            if (t.kind === 'eof') {
                if (braced) throw new HoconError(t.line, 'expecting a close brace or a field name here, got end of file');
                return { t: 'obj', fields };
            }
            if (t.kind === 'value' && !t.quoted && t.text === 'include') throw new HoconError(t.line, 'include statements are not supported by modelc');
            if (t.kind !== 'value') throw new HoconError(t.line, `expecting a close brace or a field name here, got ${describe(t)}`);
            const keyLine = t.line;
            const path = this.key();
            t = this.peek();
            let value: Node;
            if (t.kind === 'sep' || t.kind === '+=') {
                this.p++;
                this.skip(['ws', 'nl']);
                value = this.value(keyLine, path);
                if (t.kind === '+=') value = { t: 'append', previous: lookupNode(fields, path), item: value };
            } else if (t.kind === '{') {
                value = this.value(keyLine, path);
            } else {
                throw new HoconError(t.line, suggestQuotes(t, `Key '${path.join('.')}' may not be followed by token: ${describe(t)}`));
            }
            if (top && !this.positions.has(path[0])) this.positions.set(path[0], keyLine);
            assign(fields, path, value);
            this.skip(['ws']);
            t = this.peek();
            if (t.kind === ',') { this.p++; continue; }
            if (t.kind === 'eof' && braced) throw new HoconError(t.line, `Expecting close brace } or a comma, got ${describe(t)}`);
            if (t.kind === 'nl' || t.kind === 'eof' || (t.kind === '}' && braced)) continue;
            if (t.kind === '}') throw new HoconError(t.line, suggestQuotes(t, "unbalanced close brace '}' with no open brace"));
            throw new HoconError(t.line, suggestQuotes(t, `Expecting close brace } or a comma, got ${describe(t)}`));
        }
    }

    /** A key: value tokens (and the spaces between them) up to the separator, as a path. */
    private key(): string[] {
        const parts: string[] = [];
        let cur = '';
        let pendingSpace = '';
        for (;;) {
            const t = this.peek();
            if (t.kind === 'ws') { pendingSpace = cur === '' && parts.length === 0 ? '' : t.text; this.p++; continue; }
            if (t.kind !== 'value') break;
            cur += pendingSpace;
            pendingSpace = '';
            if (t.quoted) cur += String(t.value);
            else {
                const pieces = t.text.split('.');
                cur += pieces[0];
                for (const piece of pieces.slice(1)) { parts.push(cur); cur = piece; }
            }
            this.p++;
        }
        parts.push(cur);
        return parts;
    }

    /** A value with its concatenation, up to the end of the field or element. */
    private value(line: number, path: readonly string[] | undefined): Node {
        const parts: Node[] = [];
        const gaps: string[] = [];
        let gap = '';
        for (;;) {
            const t = this.peek();
            if (t.kind === 'ws') { gap = t.text; this.p++; continue; }
            let piece: Node | undefined;
            if (t.kind === '{') { this.p++; piece = this.object(true, false); }
            else if (t.kind === '[') { this.p++; piece = this.array(); }
            else if (t.kind === 'value') { this.p++; piece = { t: 'lit', v: t.value ?? null, text: t.quoted ? String(t.value) : t.text, simple: true }; }
            else if (t.kind === 'subst') { this.p++; piece = { t: 'subst', path: t.path ?? [], optional: t.optional ?? false, line: t.line, text: t.text }; }
            if (piece === undefined) break;
            if (parts.length > 0) gaps.push(gap);
            gap = '';
            parts.push(piece);
        }
        if (parts.length === 0) {
            const t = this.peek();
            throw new HoconError(t.line, suggestQuotes(t, `Expecting a value but got wrong token: ${describe(t)}`));
        }
        void line;
        void path;
        return parts.length === 1 ? parts[0] : { t: 'concat', parts, gaps };
    }

    /** An array: elements separated by commas or newlines (a newline counts as a comma). */
    private array(): Node {
        const items: Node[] = [];
        this.skip(['ws', 'nl']);
        if (this.peek().kind === ']') { this.p++; return { t: 'arr', items }; }
        const first = this.peek();
        if (!startsValue(first)) {
            throw new HoconError(first.line, `List should have ] or a first element after the open [, instead had token: ${describe(first)} (if you want ${describe(first)} to be part of a string value, then double-quote it)`);
        }
        for (;;) {
            items.push(this.value(this.peek().line, undefined));
            this.skip(['ws']);
            const n = this.peek();
            if (n.kind === ']') { this.p++; return { t: 'arr', items }; }
            if (n.kind !== ',' && n.kind !== 'nl') {
                throw new HoconError(n.line, `List should have ended with ] or had a comma, instead had token: ${describe(n)} (if you want ${describe(n)} to be part of a string value, then double-quote it)`);
            }
            // Newlines and at most one comma separate two elements.
            let comma = false;
            for (;;) {
                const k = this.peek().kind;
                if (k === 'ws' || k === 'nl') this.p++;
                else if (k === ',' && !comma) { comma = true; this.p++; }
                else break;
            }
            const after = this.peek();
            if (after.kind === ']') { this.p++; return { t: 'arr', items }; }
            if (!startsValue(after)) {
                throw new HoconError(after.line, `List should have had new element after a comma, instead had token: ${describe(after)} (if you want the comma or ${describe(after)} to be part of a string value, then double-quote it)`);
            }
        }
    }
}

/** An object over a fallback: its own keys (objects under a key merged the same way), then the fallback's others. */
function withFallback(obj: Map<PuppetValue, PuppetValue>, fallback: Map<PuppetValue, PuppetValue>): Map<PuppetValue, PuppetValue> {
    const out = new Map<PuppetValue, PuppetValue>();
    for (const [k, v] of obj) {
        const under = fallback.get(k);
        out.set(k, v instanceof Map && under instanceof Map ? withFallback(v, under) : v);
    }
    for (const [k, v] of fallback) if (!out.has(k)) out.set(k, v);
    return out;
}

/** ruby-hocon's advice to quote what it could not take, which it leaves off at the end of the input. */
function suggestQuotes(t: Token, message: string): string {
    if (t.kind === 'eof') return message;
    return `${message} (if you intended ${describe(t)} to be part of a key or string value, try enclosing the key or value in double quotes`;
}

function startsValue(t: Token): boolean {
    return t.kind === 'value' || t.kind === 'subst' || t.kind === '{' || t.kind === '[';
}

function describe(t: Token): string {
    if (t.kind === 'eof') return 'end of file';
    if (t.kind === 'problem') return t.text;
    if (t.kind === 'nl') return "'\n'";
    return `'${t.text}'`;
}

function lookupNode(fields: Map<string, Node>, path: readonly string[]): Node | undefined {
    let cur: Node | undefined = fields.get(path[0]);
    for (const k of path.slice(1)) cur = cur?.t === 'obj' ? cur.fields.get(k) : undefined;
    return cur;
}

/**
 * Sets a field: a path makes nested objects; an object over an object merges (the new fields
 * first, then the old ones it lacks, as ruby-hocon's withFallback orders them); anything else
 * replaces the old value in its place.
 */
function assign(fields: Map<string, Node>, path: readonly string[], value: Node): void {
    const [head, ...rest] = path;
    const nested: Node = rest.length === 0 ? value : { t: 'obj', fields: (() => { const m = new Map<string, Node>(); assign(m, rest, value); return m; })() };
    const old = fields.get(head);
    fields.set(head, old !== undefined && old.t === 'obj' && nested.t === 'obj' ? mergeObjects(nested, old) : selfReferenced(nested, head, old));
}

function mergeObjects(newer: Node & { t: 'obj' }, older: Node & { t: 'obj' }): Node {
    const fields = new Map<string, Node>();
    for (const [k, v] of newer.fields) {
        const o = older.fields.get(k);
        fields.set(k, o !== undefined && o.t === 'obj' && v.t === 'obj' ? mergeObjects(v, o) : v);
    }
    for (const [k, v] of older.fields) if (!fields.has(k)) fields.set(k, v);
    return { t: 'obj', fields };
}

/** `a = ${a} ...` refers to the value `a` had before this field. */
function selfReferenced(node: Node, key: string, previous: Node | undefined): Node {
    switch (node.t) {
        case 'subst':
            return node.path.length === 1 && node.path[0] === key ? previous ?? { ...node, optional: true, path: ['\u0000missing'] } : node;
        case 'concat':
            return { t: 'concat', parts: node.parts.map(p => selfReferenced(p, key, previous)), gaps: node.gaps };
        default:
            return node;
    }
}

const MISSING = Symbol('missing');
type Resolved = PuppetValue | typeof MISSING;

/** Resolves substitutions against the whole document (then the environment variables). */
class Resolver {
    private readonly active = new Set<Node>();

    constructor(private readonly root: Node & { t: 'obj' }) {}

    resolve(n: Node): Resolved {
        switch (n.t) {
            case 'lit': return n.v;
            case 'obj': {
                const out = new Map<PuppetValue, PuppetValue>();
                for (const [k, v] of n.fields) {
                    const r = this.resolve(v);
                    if (r !== MISSING) out.set(k, r);
                }
                return out;
            }
            case 'arr': {
                const out: PuppetValue[] = [];
                for (const item of n.items) {
                    const r = this.resolve(item);
                    if (r !== MISSING) out.push(r);
                }
                return out;
            }
            case 'append': {
                const prev = n.previous === undefined ? MISSING : this.resolve(n.previous);
                const item = this.resolve(n.item);
                const list = Array.isArray(prev) ? [...prev] : [];
                if (item !== MISSING) list.push(item);
                return list;
            }
            case 'subst': return this.substitute(n);
            case 'concat': return this.concat(n);
        }
    }

    private substitute(n: Node & { t: 'subst' }): Resolved {
        const target = lookupNode(this.root.fields, n.path);
        if (target !== undefined && !this.active.has(target)) {
            this.active.add(target);
            try {
                const r = this.resolve(target);
                if (r !== MISSING) return r;
            } finally {
                this.active.delete(target);
            }
        }
        const env = process.env[n.path.join('.')];
        if (env !== undefined) return env;
        if (n.optional) return MISSING;
        throw new HoconError(n.line, `Could not resolve substitution to a value: ${n.text}`, 'UnresolvedSubstitutionError');
    }

    /** Strings (with the spaces between them), arrays joined, objects merged. */
    private concat(n: Node & { t: 'concat' }): Resolved {
        const values: Resolved[] = n.parts.map(p => this.resolve(p));
        const present = values.filter((v): v is PuppetValue => v !== MISSING);
        if (present.length > 0 && present.every(v => Array.isArray(v))) return present.flat(1);
        if (present.length > 0 && present.every(v => v instanceof Map)) {
            // Each object falls back on the ones before it (ruby-hocon's with_fallback): its keys first.
            return (present as Map<PuppetValue, PuppetValue>[]).reduce((fallback, m) => withFallback(m, fallback));
        }
        let s = '';
        values.forEach((v, i) => {
            if (i > 0) s += n.gaps[i - 1];
            if (v === MISSING) return;
            const part = n.parts[i];
            s += part.t === 'lit' ? part.text : v === null ? 'null' : String(v);
        });
        return s;
    }
}

/**
 * HOCON as ruby-hocon's `Hocon.parse` reads it for Puppet's hocon_data: an object with or
 * without braces, `:`/`=`/`+=` fields, dotted path keys, objects merged on repeated keys,
 * unquoted and triple-quoted strings, value concatenation (spaces kept), `${path}` and
 * `${?path}` substitutions (falling back to environment variables), and numbers as Ruby reads
 * them (a whole float becomes an Integer). Returns the value and the line of each top-level key.
 */
export function parseHocon(text: string): { value: Map<PuppetValue, PuppetValue>; keyLines: Map<string, number> } {
    const parser = new Parser(tokenize(text));
    const root = parser.root() as Node & { t: 'obj' };
    const value = new Resolver(root).resolve(root) as Map<PuppetValue, PuppetValue>;
    return { value, keyLines: parser.positions };
}
