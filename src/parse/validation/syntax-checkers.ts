/**
 * Puppet's heredoc syntax checkers (`@(END:json)`): the text a heredoc produces is checked by the
 * checker registered for its syntax, the most specific `+` segment first (`data+json` is
 * checked as `json`). `pp` and `epp` text is parsed (and validated) as a manifest or a template,
 * and the first error reported as Puppet's parser words it for a text without a file.
 *
 * The JSON checker reports what Ruby's json 2.6 parser (the one Puppet 7 runs on) reports: that
 * parser is a set of state machines (document, value, array, object, string, number), and its
 * message names the source line of the machine that gave up and the text from where it stopped.
 * Objects and values give up silently and leave the report to the array or document around them.
 */

import type { Diagnostic } from '../../common/index.js';
import { parsePuppet } from '../parse.js';

export interface SyntaxProblem {
    /** The checker that refused the text (Puppet's issue ILLEGAL_JSON, ILLEGAL_BASE64, ILLEGAL_PP or ILLEGAL_EPP). */
    readonly checker: Checker;
    readonly message: string;
    /**
     * The checker refused the syntax name itself (Puppet's PP and EPP checkers take only `pp` and
     * `epp`, not `x+pp`): an ArgumentError with no location that ends the parse, or the evaluation.
     */
    readonly refused?: boolean;
}

/** Puppet's check of `text` produced with heredoc `syntax`; undefined when it passes (or no checker applies). */
export function externalSyntaxError(syntax: string, text: string): SyntaxProblem | undefined {
    const segments = syntax.split('+');
    for (let i = 0; i < segments.length; i++) {
        const checker = segments.slice(i).join('+');
        if (!isChecker(checker)) continue;
        if ((checker === 'pp' || checker === 'epp') && syntax !== checker) {
            return { checker, refused: true, message: `${checker.toUpperCase()} syntax checker: the syntax identifier must be a String, e.g. pp` };
        }
        const detail = CHECKS[checker](text);
        return detail === undefined ? undefined : { checker, message: `Invalid produced text having syntax: '${syntax}'. ${detail}` };
    }
    return undefined;
}

/**
 * The warnings Puppet's PP and EPP checkers log while they parse a heredoc's text (an unknown
 * escape in a string of it), placed by line within that text, which has no file.
 */
export function externalSyntaxWarnings(syntax: string, text: string): Diagnostic[] {
    if (syntax !== 'pp' && syntax !== 'epp') return [];
    // Those before an error too: the parse logs them before it fails.
    return parsePuppet(text, '', { epp: syntax === 'epp' }).diagnostics.filter(d => d.severity === 'warning').map(d => ({ ...d, file: '', ...(d.at ? { at: { ...d.at, file: '' } } : {}) }));
}

type Checker = 'json' | 'base64' | 'pp' | 'epp';

const CHECKS: Record<Checker, (text: string) => string | undefined> = {
    json: jsonProblem,
    base64: base64Problem,
    pp: text => puppetProblem(text, false),
    epp: text => puppetProblem(text, true)
};

function isChecker(name: string): name is Checker {
    return Object.hasOwn(CHECKS, name);
}

/**
 * The PP and EPP checkers: the text parsed and validated on its own; Puppet's message of the
 * first error, placed by line and column within the text (nothing at its end), cut to 500
 * characters on one line.
 */
function puppetProblem(text: string, epp: boolean): string | undefined {
    const error = parsePuppet(text, '', { epp }).diagnostics.find(d => d.severity === 'error');
    if (!error) return undefined;
    const at = error.at && !(error.code === 'PARSE_SYNTAX_ERROR' && /end of input/.test(error.message)) ? ` (line: ${error.at.line}, column: ${error.at.column})` : '';
    const message = [...`${error.message}${at}`].slice(0, 500).join('').replace(/\r?\n/g, '\\n');
    return `${epp ? 'EPP' : 'PP'} syntax checker: "${message}"`;
}

function jsonProblem(text: string): string | undefined {
    const message = rubyJsonError(text);
    if (message === undefined) return undefined;
    // Puppet keeps the first 100 characters of the parser's message, on one line.
    const short = [...message].slice(0, 100).join('').replace(/\r?\n/g, '\\n');
    return `JSON syntax checker: Cannot parse invalid JSON string. "${short}"`;
}

