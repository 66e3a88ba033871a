import type { IRecognitionException, IToken } from 'chevrotain';
import type { AstNode, LexerResult } from 'langium';
import type { Diagnostic } from '../common/index.js';
import type { Program } from '../../generated/langium/ast.js';
import { issueMessage, type ParseIssueCode } from './issues.js';
import { LineIndex, type PuppetLexer } from './lexer/puppet-lexer.js';
import { resolveSelectorTails } from './lowering/selector-tail.js';
import { allNodes } from './lowering/walk.js';
import { FastPuppetParser } from './services/fast-parser.js';
import { createPuppetServices, type PuppetServices } from './services/puppet-module.js';
import { checkProgram } from './validation/check-program.js';
import { compactCst, placeSpans } from './compact-cst.js';
import { locatingOperator } from './positions.js';
import { firstInvalidToken, syntaxError, syntaxErrorBefore, virtualBeforeError, type Probes } from './syntax-error.js';

export interface ParseOptions {
    /** Parse the text as an EPP template instead of a manifest. */
    readonly epp?: boolean;
    /** Run the validator (Puppet's checker) after a successful parse; default true. */
    readonly validate?: boolean;
    /**
     * `fast` (the default): the fast parser, and Langium's parser for input with errors;
     * `langium`: Langium's parser for everything (the reference, e.g. for benchmarks).
     */
    readonly engine?: 'fast' | 'langium';
    /**
     * Keep only each node's position in place of its CST (what evaluating the code reads), so the
     * tokens and the CST tree are not held as long as the AST is: for the compiler's manifests.
     */
    readonly compact?: boolean;
}

export interface ParseResult {
    readonly ast: Program;
    /** Errors first-come in source order; any error means Puppet would reject the file. */
    readonly diagnostics: Diagnostic[];
}

let services: PuppetServices | undefined;
/** The fast parser of the current services; null when it cannot be built for the grammar. */
let fast: FastPuppetParser | null | undefined;
/** How many parses the fast parser handed to Langium's parser (input with errors). */
let fallbacks = 0;

/** The number of parses so far that needed Langium's parser (for benchmarks and tests). */
export function parserFallbacks(): number {
    return fallbacks;
}

/** The Puppet language services, built once per process (parser construction is the costly part). */
export function puppetServices(): PuppetServices {
    services ??= createPuppetServices().Puppet;
    return services;
}

/**
 * How deep brackets may nest for the parser's error recovery to run: it resynchronizes at every
 * level of the rule stack it unwinds, at a cost growing with the square of the depth (800 open
 * brackets took 18 s; Langium's CST positions cost the same again without it). Code nested deeper
 * than this is left to the fast parser, which stops at the first syntax error (all that is
 * reported), also in the probes that place it.
 */
const RECOVERY_NESTING = 64;

/** The deepest nesting of brackets in the tokens. */
function deepestNesting(tokens: readonly IToken[]): number {
    let depth = 0;
    let deepest = 0;
    for (const t of tokens) {
        if (closesLevel(t.image) && depth > 0) depth--;
        if (opensLevel(t.image)) deepest = Math.max(deepest, ++depth);
    }
    return deepest;
}

function fastParser(svc: PuppetServices, lexer: PuppetLexer): FastPuppetParser | undefined {
    if (fast === undefined) {
        try {
            fast = new FastPuppetParser(lexer.definition, svc.Grammar, svc.shared.AstReflection, (offset, image, tokenType) => lexer.valueAt(offset, tokenType) ?? image);
        } catch {
            fast = null;
        }
    }
    return fast ?? undefined;
}

/**
 * How deep brackets may nest. Every stage after the parser recurses once per level or more, and
 * each level costs the recursive-descent parser a deep stack that the garbage collector scans
 * again and again: 20,000 levels take seconds, 100,000 over a minute. Puppet's own stack gives
 * out far earlier when such code is evaluated; the model formats stop at the same depth
 * (MODEL_TOO_DEEP).
 */
const MAX_NESTING = 10_000;
const OPENERS = new Set(['(', '[', '{', '${', '@(']);
const CLOSERS = new Set([')', ']']);
const PREFIX_OPERATORS = new Set(['-', '!', '*']);

/** Whether a token closes a level of brackets; a string's part (`}text${`) closes one interpolation and opens the next. */
const closesLevel = (image: string): boolean => CLOSERS.has(image) || image.startsWith('}');
const opensLevel = (image: string): boolean => OPENERS.has(image) || image.endsWith('${');

