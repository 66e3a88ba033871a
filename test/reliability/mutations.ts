import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// How a valid input is made bad: text edits by the grammar's own fragments, byte flips,
// truncation, deep nesting, huge numbers, invalid UTF-8, values of the wrong type, empty files,
// and what a file system can put where a file is expected (a directory, a dangling link, a link
// loop, nothing). Each mutation is named, so a failure says what was done.

export type Rnd = () => number;

export const pick = <T>(rnd: Rnd, items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;

/** Pieces of every input language read by modelc: Puppet, EPP, YAML, JSON, HOCON, Ruby, XML, INI. */
const FRAGMENTS = ['{', '}', '[', ']', '"', "'", ':', ',', '\n', ' ', '- ', '&a ', '*a', '<<: ', '!ruby/object:Foo ', '---', '\\', '$type',
    '"$ref"', '"__ptype"', '"__pvalue"', 'null', 'true', '0x', '1e999', '-', '#', '\t', '\u0000', '\ufffd', '$', '${', '(', ')', '->', 'include ',
    'class ', 'define ', 'if ', 'unless ', 'case ', '@@', '<||>', '|', '=>', 'notify { ', 'lookup(', 'epp(', 'template(', '%{', '%{::', '%{alias(',
    '%{lookup("', '<%', '%>', '<%=', '-%>', '<%#', 'def ', 'end', 'do |x|', 'begin', 'rescue', 'ensure', 'yield', '.each', 'self.', '@x', '@@y',
    '::', 'Puppet::', 'require ', "require 'puppet'", 'newtype(:', 'newparam(:', 'newproperty(:', 'dispatch :', 'param ', 'Integer', '"#{', '}"',
    '%w[', '%r{', '<<~EOS\n', 'EOS\n', '=begin\n', '=end\n', '__END__\n', 'while true\n', 'loop do\n', '"${', 'include required(', '+=', 'include "',
    '<?xml ', '<!DOCTYPE x [<!ENTITY a "aaaa">]>', '&a;', '<!--', '-->', '<![CDATA[', ']]>', 'xmi:id="', 'href="#', '[section]', 'url ', 'type ',
    '= ', '=', '!binary ', '!!float ', '!!int ', '!!str ', '!!set ', '!!omap ', '? ', '.inf', '.nan', '~', '%YAML 1.1\n', '%TAG ! x\n', '*', '@',
    '0o17', '1_000', '9223372036854775808', '-0', '+1', '0b101', '1.5e308', 'yes', 'no', 'on', 'off', '2024-01-01', '!', '\r', '\u2028', '\ud800'];

/** One to four random edits: delete, insert a fragment, truncate, duplicate a slice, insert a character. */
export function mutateText(text: string, rnd: Rnd): string {
    let s = text;
    const edits = 1 + Math.floor(rnd() * 4);
    for (let i = 0; i < edits; i++) {
        const at = Math.floor(rnd() * (s.length + 1));
        switch (Math.floor(rnd() * 5)) {
            case 0: s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 8)); break;
            case 1: s = s.slice(0, at) + pick(rnd, FRAGMENTS) + s.slice(at); break;
            case 2: s = s.slice(0, at); break;
            case 3: { const from = Math.floor(rnd() * s.length); s = s.slice(0, at) + s.slice(from, from + 1 + Math.floor(rnd() * 40)) + s.slice(at); break; }
            default: s = s.slice(0, at) + String.fromCharCode(Math.floor(rnd() * 0x3000)) + s.slice(at);
        }
    }
    return s;
}

export function mutateBytes(bytes: Uint8Array, rnd: Rnd): Uint8Array {
    const out = [...bytes];
    const edits = 1 + Math.floor(rnd() * 4);
    for (let i = 0; i < edits; i++) {
        const at = Math.floor(rnd() * (out.length + 1));
        switch (Math.floor(rnd() * 4)) {
            case 0: out.splice(at, 1 + Math.floor(rnd() * 4)); break;
            case 1: out.splice(at, 0, Math.floor(rnd() * 256)); break;
            case 2: out.length = at; break;
            default: if (at < out.length) out[at] = Math.floor(rnd() * 256);
        }
    }
    return Uint8Array.from(out);
}