function base64Problem(text: string): string | undefined {
    // Ruby's character class [\r?\n[:blank:]] also drops question marks.
    const cleaned = text.replace(/[\r?\n \t]/g, '');
    if (strictBase64(cleaned)) return undefined;
    return (Buffer.byteLength(cleaned, 'utf8') * 8) % 6 !== 0
        ? 'Base64 syntax checker: Cannot parse invalid Base64 string - padding is not correct'
        : 'Base64 syntax checker: Cannot parse invalid Base64 string - contains letters outside strict base 64 range (or whitespace)';
}

/** Ruby's Base64.strict_decode64 accepts the text: whole quads, padding only at the end, unused bits zero. */
function strictBase64(s: string): boolean {
    if (s.length % 4 !== 0) return false;
    if (!/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return false;
    const digit = (c: string): number => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(c);
    if (s.endsWith('==')) return (digit(s[s.length - 3]) & 0xf) === 0;
    if (s.endsWith('=')) return (digit(s[s.length - 2]) & 0x3) === 0;
    return true;
}

/** A failure the json parser raises at once (arrays, NaN/Infinity, surrogates, nesting). */
class Raised {
    readonly message: string;
    constructor(message: string) {
        this.message = message;
    }
}

const MAX_NESTING = 100;

/** Ruby's JSON.parse error message for `text` (json 2.6.1), or undefined when it parses. */
export function rubyJsonError(text: string): string | undefined {
    const s = [...text];
    const at = (line: number, p: number): string => `${line}: unexpected token at '${p < 0 ? '' : s.slice(p).join('')}'`;
    try {
        let p = skipIgnored(s, 0);
        if (p < 0) return at(859, -p - 1);
        if (p >= s.length || !BEGIN_VALUE.test(s[p])) return at(859, p);
        const end = parseValue(s, p, 0);
        if (end === undefined) return at(859, p);
        p = skipIgnored(s, end);
        if (p < 0) return at(859, -p - 1);
        return p === s.length ? undefined : at(859, p);
    } catch (e) {
        if (e instanceof Raised) return e.message;
        throw e;
    }

    function parseValue(cs: string[], p: number, depth: number): number | undefined {
        const c = cs[p];
        const word = (w: string): number | undefined => cs.slice(p, p + w.length).join('') === w ? p + w.length : undefined;
        switch (c) {
            case 'n': return word('null');
            case 't': return word('true');
            case 'f': return word('false');
            case 'N':
                if (word('NaN') !== undefined) throw new Raised(at(225, p));
                return undefined;
            case 'I':
                // The parser reports from one character before the word (nothing at the start of the text).
                if (word('Infinity') !== undefined) throw new Raised(at(232, p - 1));
                return undefined;
            case '"': return parseString(cs, p);
            case '[': return parseArray(cs, p, depth + 1);
            case '{': return parseObject(cs, p, depth + 1);
            default:
                if (c === '-' && cs.slice(p, p + 9).join('') === '-Infinity') throw new Raised(at(249, p));
                return parseNumber(cs, p);
        }
    }

    function parseArray(cs: string[], start: number, depth: number): number {
        if (depth > MAX_NESTING) throw new Raised(`nesting of ${depth} is too deep`);
        const fail = (p: number): never => { throw new Raised(at(451, p)); };
        let p = ignoredOrFail(cs, start + 1, fail);
        if (cs[p] === ']') return p + 1;
        for (;;) {
            if (p >= cs.length || !BEGIN_VALUE.test(cs[p])) fail(p);
            const end = parseValue(cs, p, depth);
            if (end === undefined) fail(p);
            p = ignoredOrFail(cs, end as number, fail);
            if (cs[p] === ']') return p + 1;
            if (cs[p] !== ',') fail(p);
            p = ignoredOrFail(cs, p + 1, fail);
        }
    }

    function parseObject(cs: string[], start: number, depth: number): number | undefined {
        if (depth > MAX_NESTING) throw new Raised(`nesting of ${depth} is too deep`);
        let p = skipIgnored(cs, start + 1);
        if (p < 0) return undefined;
        if (cs[p] === '}') return p + 1;
        for (;;) {
            if (cs[p] !== '"') return undefined;
            const nameEnd = parseString(cs, p);
            if (nameEnd === undefined) return undefined;
            p = skipIgnored(cs, nameEnd);
            if (p < 0 || cs[p] !== ':') return undefined;
            p = skipIgnored(cs, p + 1);
            if (p < 0 || p >= cs.length || !BEGIN_VALUE.test(cs[p])) return undefined;
            const end = parseValue(cs, p, depth);
            if (end === undefined) return undefined;
            p = skipIgnored(cs, end);
            if (p < 0) return undefined;
            if (cs[p] === '}') return p + 1;
            if (cs[p] !== ',') return undefined;
            p = skipIgnored(cs, p + 1);
            if (p < 0) return undefined;
        }
    }

    function ignoredOrFail(cs: string[], p: number, fail: (p: number) => never): number {
        const q = skipIgnored(cs, p);
        return q < 0 ? fail(-q - 1) : q;
    }
}

/** The characters a value may start with (the parser's begin_value). */
const BEGIN_VALUE = /^[nft"\-[{NI0-9]$/;

/**
 * Skips blanks and comments from `p`: the position after them, or -(position + 1) where a
 * comment is malformed (`/x`) or unterminated (the end of the text).
 */
function skipIgnored(cs: string[], p: number): number {
    for (;;) {
        const c = cs[p];
        if (c === ' ' || c === '\t' || c === '\r' || c === '\n') { p++; continue; }
        if (c !== '/') return p;
        const next = cs[p + 1];
        if (next === '*') {
            let q = p + 2;
            while (q < cs.length && !(cs[q] === '*' && cs[q + 1] === '/')) q++;
            if (q >= cs.length) return -(cs.length + 1);
            p = q + 2;
        } else if (next === '/') {
            let q = p + 2;
            while (q < cs.length && cs[q] !== '\n') q++;
            if (q >= cs.length) return -(cs.length + 1);
            p = q + 1;
        } else {
            return -(Math.min(p + 1, cs.length) + 1);
        }
    }
}

/**
 * A string: raw control characters refused, `\u` followed by four hex digits, any other
 * character may be escaped. A high surrogate escape needs six more bytes before the closing quote.
 */
function parseString(cs: string[], start: number): number | undefined {
    let p = start + 1;
    const escapes: number[] = [];
    for (;;) {
        const c = cs[p];
        if (c === undefined) return undefined;
        if (c === '"') break;
        if (c.codePointAt(0)! < 0x20) return undefined;
        if (c === '\\') {
            const e = cs[p + 1];
            if (e === undefined || e.codePointAt(0)! < 0x20) return undefined;
            if (e === 'u') {
                if (!/^[0-9a-fA-F]{4}$/.test(cs.slice(p + 2, p + 6).join(''))) return undefined;
                escapes.push(p);
                p += 6;
                continue;
            }
            p += 2;
            continue;
        }
        p++;
    }
    for (const e of escapes) {
        const unit = parseInt(cs.slice(e + 2, e + 6).join(''), 16);
        // The parser wants room for a low surrogate escape (six bytes) before the closing quote.
        if ((unit & 0xfc00) === 0xd800 && Buffer.byteLength(cs.slice(e + 6, p).join(''), 'utf8') < 6) {
            throw new Raised(`521: incomplete surrogate pair at '${cs.slice(e).join('')}'`);
        }
    }
    return p + 1;
}

/** A float (fraction or exponent, not followed by a digit, `E`, `e`, `.` or `-`), else an integer (not followed by a digit). */
function parseNumber(cs: string[], p: number): number | undefined {
    const rest = cs.slice(p, p + 400).join('');
    const float = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[Ee][+-]?[0-9]+)?|[Ee][+-]?[0-9]+)/.exec(rest);
    if (float && !/^[0-9Ee.-]/.test(rest.slice(float[0].length))) return p + float[0].length;
    const int = /^-?(?:0|[1-9][0-9]*)/.exec(rest);
    if (int && !/^[0-9]/.test(rest.slice(int[0].length))) return p + int[0].length;
    return undefined;
}
