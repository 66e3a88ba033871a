import { Classes, rubyError, type CallSite, type Method, type RValue } from '../objects.js';

/**
 * Ruby's `shellwords` library: Bourne-shell quoting plugin code uses (stdlib's `shell_join`,
 * `shell_escape`, `shell_split`, providers building command lines).
 */

/** Backslash before every character a shell would read specially; `''` for the empty word; a newline as `'\n'`. */
export function shellEscape(s: string): string {
    if (s === '') return "''";
    return s.replace(/[^A-Za-z0-9_\-.,:+/@\n]/gu, c => `\\${c}`).replace(/\n/g, "'\n'");
}

/**
 * Words as `sh` would split the line: runs of non-space, single quotes literal, double quotes
 * with `\` escaping only `$ \` " \ newline`, a bare `\` escaping the next character.
 */
export function shellSplit(line: string): string[] {
    const words: string[] = [];
    let field = '';
    let started = false;
    const token = /\s*(?:([^\s\\'"]+)|'([^']*)'|"((?:[^"\\]|\\[\s\S])*)"|(\\[\s\S]?)|(\S))(\s|$)?/gy;
    for (let m = token.exec(line); m !== null && m[0] !== ''; m = token.exec(line)) {
        const [, word, sq, dq, esc, garbage, sep] = m;
        if (garbage !== undefined) throw rubyError('ArgumentError', `Unmatched quote: ${rubyInspect(line)}`);
        field += word ?? sq ?? (dq !== undefined ? dq.replace(/\\([$`"\\\n])/g, '$1') : esc!.replace(/\\([\s\S])/, '$1'));
        started = true;
        if (sep !== undefined) { words.push(field); field = ''; started = false; }
    }
    if (started) words.push(field);
    return words;
}

function rubyInspect(s: string): string {
    return `"${s.replace(/[\\"]/g, c => `\\${c}`).replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

const text = (v: RValue | undefined, call: CallSite): string => (typeof v === 'string' ? v : call.toS(v ?? null));

function joinWords(v: RValue | undefined, call: CallSite): string {
    if (!Array.isArray(v)) throw rubyError('NoMethodError', `undefined method \`map' for ${call.toS(v ?? null)}`);
    return v.map(x => shellEscape(text(x, call))).join(' ');
}

/** The `Shellwords` module (long and short names), `String#shellescape`/`#shellsplit`, `Array#shelljoin`. */
export function installShellwords(): void {
    const escape: Method = (_s, args, _b, call) => shellEscape(text(args[0], call));
    const split: Method = (_s, args, _b, call) => {
        if (typeof args[0] !== 'string') throw rubyError('NoMethodError', `undefined method \`scan' for ${call.toS(args[0] ?? null)}`);
        return shellSplit(args[0]);
    };
    const join: Method = (_s, args, _b, call) => joinWords(args[0], call);
    const m = Classes.Shellwords;
    for (const n of ['shellescape', 'escape']) m.defineStatic(n, escape);
    for (const n of ['shellsplit', 'shellwords', 'split']) m.defineStatic(n, split);
    for (const n of ['shelljoin', 'join']) m.defineStatic(n, join);
    Classes.String.define('shellescape', self => shellEscape(self as string));
    Classes.String.define(['shellsplit', 'shellwords'], self => shellSplit(self as string));
    Classes.Array.define('shelljoin', (self, _args, _b, call) => joinWords(self, call));
}
