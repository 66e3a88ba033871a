import { isAbsolute } from 'node:path';
import { HoconError } from './hocon-error.js';
import { includeTargets, type HoconFiles, type IncludeDirective, type IncludeKind } from './hocon-include.js';
import { tokenize, type Token, type TokenKind } from './hocon-tokens.js';
import type { PuppetValue } from './values.js';

export type { HoconFiles } from './hocon-include.js';

/** An unresolved value: literals, substitutions and concatenations of them. */
type Node =
    | { readonly t: 'lit'; readonly v: PuppetValue; readonly text: string; readonly simple: boolean }
    | { readonly t: 'obj'; readonly fields: Map<string, Node> }
    | { readonly t: 'arr'; readonly items: Node[] }
    /**
     * `origin`: the file it was written in ("String" for the text parsed). `fallback`: a
     * substitution of an included file is looked up under the include's path, then as written.
     */
    | { readonly t: 'subst'; readonly path: readonly string[]; readonly optional: boolean; readonly line: number; readonly text: string; readonly origin: string; readonly fallback?: readonly string[] }
    | { readonly t: 'concat'; readonly parts: readonly Node[]; readonly gaps: readonly string[] }
    /** A value that `+=` appends to whatever the key held before. */
    | { readonly t: 'append'; readonly previous: Node | undefined; readonly item: Node };

/**
 * What a parse reads: `origin` names it in messages, `file` is the file it is (the base of its
 * relative includes; none for a string), `json` is ruby-hocon's JSON flavour (a .json file),
 * `files` performs includes (none: a syntax-only pass), `depth` counts the files being included.
 */
interface ParseContext {
    readonly origin: string;
    readonly file?: string;
    readonly json: boolean;
    readonly files?: HoconFiles;
    readonly depth: number;
}

/** A file that could not be opened while the file including it was read: that file counts as missing too. */
class MissingInclude extends Error {}

/** ruby-hocon gives up on includes nested this deep (a cycle). */
const MAX_INCLUDE_DEPTH = 50;

const INCLUDE_KINDS: ReadonlyMap<string, IncludeKind> = new Map([['url(', 'url'], ['file(', 'file'], ['classpath(', 'classpath']]);

class Parser {
    private p = 0;
    readonly positions = new Map<string, number>();
    /** The path of the field being read (what an include here is placed under), and how many lists enclose it. */
    private readonly pathStack: string[] = [];
    private arrayDepth = 0;

    constructor(private readonly tokens: readonly Token[], private readonly ctx: ParseContext) {}

    /** The next token; ruby-hocon's JSON flavour refuses unquoted text and substitutions as it reaches them. */
    private peek(): Token {
        const t = this.tokens[this.p];
        if (this.ctx.json && t.kind === 'value' && !t.quoted && typeof t.value === 'string') throw this.error(t.line, `Token not allowed in valid JSON: '${t.text}'`);
        if (this.ctx.json && t.kind === 'subst') throw this.error(t.line, 'Substitutions (${} syntax) not allowed in JSON');
        return t;
    }

