import type { IRecognitionException, IToken } from 'chevrotain';
import type { PuppetLexer } from './lexer/puppet-lexer.js';

/**
 * How the probes parse: the syntax errors of a text (only the first counts), or undefined when
 * it does not lex; and the lexer they tokenize with.
 */
export interface Probes {
    readonly parse: (text: string) => readonly IRecognitionException[] | undefined;
    readonly lexer: PuppetLexer;
}

/** Where a syntax error is, worded as Puppet words it ("'x'" or "end of input"). */
export interface SyntaxErrorAt { readonly where: string; readonly offset: number }

/** A parser error as Puppet words it ("Syntax error at 'x'", "... at end of input") and its offset. */
export function syntaxError(e: IRecognitionException | undefined, length: number, lexer: PuppetLexer): SyntaxErrorAt | undefined {
    if (!e) return undefined;
    const tok = e.token;
    const eof = tok.tokenType?.name === 'EOF' || Number.isNaN(tok.startOffset);
    return eof ? { where: 'end of input', offset: length } : { where: `'${lexer.valueAt(tok.startOffset) ?? tok.image}'`, offset: tok.startOffset };
}

/** The closing brackets the tokens leave open, innermost first. */
function closersOf(tokens: readonly IToken[]): string {
    const closers: string[] = [];
    for (const t of tokens) {
        const c = t.image === '(' ? ')' : t.image === '[' ? ']' : t.image === '{' ? '}' : undefined;
        if (c) closers.push(c);
        else if ((t.image === ')' || t.image === ']' || t.image === '}') && closers.length > 0) closers.pop();
    }
    return closers.reverse().join(' ');
}

/**
 * Whether the tokens before a lexer error already hold a syntax error (Puppet's LR parser would
 * have met it first): the text up to the offending token, with a string in its place and the open
 * brackets closed, is parsed; a syntax error there before the offending token is the one reported.
 */
export function syntaxErrorBefore(text: string, lexOffset: number, { parse, lexer }: Probes): SyntaxErrorAt | undefined {
    // The text up to the end of the last whole token before the error.
    const before = lexer.tokenize(text).tokens.filter(t => t.endOffset !== undefined && t.endOffset < lexOffset);
    const lexes = (t: string): IToken[] | undefined => {
        const lexed = lexer.tokenize(t);
        return lexed.errors.length > 0 || lexer.lastFindings().some(f => f.severity === 'error') ? undefined : lexed.tokens;
    };
    // The token that caused the error may end before it (a heredoc whose end tag is missing): the
    // prefix stops before it then.
    let start = 0;
    let prefix = '';
    let tagEnd = '';
    let tokens: IToken[] | undefined;
    for (let k = before.length; k >= Math.max(0, before.length - 2) && !tokens; k--) {
        start = k > 0 ? (before[k - 1].endOffset as number) + 1 : 0;
        prefix = text.slice(0, start);
        // A template's prefix may stop inside a tag (`<%= $a text`): the probe closes it.
        tagEnd = lexer.eppMode && !lexes(prefix) ? ' %>' : '';
        tokens = lexes(prefix + tagEnd);
    }
    if (!tokens) return undefined;
    const probe = `${prefix}'' ${closersOf(tokens)}${tagEnd}`;
    const errors = parse(probe);
    if (!errors) return undefined;
    const found = syntaxError(errors[0], probe.length, lexer);
    return found && found.offset < start ? found : undefined;
}

/**
 * What may follow a prefix of valid code for some completion of it to parse: an operand, an
 * attribute's or hash entry's value, a title's colon, a body, a method name, a type alias, a case option.
 */
const CONTINUATIONS = ['', "''", "=> ''", ':', '{}', "'' {}", 'a', 'A = A', 'default: {}'];

/** The keywords that begin an ARM-8 form (the lexer makes them keywords only there). */
const ARM8_FORMS: ReadonlySet<string> = new Set(['site', 'bindings']);

/** How many tokens past the recursive-descent parser's error are tried at most. */
const MAX_ADVANCE = 40;

/**
 * Puppet's LR parser reports the first token no valid program can have there. The
 * recursive-descent parser decides loops and alternatives on a few tokens of lookahead and so
 * often fails earlier: at the start of an attribute whose `=>` is missing, of a hash entry with a
 * bad value. From its error on, each next token is kept while the code up to it, completed by
 * one of a few continuations and the open brackets closed, still parses past it; the first token
 * no completion gets past is the error Puppet reports. Never earlier than the parser's own.
 */
export function firstInvalidToken(text: string, found: SyntaxErrorAt, { parse, lexer }: Probes): SyntaxErrorAt {
    const lexed = lexer.tokenize(text);
    if (lexed.errors.length > 0 || lexer.lastFindings().some(f => f.severity === 'error')) return found;
    const tokens = lexed.tokens;
    // ARM-8's forms are modelc's own, not Puppet's grammar: their errors stay where the parser puts them.
    if (tokens.some(t => ARM8_FORMS.has(t.tokenType.name))) return found;
    const first = tokens.findIndex(t => t.startOffset === found.offset);
    if (first < 0) return found;
    const parsesPast = (end: number, tail: string): boolean => {
        const probe = `${text.slice(0, end)} ${tail}`;
        const errors = parse(probe);
        if (!errors) return false;
        const e = errors[0];
        return e === undefined || Number.isNaN(e.token.startOffset) || e.token.startOffset >= end;
    };
    const last = Math.min(tokens.length, first + MAX_ADVANCE);
    for (let i = first; i < last; i++) {
        const end = (tokens[i].endOffset as number) + 1;
        const closers = closersOf(tokens.slice(0, i + 1));
        if (!CONTINUATIONS.some(c => parsesPast(end, `${c} ${closers}`))) {
            return i === first ? found : { where: `'${lexer.valueAt(tokens[i].startOffset) ?? tokens[i].image}'`, offset: tokens[i].startOffset };
        }
    }
    // Every token can be continued: the code only stops too early.
    return last === tokens.length ? { where: 'end of input', offset: text.length } : found;
}

/**
 * `@name` (or `@@name`) right before a syntax error: Puppet's LR parser reduces the virtual (or
 * exported) form before it looks at the offending token, and that reduction itself fails because a
 * bare word is no resource. So that error is reported, at the `@` (a README's `root@host:~#`).
 */
export function virtualBeforeError(text: string, offset: number, lexer: PuppetLexer): { code: 'PARSE_VIRTUAL_NOT_RESOURCE' | 'PARSE_EXPORTED_NOT_RESOURCE'; offset: number } | undefined {
    const tokens = lexer.tokenize(text).tokens.filter(t => t.startOffset < offset);
    const at = tokens[tokens.length - 2];
    const word = tokens[tokens.length - 1];
    if (!at || !word || !['NAME', 'WORD', 'CLASSREF'].includes(word.tokenType.name)) return undefined;
    if (at.image === '@') return { code: 'PARSE_VIRTUAL_NOT_RESOURCE', offset: at.startOffset };
    if (at.image === '@@') return { code: 'PARSE_EXPORTED_NOT_RESOURCE', offset: at.startOffset };
    return undefined;
}