const BAD_UTF8 = [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0xfe, 0xff]];

/** Every token class of the Puppet language, one or two examples each, for truncation and duplication. */
const PUPPET_TOKENS = /\$\{|\$[a-z_:][\w:]*|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|@@|<<\||<\||\|>>|\|>|->|~>|<-|<~|=>|\+>|==|!=|=~|!~|<=|>=|<<|>>|@\(|\/(?:[^/\n\\]|\\.)+\/|[A-Z][\w:]*|[a-z_][\w:]*|\d+(?:\.\d+)?|[{}()[\],;:?=+*%<>!|-]/g;

/**
 * Truncates or duplicates one token of a manifest or template, by its class: a string or
 * heredoc opener cut in half, an operator doubled, a variable without its name.
 */
export function mutateToken(text: string, rnd: Rnd): string {
    const tokens = [...text.matchAll(PUPPET_TOKENS)];
    if (tokens.length === 0) return text;
    const t = pick(rnd, tokens);
    const at = t.index ?? 0;
    const word = t[0];
    const replacement = pick(rnd, [word.slice(0, Math.max(1, Math.floor(word.length / 2))), word + word, word.slice(1), '', word + ' ' + word, word.repeat(50)]);
    return text.slice(0, at) + replacement + text.slice(at + word.length);
}

/** ERB and EPP tags gone wrong: unclosed, doubled, mixed, trim markers alone, comments open. */
const BAD_TAGS = ['<%', '<%=', '<%-', '<%#', '%>', '-%>', '<%%', '%%>', '<%= %>', '<% end %>', '<% } %>', '<%= $x', '<% if true %>', '<%= @x.each do |y| %>', '<%- | $a | -%>',
    '<%| Integer $x = "s" |%>', '<%= %><%', '<%# never closed', '<%= <%= 1 %> %>', '<% $x = %>', '<%= "${" %>', '<%=\u0000%>', '<%-%>'];

/** Places one bad tag in a template. */
function badTag(text: string, rnd: Rnd): string {
    const tags = [...text.matchAll(/<%[-=#]?|-?%>/g)];
    const tag = pick(rnd, BAD_TAGS);
    if (tags.length > 0 && rnd() < 0.5) {
        const m = pick(rnd, tags);
        return text.slice(0, m.index) + tag + text.slice((m.index ?? 0) + m[0].length);
    }
    const at = Math.floor(rnd() * (text.length + 1));
    return text.slice(0, at) + tag + text.slice(at);
}

/** A "billion laughs" of some depth and width, with the top alias where the data's first value was. */
function aliasBomb(text: string, rnd: Rnd): string {
    const width = pick(rnd, [2, 9, 30]);
    const depth = pick(rnd, [8, 12, 40]);
    const levels = [`b0: &b0 [${Array.from({ length: width }, () => '"lol"').join(', ')}]`];
    for (let i = 1; i <= depth; i++) levels.push(`b${i}: &b${i} [${Array.from({ length: width }, () => `*b${i - 1}`).join(', ')}]`);
    const m = /^([^\s#:][^:\n]*):[ \t]+\S.*$/m.exec(text);
    const body = levels.join('\n');
    if (!m) return `${body}\n${text}`;
    return `${body}\n${text.slice(0, m.index)}${m[1]}: *b${depth}${text.slice((m.index ?? 0) + m[0].length)}`;
}

/** What each language nests with, for inputs deeper than any stack. */
const NESTERS: Record<string, ReadonlyArray<readonly [string, string]>> = {
    pp: [['[', ']'], ['(', ')'], ['{a=>', '}'], ['if true { ', ' }'], ['"${', '}"'], ['[[', ']]'], ['-', ''], ['!', ''], ['Array[', ']']],
    json: [['[', ']'], ['{"a":', '}']],
    yaml: [['[', ']'], ['{a: ', '}'], ['- ', ''], ['!!seq [', ']'], ['a:\n', '']],
    rb: [['(', ')'], ['[', ']'], ['begin\n', '\nend'], ['-> { ', ' }'], ['{a: ', '}'], ['"#{', '}"'], ['!', ''], ['if x then ', ' end'], ['class A\n', '\nend'],
        ['module M\n', '\nend'], ['def a\n', '\nend'], ['[1].each do |a|\n', '\nend'], ['[1].map { |a| ', ' }'], ['case 1\nwhen 1\n', '\nend'], ['<<~E\n#{', '}\nE\n'], ['x = ', '']],
    hocon: [['{a: ', '}'], ['[', ']'], ['${?x', '}']],
    xml: [['<a>', '</a>']],
    text: [['[', ']'], ['(', ')'], ['{', '}']]
};

const HUGE = ['1e400', '-1e400', '99999999999999999999999999999', '-9223372036854775809', '0x7fffffffffffffffffff', '1' + '0'.repeat(5000), '4.9e-325', '0.' + '1'.repeat(400),
    '18446744073709551616', '1_000_000_000_000_000_000'];

export type Kind = keyof typeof NESTERS;

export function kindOf(file: string): Kind {
    if (/\.(pp|epp)$/.test(file)) return 'pp';
    if (/\.json$/.test(file)) return 'json';
    if (/\.ya?ml$/.test(file)) return 'yaml';
    if (/\.rb$/.test(file)) return 'rb';
    if (/\.(conf|hocon)$/.test(file)) return 'hocon';
    if (/\.(xmi|xml)$/.test(file)) return 'xml';
    return 'text';
}

/** A value of another type in the language of KIND, for "wrong types". */
function otherValue(kind: Kind, rnd: Rnd): string {
    const json = ['null', '[]', '{}', '"s"', '1', '-1.5', 'true', '[[1]]', '{"$type":"x"}', '"' + 'x'.repeat(70000) + '"'];
    const yaml = ['~', '[]', '{}', 's', '1', 'true', '[1, [2]]', '{a: {b: c}}', '!ruby/object:Foo {}', '*undefined_alias', '"\\x00"', '2024-01-01 00:00:00'];
    return kind === 'json' ? pick(rnd, json) : pick(rnd, yaml);
}

/** Replaces a JSON value (or a YAML scalar after a colon) with one of another type. */
function wrongType(text: string, kind: Kind, rnd: Rnd): string {
    const re = kind === 'json' ? /(:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null|\[\]|\{\})/g : /(:[ \t]+)([^\n#]+)/g;
    const spots = [...text.matchAll(re)];
    if (spots.length === 0) return text + otherValue(kind, rnd);
    const m = pick(rnd, spots);
    const at = (m.index ?? 0) + (m[1]?.length ?? 0);
    return text.slice(0, at) + otherValue(kind, rnd) + text.slice(at + (m[2]?.length ?? 0));
}

function replaceNumber(text: string, rnd: Rnd): string {
    const spots = [...text.matchAll(/\b\d+(?:\.\d+)?\b/g)];
    const huge = pick(rnd, HUGE);
    if (spots.length === 0) return `${text}${huge}`;
    const m = pick(rnd, spots);
    return text.slice(0, m.index) + huge + text.slice((m.index ?? 0) + m[0].length);
}

export interface Mutation {
    readonly name: string;
    /** Applies the mutation to FILE (which exists); may leave something else than a regular file there. */
    readonly apply: (file: string, rnd: Rnd) => void;
    /** Relative weight. */
    readonly weight: number;
}

const atRandom = (s: string, rnd: Rnd): number => Math.floor(rnd() * (s.length + 1));
const text = (file: string): string => readFileSync(file, 'utf8');
const rewrite = (file: string, f: (s: string) => string | Uint8Array): void => {
    const content = f(text(file));
    rmSync(file, { force: true });
    writeFileSync(file, content);
};

export const MUTATIONS: readonly Mutation[] = [
    { name: 'edit', weight: 30, apply: (f, rnd) => rewrite(f, s => mutateText(s, rnd)) },
    { name: 'bytes', weight: 8, apply: (f, rnd) => { const b = mutateBytes(readFileSync(f), rnd); rmSync(f); writeFileSync(f, b); } },
    { name: 'truncate', weight: 8, apply: (f, rnd) => rewrite(f, s => s.slice(0, Math.floor(rnd() * s.length))) },
    { name: 'empty', weight: 3, apply: f => rewrite(f, () => '') },
    { name: 'whitespace-only', weight: 1, apply: f => rewrite(f, () => ' \n\t\n') },
    {
        name: 'invalid-utf8', weight: 5, apply: (f, rnd) => {
            const b = readFileSync(f);
            const at = Math.floor(rnd() * (b.length + 1));
            const bad = Buffer.from(pick(rnd, BAD_UTF8));
            rmSync(f);
            writeFileSync(f, Buffer.concat([b.subarray(0, at), bad, b.subarray(at)]));
        }
    },
    { name: 'bom', weight: 1, apply: (f, rnd) => rewrite(f, s => (rnd() < 0.5 ? '\ufeff' : '\ufeff\ufeff') + s) },
    { name: 'crlf', weight: 1, apply: f => rewrite(f, s => s.replace(/\n/g, '\r\n')) },
    { name: 'nul', weight: 1, apply: (f, rnd) => rewrite(f, s => { const at = atRandom(s, rnd); return s.slice(0, at) + '\u0000' + s.slice(at); }) },
    {
        name: 'deep', weight: 5, apply: (f, rnd) => rewrite(f, s => {
            const [open, close] = pick(rnd, NESTERS[kindOf(f)] ?? NESTERS['text'] ?? []);
            const n = pick(rnd, [200, 2000, 20_000, 100_000]);
            // Block collections nest by indentation, one level a line.
            const block = kindOf(f) === 'yaml' && (open === '- ' || open === 'a:\n');
            const inner = block ? Array.from({ length: Math.min(n, 3000) }, (_, i) => `${' '.repeat(i * 2)}${open === '- ' ? '- ' : 'a:'}`).join('\n') + (open === '- ' ? 'x' : ' x') : open.repeat(n) + '1' + close.repeat(n);
            const m = /(:\s*|=>\s*|=\s*|\(\s*)/.exec(s.slice(atRandom(s, rnd)));
            if (!m || rnd() < 0.3) return s + '\n' + inner;
            const at = s.indexOf(m[0], 0) + m[0].length;
            return s.slice(0, at) + inner + s.slice(at);
        })
    },
    { name: 'unbalanced-deep', weight: 2, apply: (f, rnd) => rewrite(f, s => { const at = atRandom(s, rnd); return s.slice(0, at) + pick(rnd, ['[', '{', '(', '"${', '<%', 'begin\n']).repeat(pick(rnd, [500, 50_000])) + s.slice(at); }) },
    { name: 'huge-number', weight: 4, apply: (f, rnd) => rewrite(f, s => replaceNumber(s, rnd)) },
    { name: 'wrong-type', weight: 6, apply: (f, rnd) => rewrite(f, s => wrongType(s, kindOf(f), rnd)) },
    { name: 'long-line', weight: 1, apply: (f, rnd) => rewrite(f, s => { const at = atRandom(s, rnd); return s.slice(0, at) + 'x'.repeat(pick(rnd, [70_000, 1_000_000])) + s.slice(at); }) },
    { name: 'duplicate', weight: 2, apply: f => rewrite(f, s => s + '\n' + s) },
    { name: 'directory', weight: 2, apply: f => { rmSync(f, { force: true }); mkdirSync(f); writeFileSync(join(f, 'inner'), 'x'); } },
    { name: 'missing', weight: 3, apply: f => rmSync(f, { force: true }) },
    { name: 'dangling-link', weight: 1, apply: f => { rmSync(f, { force: true }); symlinkSync(join(dirname(f), 'no-such-target'), f); } },
    {
        name: 'link-loop', weight: 1, apply: f => {
            rmSync(f, { force: true });
            const other = join(dirname(f), `.loop-${basename(f)}`);
            symlinkSync(f, other);
            symlinkSync(other, f);
        }
    },
    { name: 'dev-null', weight: 1, apply: f => { rmSync(f, { force: true }); symlinkSync('/dev/null', f); } },
    { name: 'dev-zero', weight: 1, apply: f => { rmSync(f, { force: true }); symlinkSync(pickDevice(f), f); } },
    { name: 'fifo', weight: 1, apply: f => { rmSync(f, { force: true }); execFileSync('mkfifo', [f]); } },
    { name: 'token', weight: 6, apply: (f, rnd) => rewrite(f, s => (kindOf(f) === 'pp' || kindOf(f) === 'rb' || /\.(erb|epp)$/.test(f) ? mutateToken(s, rnd) : mutateText(s, rnd))) },
    { name: 'bad-tag', weight: 2, apply: (f, rnd) => rewrite(f, s => (/\.(erb|epp)$/.test(f) ? badTag(s, rnd) : mutateText(s, rnd))) },
    { name: 'odd-key', weight: 3, apply: (f, rnd) => rewrite(f, s => (kindOf(f) === 'yaml' || kindOf(f) === 'json' ? oddKey(s, kindOf(f) === 'json', rnd) : mutateText(s, rnd))) },
    { name: 'unknown-class', weight: 3, apply: (f, rnd) => rewrite(f, s => (/\.(xmi|xml|json)$/.test(f) ? unknownClassOrFeature(s, rnd) : mutateText(s, rnd))) },
    { name: 'alias-bomb', weight: 2, apply: (f, rnd) => rewrite(f, s => (kindOf(f) === 'yaml' ? aliasBomb(s, rnd) : mutateText(s, rnd))) }
];

/** Keys no one writes on purpose: empty, control characters, Puppet's own names, very long. */
export const ODD_KEYS = ['', '\u0000', '::', '$x', '${x}', 'a'.repeat(70_000), 'trusted', 'facts', 'os.family', '\ud83d\udca5', '__ptype', '"', '\n', 'a b', '-1', 'true', 'null', '~'];
/** Numbers beyond every integer and float type. */
export const HUGE_NUMBERS = ['1' + '0'.repeat(400), '-9223372036854775809', '9223372036854775808', '1e400', '-1e400', '18446744073709551616', '1.7976931348623157e309', '-0', '1e-400',
    '123456789012345678901234567890.5', '0x' + 'f'.repeat(40), '0o' + '7'.repeat(40)];

/** Adds a key of ODD_KEYS with a huge number (or a plain value) at the top of a YAML or JSON mapping. */
export function oddKey(text: string, json: boolean, rnd: Rnd): string {
    const key = pick(rnd, ODD_KEYS);
    const value = rnd() < 0.7 ? pick(rnd, HUGE_NUMBERS) : '1';
    if (json) {
        const at = text.indexOf('{');
        const entry = `${JSON.stringify(key)}: ${/^[-\d]/.test(value) && !/^0[xo]/.test(value) ? value : JSON.stringify(value)},`;
        return at < 0 ? `{${entry.slice(0, -1)}}` : text.slice(0, at + 1) + entry + text.slice(at + 1);
    }
    return `${JSON.stringify(key)}: ${value}\n${text}`;
}

/**
 * A model's class or feature names changed: an XMI element, xsi:type or attribute, an RGen JSON
 * "_class", a JSON "$type" or key, to a name no metamodel has or to a class of another place.
 */
export function unknownClassOrFeature(text: string, rnd: Rnd): string {
    const spots = [...text.matchAll(/xsi:type="[^"]*"|<\w+:\w+|"_class":\s*"[^"]*"|"\$type":\s*"[^"]*"|\s\w+="|"\w+":/g)];
    if (spots.length === 0) return text;
    const m = pick(rnd, spots);
    const name = pick(rnd, ['Nope', 'Catalog', 'Resource', 'Edge', 'Binding', '', 'x:y', '#//Nope', '__proto__', 'constructor']);
    const was = m[0];
    const replaced = was.startsWith('xsi:type') ? `xsi:type="catalog:${name}"` : was.startsWith('<') ? `${was.slice(0, was.indexOf(':') + 1)}${name || 'X'}`
        : was.startsWith('"_class"') ? `"_class": "${name}"` : was.startsWith('"$type"') ? `"$type": "${was.slice(was.indexOf(': ') + 3, was.lastIndexOf('#') + 1) || 'http://x'}//${name}"`
            : was.endsWith('="') ? ` ${name || 'x'}="` : `"${name}":`;
    return text.slice(0, m.index) + replaced + text.slice((m.index ?? 0) + was.length);
}

/** A device that never ends, by the file's name (stable per file: the case replays alike). */
function pickDevice(file: string): string {
    return basename(file).length % 2 === 0 ? '/dev/zero' : '/dev/urandom';
}

const TOTAL = MUTATIONS.reduce((n, m) => n + m.weight, 0);

export function pickMutation(rnd: Rnd, exclude: ReadonlySet<string> = new Set()): Mutation {
    for (;;) {
        let r = rnd() * TOTAL;
        for (const m of MUTATIONS) {
            r -= m.weight;
            if (r < 0) {
                if (!exclude.has(m.name)) return m;
                break;
            }
        }
    }
}

/** Whether FILE is still something to mutate (a regular file). */
export const isMutable = (file: string): boolean => existsSync(file) && lstatSync(file).isFile();

type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/** Every path into a JSON value (the root is []), depth first. */
export function jsonPaths(v: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
    out.push(at);
    if (Array.isArray(v)) v.forEach((x, i) => jsonPaths(x, [...at, i], out));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) jsonPaths(x, [...at, k], out);
    return out;
}

const OTHER_JSON: readonly JsonValue[] = [null, true, false, 0, -1, 1.5, 2 ** 63, -(2 ** 53) - 7, '', 'x', '\u0000', '\ud800', 'é'.repeat(3), [], [null], {}, { a: null }, { $type: 'x' },
    'file:///etc/passwd', '../../../../etc/passwd', 'x'.repeat(100_000)];

/** A copy of V with the value at a random path replaced by one of another type (or deleted, or nested deeply). */
export function mutateJson(v: unknown, rnd: Rnd): { value: unknown; what: string } {
    const paths = jsonPaths(v);
    const path = pick(rnd, paths);
    const copy = structuredClone(v) as JsonValue;
    const r = rnd();
    const replacement: JsonValue = r < 0.1 ? deepJson(pick(rnd, [100, 3000])) : pick(rnd, OTHER_JSON);
    const what = `${r < 0.1 ? 'deep' : 'wrong-type'} at /${path.join('/')}`;
    if (path.length === 0) return { value: replacement, what };
    let parent = copy as Record<string | number, JsonValue>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, JsonValue>;
    const last = path[path.length - 1] as string | number;
    if (rnd() < 0.15 && !Array.isArray(parent)) {
        delete parent[last];
        return { value: copy, what: `delete /${path.join('/')}` };
    }
    parent[last] = replacement;
    return { value: copy, what };
}

function deepJson(n: number): JsonValue {
    let v: JsonValue = 1;
    for (let i = 0; i < n; i++) v = i % 2 === 0 ? [v] : { a: v };
    return v;
}