/** The offset of the first bracket nested beyond MAX_NESTING, found from the tokens alone (cheap: no parse). */
function nestingBeyondLimit(lexer: PuppetLexer, text: string): number | undefined {
    // Fewer brackets than the limit cannot nest beyond it: most input never lexes twice. (Counted
    // natively: a loop over every character was 1 % of a cold compile.)
    // Prefix operators nest as brackets do: `- - - 1` is three levels (100,000 took minutes).
    if (text.length <= MAX_NESTING || text.replace(/[^([{!*-]+/g, '').length <= MAX_NESTING) return undefined;
    let depth = 0;
    /** The prefix operators in a row before the current token. */
    let prefixes = 0;
    for (const t of lexer.tokenize(text).tokens) {
        if (PREFIX_OPERATORS.has(t.image)) {
            if (depth + ++prefixes > MAX_NESTING) return t.startOffset;
            continue;
        }
        prefixes = 0;
        if (closesLevel(t.image) && depth > 0) depth--;
        if (opensLevel(t.image) && ++depth > MAX_NESTING) return t.startOffset;
    }
    return undefined;
}

function tooDeeplyNested(file: string): ParseResult {
    const message = 'the input is nested too deeply';
    return { ast: emptyProgram(), diagnostics: [{ severity: 'error', code: 'PARSE_TOO_COMPLEX', message: issueMessage('PARSE_TOO_COMPLEX', message), file, at: { file, line: 1, column: 1 } }] };
}

function emptyProgram(): Program {
    return { $type: 'Program', epp: false, hasParams: false, params: [], statements: [], arm8: [] } as unknown as Program;
}

/**
 * The compiler's parse of clean code: the fast parser records each node's position instead of
 * building the CST that compactCst would reduce to the same positions (the CST is most of a
 * parse's allocation). Undefined, for the usual parse to answer, when there is anything to
 * report (the checks place their findings through the CST) or a rewrite needs the CST.
 */
function placedParse(quick: FastPuppetParser, text: string, lexed: LexerResult, lexer: PuppetLexer, options: ParseOptions): ParseResult | undefined {
    if (lexer.lastFindings().length > 0 || lexer.sawSelectorBrace) return undefined;
    const r = quick.parseTokens(text, lexed, { operatorOf: n => locatingOperator(n as AstNode) });
    if (r.errors.length > 0 || r.spans === undefined || r.value === undefined) return undefined;
    const program = r.value as Program;
    placeSpans(r.nodes, r.spans, text, new LineIndex(text));
    let clean = true;
    const report = Object.assign((): void => { clean = false; }, { other: (): void => { clean = false; } });
    try {
        checkProgram(program, report, options.validate !== false, r.nodes);
    } catch {
        // A check placing a finding may want more of the CST than positions: the usual parse reports it.
        return undefined;
    }
    return clean ? { ast: program, diagnostics: [] } : undefined;
}

/** Parses (and by default validates) one manifest or template. Never throws on any input. */
export function parsePuppet(text: string, file: string, options: ParseOptions = {}): ParseResult {
    const svc = puppetServices();
    const lexer = svc.parser.Lexer as PuppetLexer;
    lexer.eppMode = options.epp === true;
    let result: { value: Program; parserErrors: IRecognitionException[] } | undefined;
    /** The fast parser lists every node as it links them; the checks reuse that list. */
    let nodes: readonly AstNode[] | undefined;
    // The fast parser builds the same AST and CST as Langium's; input it cannot parse cleanly
    // (lexer or syntax errors) goes to Langium's parser for its error recovery and messages.
    const quick = options.engine === 'langium' ? undefined : fastParser(svc, lexer);
    const tooDeep = nestingBeyondLimit(lexer, text);
    if (tooDeep !== undefined) {
        const lines = new LineIndex(text);
        const line = lines.line(tooDeep);
        const message = `the input is nested more than ${MAX_NESTING} levels deep (a limit of modelc)`;
        return {
            ast: emptyProgram(), diagnostics: [{
                severity: 'error', code: 'PARSE_TOO_COMPLEX', message: issueMessage('PARSE_TOO_COMPLEX', message), file,
                at: { file, line: line + 1, column: tooDeep - lines.lineStart(line) + 1 }
            }]
        };
    }
    /** The text's tokens, and the fast parser's syntax errors when it went through them. */
    let lexed: LexerResult | undefined;
    let quickErrors: readonly IRecognitionException[] | undefined;
    if (quick) {
        try {
            lexed = lexer.tokenize(text);
            if (options.compact && lexed.errors.length === 0) {
                const placed = placedParse(quick, text, lexed, lexer, options);
                if (placed) return placed;
                // The checks may have parsed other text (a heredoc's `pp` checker does): the
                // lexer's state is this text's again.
                lexer.eppMode = options.epp === true;
                lexed = lexer.tokenize(text);
            }
            if (lexed.errors.length === 0) {
                const r = quick.parseTokens(text, lexed);
                if (r.errors.length === 0 && r.value !== undefined) {
                    result = { value: r.value as Program, parserErrors: [] };
                    nodes = r.nodes;
                } else {
                    fallbacks++;
                    quickErrors = r.errors;
                }
            }
        } catch {
            // Pathological nesting overflows the stack; the Langium path below reports it.
            fast = undefined;
        }
    }
    const deep = !result && lexed !== undefined && deepestNesting(lexed.tokens) > RECOVERY_NESTING;
    if (deep && lexed !== undefined) {
        // No partial AST (an editor gets none for such code); the lexer's findings stay those of the text.
        // Text that does not lex has its lexer error reported (placed by the probes below).
        // A fast parse that ran out of stack (a small one: the CLI's is large) leaves nothing to report but the depth.
        if (lexed.errors.length === 0 && quickErrors === undefined) return tooDeeplyNested(file);
        result = { value: emptyProgram(), parserErrors: [...(quickErrors ?? [])] };
    }
    if (!result) {
        try {
            result = svc.parser.LangiumParser.parse<Program>(text);
        } catch (e) {
            // Only pathological nesting gets here (the recursive-descent stack overflows); the
            // parser's internal state is then unusable, so the next call builds a fresh one.
            services = undefined;
            fast = undefined;
            // After an overflow Langium's parser can also fail with a TypeError on its broken
            // state; either way the cause is the nesting, never an internal text to show.
            void e;
            return tooDeeplyNested(file);
        }
    }
    if (lexer.sawSelectorBrace) {
        resolveSelectorTails(result.value);
        nodes = undefined;
    }
    const lines = new LineIndex(text);
    const diagnostics: Diagnostic[] = [];
    const at = (offset: number): { file: string; line: number; column: number } => {
        const line = lines.line(offset);
        return { file, line: line + 1, column: offset - lines.lineStart(line) + 1 };
    };
    for (const f of lexer.lastFindings()) {
        diagnostics.push({ severity: f.severity, code: f.code, message: issueMessage(f.code, ...f.args), file, at: at(f.offset) });
        // Puppet's lexer stops at its first error (unclosed strings nested 3,000 deep made 6,000).
        if (f.severity === 'error') break;
    }
    const findings = lexer.lastFindings();
    const lexError = findings.find(f => f.severity === 'error');
    // Puppet's parser stops at the first syntax error; what error recovery finds after it is
    // mostly an echo of the same typo, so only the first is reported. Puppet lexes as its parser
    // asks for tokens: a syntax error met before a lexer error is reported instead of it.
    const parserError = lexError ? undefined : syntaxError(result.parserErrors[0], text.length, lexer);
    const probes: Probes = {
        lexer,
        parse: deep && quick ? t => {
            const lexed = lexer.tokenize(t);
            if (lexed.errors.length > 0 || lexer.lastFindings().some(f => f.severity === 'error')) return undefined;
            try {
                return quick.parseTokens(t, lexed).errors;
            } catch {
                // Out of stack: this probe tells nothing.
                fast = undefined;
                return undefined;
            }
        } : t => {
            const r = svc.parser.LangiumParser.parse<Program>(t);
            return lexer.lastFindings().some(f => f.severity === 'error') ? undefined : r.parserErrors;
        }
    };
    const syntax = lexError ? syntaxErrorBefore(text, lexError.offset, probes)
        : parserError && !options.epp ? firstInvalidToken(text, parserError, probes) : parserError;
    if (syntax) {
        const virtual = options.epp ? undefined : virtualBeforeError(text, syntax.offset, lexer);
        const d: Diagnostic = virtual
            ? { severity: 'error', code: virtual.code, message: issueMessage(virtual.code), file, at: at(virtual.offset) }
            : { severity: 'error', code: 'PARSE_SYNTAX_ERROR', message: issueMessage('PARSE_SYNTAX_ERROR', syntax.where), file, at: at(syntax.offset) };
        const i = diagnostics.findIndex(x => x.severity === 'error');
        if (i < 0) diagnostics.push(d); else diagnostics.splice(i, 0, d);
        // The lexer never reached what follows the error: no warning of it.
        const stop = d.at!;
        for (let j = diagnostics.length - 1; j >= 0; j--) {
            const w = diagnostics[j];
            if (w.severity === 'warning' && w.at && (w.at.line > stop.line || (w.at.line === stop.line && w.at.column > stop.column))) diagnostics.splice(j, 1);
        }
    }
    if (!diagnostics.some(d => d.severity === 'error')) {
        const report = Object.assign((severity: 'error' | 'warning', code: ParseIssueCode, offset: number, ...args: string[]): void => {
            diagnostics.push({ severity, code, message: issueMessage(code, ...args), file, at: at(offset) });
        }, { other: (d: Diagnostic): void => { diagnostics.push(d); } });
        nodes ??= allNodes(result.value);
        checkProgram(result.value, report, options.validate !== false, nodes);
    }
    if (options.compact) compactCst(nodes ?? allNodes(result.value), text, lines);
    return { ast: result.value, diagnostics };
}