    error(line: number | undefined, problem: string, kind: HoconError['kind'] = 'ConfigParseError'): HoconError {
        return new HoconError(line, problem, kind, this.ctx.origin);
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
            if (t.kind !== 'eof') throw this.error(t.line, `Document has trailing tokens after first object or array: ${describe(t)}`);
            return obj;
        }
        if (this.peek().kind === '[') {
            // A list parses, then is refused as the root (ruby-hocon's ConfigWrongTypeError, not a parse error).
            const line = this.peek().line;
            this.p++;
            this.array();
            this.skip(['ws', 'nl']);
            const t = this.peek();
            if (t.kind !== 'eof') throw this.error(t.line, `Document has trailing tokens after first object or array: ${describe(t)}`);
            throw this.error(line, ' has type LIST rather than object at file root', 'ConfigWrongTypeError');
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
                if (braced) throw this.error(t.line, 'expecting a close brace or a field name here, got end of file');
                return { t: 'obj', fields };
            }
            if (t.kind === 'value' && !t.quoted && t.text === 'include' && !this.ctx.json) {
                this.p++;
                const directive = this.includeDirective(t.line);
                if (this.ctx.files) this.include(fields, directive, this.ctx.files);
            } else {
                this.field(fields, top);
            }
            this.skip(['ws']);
            t = this.peek();
            if (t.kind === ',') { this.p++; continue; }
            if (t.kind === 'eof' && braced) throw this.error(t.line, `Expecting close brace } or a comma, got ${describe(t)}`);
            if (t.kind === 'nl' || t.kind === 'eof' || (t.kind === '}' && braced)) continue;
            if (t.kind === '}') throw this.error(t.line, suggestQuotes(t, "unbalanced close brace '}' with no open brace"));
            throw this.error(t.line, suggestQuotes(t, `Expecting close brace } or a comma, got ${describe(t)}`));
        }
    }

    /** A field: its key path, then `:`/`=`/`+=` and a value, or an object directly. */
    private field(fields: Map<string, Node>, top: boolean): void {
        let t = this.peek();
        if (t.kind !== 'value') throw this.error(t.line, `expecting a close brace or a field name here, got ${describe(t)}`);
        const keyLine = t.line;
        const keyStart = this.p;
        const path = this.key();
        // Messages quote the key as written.
        const keyText = this.tokens.slice(keyStart, this.p).map(k => k.text).join('').trimEnd();
        t = this.peek();
        let value: Node;
        this.pathStack.push(...path);
        try {
            if (t.kind === 'sep' || t.kind === '+=') {
                if (this.ctx.json && t.text !== ':') throw this.error(t.line, suggestQuotes(t, `Key '${keyText}' may not be followed by token: ${describe(t)}`));
                this.p++;
                this.skip(['ws', 'nl']);
                value = this.value(keyLine, path);
                if (t.kind === '+=') value = { t: 'append', previous: lookupNode(fields, path), item: value };
            } else if (t.kind === '{' && !this.ctx.json) {
                value = this.value(keyLine, path);
            } else {
                throw this.error(t.line, suggestQuotes(t, `Key '${keyText}' may not be followed by token: ${describe(t)}`));
            }
        } finally {
            this.pathStack.length -= path.length;
        }
        if (this.ctx.json && fields.has(path[0])) throw this.error(keyLine, `JSON does not allow duplicate fields: '${path[0]}' was already seen`);
        if (top && !this.positions.has(path[0])) this.positions.set(path[0], keyLine);
        assign(fields, path, value);
    }

    /** After `include`: a quoted name (the heuristic include) or `file(...)`, `url(...)`, `classpath(...)`. */
    private includeDirective(line: number): IncludeDirective {
        this.skip(['ws', 'nl']);
        let t = this.peek();
        if (t.kind === 'value' && t.quoted) {
            this.p++;
            return { kind: 'heuristic', name: String(t.value), line };
        }
        if (t.kind !== 'value' || typeof t.value !== 'string') throw this.error(t.line, `include keyword is not followed by a quoted string, but by: ${describe(t)}`);
        const kind = INCLUDE_KINDS.get(t.text);
        if (kind === undefined) {
            throw this.error(t.line, `expecting include parameter to be quoted filename, file(), classpath(), or url(). No spaces are allowed before the open paren. Not expecting: ${describe(t)}`);
        }
        this.p++;
        this.skip(['ws', 'nl']);
        t = this.peek();
        if (t.kind !== 'value' || !t.quoted) throw this.error(t.line, `expecting a quoted string inside file(), classpath(), or url(), rather than: ${describe(t)}`);
        const name = String(t.value);
        this.p++;
        this.skip(['ws', 'nl']);
        t = this.peek();
        if (t.kind !== 'value' || t.quoted || t.text !== ')') throw this.error(t.line, `expecting a close parentheses ')' here, not: ${describe(t)}`);
        this.p++;
        return { kind, name, line };
    }

    /**
     * Merges what an include reads into the object being read, key by key (its objects over the ones
     * already there), its substitutions first looked up under the include's path.
     */
    private include(fields: Map<string, Node>, d: IncludeDirective, files: HoconFiles): void {
        const targets = includeTargets(d, this.ctx.file, files, this.ctx.origin);
        const texts = targets.map(target => files.read(target.path));
        // The gem opens an absolute name with File.new, whose failure makes the including file unreadable: it counts as missing.
        if (d.kind === 'heuristic' && isAbsolute(d.name) && texts.some(t => t === undefined)) throw new MissingInclude();
        let obj: (Node & { t: 'obj' }) | undefined;
        targets.forEach((target, i) => {
            const text = texts[i];
            if (text === undefined) return;
            let read: Node & { t: 'obj' };
            try {
                read = parseDocument(text, { origin: target.path, file: target.path, json: target.json, files, depth: this.ctx.depth + 1 });
            } catch (e) {
                if (e instanceof MissingInclude) return;
                throw e;
            }
            obj = obj === undefined ? read : mergeObjects(obj, read) as Node & { t: 'obj' };
        });
        if (obj === undefined) return;
        if (this.arrayDepth > 0 && hasSubstitutions(obj)) {
            throw this.error(d.line, 'Due to current limitations of the config parser, when an include statement is nested inside a list value, ${} substitutions inside the included file cannot be resolved correctly. Either move the include outside of the list value or remove the ${} statements from the included file.');
        }
        const placed = this.pathStack.length > 0 ? relativized(obj, this.pathStack) : obj;
        if (placed.t !== 'obj') return;
        for (const [k, v] of placed.fields) assign(fields, [k], v);
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
            else if (t.kind === 'subst') { this.p++; piece = { t: 'subst', path: t.path ?? [], optional: t.optional ?? false, line: t.line, text: t.text, origin: this.ctx.origin }; }
            if (piece === undefined) break;
            if (parts.length > 0) gaps.push(gap);
            gap = '';
            parts.push(piece);
        }
        if (parts.length === 0) {
            const t = this.peek();
            throw this.error(t.line, suggestQuotes(t, `Expecting a value but got wrong token: ${describe(t)}`));
        }
        void line;
        void path;
        return parts.length === 1 ? parts[0] : { t: 'concat', parts, gaps };
    }

    /** An array: elements separated by commas or newlines (a newline counts as a comma). */
    private array(): Node {
        this.arrayDepth++;
        try {
            return this.elements();
        } finally {
            this.arrayDepth--;
        }
    }

    private elements(): Node {
        const items: Node[] = [];
        this.skip(['ws', 'nl']);
        if (this.peek().kind === ']') { this.p++; return { t: 'arr', items }; }
        const first = this.peek();
        if (!startsValue(first)) {
            throw this.error(first.line, `List should have ] or a first element after the open [, instead had token: ${describe(first)} (if you want ${describe(first)} to be part of a string value, then double-quote it)`);
        }
        for (;;) {
            items.push(this.value(this.peek().line, undefined));
            this.skip(['ws']);
            const n = this.peek();
            if (n.kind === ']') { this.p++; return { t: 'arr', items }; }
            if (n.kind !== ',' && n.kind !== 'nl') {
                throw this.error(n.line, `List should have ended with ] or had a comma, instead had token: ${describe(n)} (if you want ${describe(n)} to be part of a string value, then double-quote it)`);
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
                throw this.error(after.line, `List should have had new element after a comma, instead had token: ${describe(after)} (if you want the comma or ${describe(after)} to be part of a string value, then double-quote it)`);
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
    if (t.kind !== 'value' || (!t.quoted && typeof t.value === 'string')) return `'${t.text}'`;
    // A value token names its type.
    const type = t.quoted ? 'STRING' : typeof t.value === 'boolean' ? 'BOOLEAN' : t.value === null ? 'NULL' : 'NUMBER';
    return `'${t.quoted ? String(t.value) : t.text}' (${type})`;
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
        for (const path of n.fallback ? [n.path, n.fallback] : [n.path]) {
            const target = lookupNode(this.root.fields, path);
            if (target === undefined || this.active.has(target)) continue;
            this.active.add(target);
            try {
                const r = this.resolve(target);
                if (r !== MISSING) return r;
            } finally {
                this.active.delete(target);
            }
        }
        const env = process.env[(n.fallback ?? n.path).join('.')];
        if (env !== undefined) return env;
        if (n.optional) return MISSING;
        throw new HoconError(n.line, `Could not resolve substitution to a value: ${n.text}`, 'UnresolvedSubstitutionError', n.origin);
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

/** Whether a value read from an included file still has substitutions to resolve. */
function hasSubstitutions(n: Node): boolean {
    switch (n.t) {
        case 'lit': return false;
        case 'subst': return true;
        case 'obj': return [...n.fields.values()].some(hasSubstitutions);
        case 'arr': return n.items.some(hasSubstitutions);
        case 'concat': return n.parts.some(hasSubstitutions);
        case 'append': return (n.previous !== undefined && hasSubstitutions(n.previous)) || hasSubstitutions(n.item);
    }
}

/** An included value placed under `prefix`: its substitutions look there first. */
function relativized(n: Node, prefix: readonly string[]): Node {
    switch (n.t) {
        case 'lit': return n;
        case 'subst': return { ...n, path: [...prefix, ...n.path], fallback: n.fallback ?? n.path };
        case 'obj': return { t: 'obj', fields: new Map([...n.fields].map(([k, v]) => [k, relativized(v, prefix)])) };
        case 'arr': return { t: 'arr', items: n.items.map(i => relativized(i, prefix)) };
        case 'concat': return { t: 'concat', parts: n.parts.map(p => relativized(p, prefix)), gaps: n.gaps };
        case 'append': return { t: 'append', previous: n.previous && relativized(n.previous, prefix), item: relativized(n.item, prefix) };
    }
}

/** Whether a document may include anything (only then does its syntax need a pass of its own). */
function hasInclude(tokens: readonly Token[]): boolean {
    return tokens.some(t => t.kind === 'value' && !t.quoted && t.text === 'include');
}

/**
 * One document, unresolved: read for its syntax first, then again performing its includes (as
 * ruby-hocon parses a whole document before it reads what the document includes).
 */
function parseDocument(text: string, ctx: ParseContext): Node & { t: 'obj' } {
    if (ctx.depth >= MAX_INCLUDE_DEPTH) {
        throw new HoconError(undefined, `include statements nested more than ${MAX_INCLUDE_DEPTH} times, you probably have a cycle in your includes.  Trace: [${ctx.origin}]`, 'ConfigParseError', ctx.origin);
    }
    const tokens = tokenize(text, ctx.origin);
    if (ctx.files && hasInclude(tokens)) new Parser(tokens, { ...ctx, files: undefined }).root();
    return new Parser(tokens, ctx).root() as Node & { t: 'obj' };
}

/**
 * HOCON as ruby-hocon's `Hocon.parse` reads it for Puppet's hocon_data: an object with or
 * without braces, `:`/`=`/`+=` fields, dotted path keys, objects merged on repeated keys,
 * unquoted and triple-quoted strings, value concatenation (spaces kept), `${path}` and
 * `${?path}` substitutions (falling back to environment variables), numbers as Ruby reads
 * them (a whole float becomes an Integer), and includes as the gem (1.3.1) performs them for a
 * string (see hocon-include.ts), through `files`. Returns the value and the line of each
 * top-level key.
 */
export function parseHocon(text: string, files?: HoconFiles): { value: Map<PuppetValue, PuppetValue>; keyLines: Map<string, number> } {
    const tokens = tokenize(text);
    const ctx: ParseContext = { origin: 'String', json: false, depth: 0 };
    if (files && hasInclude(tokens)) new Parser(tokens, ctx).root();
    const parser = new Parser(tokens, { ...ctx, files });
    const root = parser.root() as Node & { t: 'obj' };
    const value = new Resolver(root).resolve(root) as Map<PuppetValue, PuppetValue>;
    return { value, keyLines: parser.positions };
}
