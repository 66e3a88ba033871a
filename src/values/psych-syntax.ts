import yamlJs from 'yaml-js';

/**
 * A YAML syntax error as Ruby's Psych reports it (libyaml's scanner and parser): the problem, the
 * context it arose in, and the position Psych prints (libyaml's context mark, 1-based; a problem
 * without context keeps the zeroed mark: line 1 column 1 for parser errors).
 */
export type PsychSyntaxError =
    { readonly text: string; readonly line: number; readonly column: number };

interface Mark { readonly line: number; readonly column: number; readonly pointer?: number }
interface YamlJsError { context?: string | null; context_mark?: Mark | null; problem?: string; problem_mark?: Mark | null }
interface YamlJsToken { readonly plain?: boolean; readonly start_mark: Mark; readonly end_mark: Mark }

/** yaml-js's event and token classes, by the names its modules export them under. */
const YAML_CLASSES = new Map<unknown, string>([...Object.entries(yamlJs.events), ...Object.entries(yamlJs.tokens)].map(([name, c]) => [c, name]));

/**
 * The class of a yaml-js event or token (`ScalarEvent`, `BlockEndToken`, ...): told by the class
 * itself, not by its `name`, which a bundler may drop (yaml-js assigns anonymous-looking class
 * expressions to its exports).
 */
export function yamlClass(x: unknown): string | undefined {
    return typeof x === 'object' && x !== null ? YAML_CLASSES.get(x.constructor) : undefined;
}

/**
 * PyYAML (which yaml-js ports) follows libyaml's algorithm with its own words; each rule rewrites
 * one of its problems (with its context) into libyaml's. `mark` says which mark Psych prints.
 */
const RULES: readonly { readonly context: RegExp | null; readonly problem: RegExp; readonly text: (m: RegExpMatchArray, ctx: string) => string; readonly mark: 'context' | 'problem' | 'zero' }[] = [
    { context: /^while parsing a flow sequence$/, problem: /^expected ',' or '\]'/, text: (_, c) => `did not find expected ',' or ']' ${c}`, mark: 'context' },
    { context: /^while parsing a flow mapping$/, problem: /^expected ',' or '\}'/, text: (_, c) => `did not find expected ',' or '}' ${c}`, mark: 'context' },
    { context: /^while parsing a block mapping$/, problem: /^expected <block end>/, text: (_, c) => `did not find expected key ${c}`, mark: 'context' },
    { context: /^while parsing a block collection$/, problem: /^expected <block end>/, text: (_, c) => `did not find expected '-' indicator ${c}`, mark: 'context' },
    { context: /^while parsing a (block|flow) node$/, problem: /^expected the node content/, text: (_, c) => `did not find expected node content ${c}`, mark: 'context' },
    { context: /^while parsing a node$/, problem: /^found undefined tag handle/, text: (_, c) => `found undefined tag handle ${c}`, mark: 'context' },
    { context: /^expected '<document start>'/, problem: /.*/, text: () => 'did not find expected <document start>', mark: 'zero' },
    { context: null, problem: /^found duplicate YAML directive/, text: () => 'found duplicate %YAML directive', mark: 'zero' },
    { context: null, problem: /^found incompatible YAML document/, text: () => 'found incompatible YAML document', mark: 'zero' },
    { context: null, problem: /^duplicate tag handle/, text: () => 'found duplicate %TAG directive', mark: 'zero' },
    { context: null, problem: /^mapping values are not allowed here/, text: () => 'mapping values are not allowed in this context', mark: 'problem' },
    { context: null, problem: /^sequence entries are not allowed here/, text: () => 'block sequence entries are not allowed in this context', mark: 'problem' },
    { context: null, problem: /^mapping keys are not allowed here/, text: () => 'mapping keys are not allowed in this context', mark: 'problem' },
    { context: /^while scanning a simple key$/, problem: /^could not find expected ':'/, text: (_, c) => `could not find expected ':' ${c}`, mark: 'context' },
    { context: /^while scanning for the next token$/, problem: /^found character .* that cannot start any token/, text: (_, c) => `found character that cannot start any token ${c}`, mark: 'problem' },
    { context: /^while scanning a quoted scalar$/, problem: /^found unexpected end of stream/, text: (_, c) => `found unexpected end of stream ${c}`, mark: 'context' },
    { context: /^while scanning a quoted scalar$/, problem: /^found unexpected document separator/, text: (_, c) => `found unexpected document indicator ${c}`, mark: 'context' },
    { context: /^while scanning a double-quoted scalar$/, problem: /^found unknown escape character/, text: () => 'found unknown escape character while parsing a quoted scalar', mark: 'context' },
    { context: /^while scanning a double-quoted scalar$/, problem: /^expected escape sequence/, text: () => 'did not find expected hexdecimal number while parsing a quoted scalar', mark: 'context' },
    { context: /^while scanning an (anchor|alias)$/, problem: /^expected alphabetic or numeric character/, text: (_, c) => `did not find expected alphabetic or numeric character ${c}`, mark: 'context' },
    { context: /^while scanning a plain scalar$/, problem: /^found unexpected ':'/, text: (_, c) => `found unexpected ':' ${c}`, mark: 'context' },
    { context: /^while scanning a tag$/, problem: /^expected ' ' but found/, text: (_, c) => `did not find expected whitespace or line break ${c}`, mark: 'context' },
    { context: /^while scanning a block scalar$/, problem: /^expected indentation indicator in the range 1-9/, text: (_, c) => `found an indentation indicator equal to 0 ${c}`, mark: 'context' },
    { context: /^while scanning a block scalar$/, problem: /^expected (a comment or a line break|chomping or indentation indicators)/, text: (_, c) => `did not find expected comment or line break ${c}`, mark: 'context' }
];

/** A libyaml parse event as PyYAML's port (yaml-js) produces it: what Psych's TreeBuilder receives. */
export interface YamlEvent {
    readonly anchor?: string | null;
    readonly tag?: string | null;
    /** Scalars: [plain implicit, quoted implicit]; collections: whether the tag was implicit. */
    readonly implicit?: readonly [boolean, boolean] | boolean;
    readonly value?: string;
    readonly style?: string | null;
    readonly start_mark: Mark;
}

/**
 * The events of the first document of `text` (Psych reads no further), or the syntax error
 * Psych reports for it: libyaml's words where PyYAML's port shares the reason, otherwise
 * yaml-js's own problem and context.
 */
export function yamlEvents(text: string): YamlEvent[] | PsychSyntaxError {
    const directive = directiveError(text);
    if (directive) return directive;
    const deep = flowNestingBeyondLimit(text) ?? blockNestingBeyondLimit(text);
    if (deep) return deep;
    let loader: ReturnType<typeof newLoader>;
    try {
        loader = newLoader(text);
    } catch (e) {
        // yaml-js's reader refuses what libyaml calls control characters; Psych reports a reader error at the
        // parser's context mark, which nothing has moved yet: line 1 column 1, wherever the character is.
        if ((e as object | undefined)?.constructor?.name !== 'ReaderError') throw e;
        return { text: 'control characters are not allowed', line: 1, column: 1 };
    }
    const take = loader.get_token.bind(loader);
    let taken: unknown;
    loader.get_token = () => {
        const t = take();
        if (t !== undefined && !isBlockEnd(t)) taken = t;
        return t;
    };
    const events: YamlEvent[] = [];
    try {
        while (loader.check_event()) {
            const event = loader.get_event() as YamlEvent | undefined;
            if (event === undefined) break;
            events.push(event);
            if (yamlClass(event) === 'DocumentEndEvent') break;
        }
    } catch (e) {
        if (!(e instanceof Error) || !('problem' in e)) throw e;
        // The scanner closes indentation levels before it fails: the scalar is the last other token.
        const queued = (loader.tokens ?? []).filter(t => !isBlockEnd(t));
        const err = e as YamlJsError;
        const mapped = fromError(err, (queued.length > 0 ? queued[queued.length - 1] : taken) as YamlJsToken | undefined, text);
        if (mapped) return mapped;
        const mark = err.problem_mark ?? err.context_mark ?? { line: 0, column: 0 };
        return syntax(`${err.problem ?? 'syntax error'}${err.context ? ` ${err.context}` : ''}`, mark);
    }
    return events;
}

/**
 * How deep flow collections (`[`, `{`) may nest: yaml-js's scanner keeps a possible simple key
 * per level and walks them all at every token, so 20,000 levels took 40 s. Counted over the
 * characters (quotes and comments included: data never holds a thousand open brackets in a row).
 */
const MAX_FLOW_NESTING = 1000;

function flowNestingBeyondLimit(text: string): PsychSyntaxError | undefined {
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5b || c === 0x7b) {
            if (++depth > MAX_FLOW_NESTING) {
                const before = text.slice(0, i).split('\n');
                return { text: `flow collections nested more than ${MAX_FLOW_NESTING} levels deep (a limit of modelc)`, line: before.length, column: before[before.length - 1].length + 1 };
            }
        } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
    }
    return undefined;
}

/**
 * How deep block collections (indented mappings and sequences, `- - x`) may nest: Psych itself
 * overflows Ruby's stack near 1,000 levels (SystemStackError), and yaml-js's indentation stack
 * made 20,000 levels (a 200 MB file of spaces) run for minutes and fail inside Node. Counted from
 * the indentation of each line, a stack of columns as libyaml keeps it: a block scalar's text,
 * indented alike line after line, adds one level at most.
 */
const MAX_BLOCK_NESTING = 1000;

function blockNestingBeyondLimit(text: string): PsychSyntaxError | undefined {
    const columns: number[] = [];
    let line = 0;
    for (let start = 0; start < text.length; line++) {
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        let col = start;
        while (col < end && text.charCodeAt(col) === 0x20) col++;
        if (col < end && text[col] !== '#' && text[col] !== '\r') {
            const indent = col - start;
            while (columns.length > 0 && (columns[columns.length - 1] as number) >= indent) columns.pop();
            columns.push(indent);
            // Compact sequences nest on one line: `- - - x`.
            let inline = 0;
            while (col + 1 < end && text[col] === '-' && text[col + 1] === ' ') {
                inline++;
                col += 2;
                while (col < end && text.charCodeAt(col) === 0x20) col++;
            }
            if (columns.length + Math.max(0, inline - 1) > MAX_BLOCK_NESTING) {
                return { text: `block collections nested more than ${MAX_BLOCK_NESTING} levels deep (a limit of modelc)`, line: line + 1, column: indent + 1 };
            }
        }
        start = end + 1;
    }
    return undefined;
}

/**
 * What Psych reports for YAML that does not parse, when the reason is one libyaml shares with
 * PyYAML's port (yaml-js); undefined when yaml-js accepts the text.
 */
export function psychSyntaxError(text: string): PsychSyntaxError | undefined {
    const r = yamlEvents(text);
    return Array.isArray(r) ? undefined : r;
}

/**
 * libyaml knows only the %YAML and %TAG directives and refuses a second %YAML, where PyYAML
 * ignores unknown ones: the directives before the first document are checked here.
 */
function directiveError(text: string): PsychSyntaxError | undefined {
    if (!/^%/m.test(text)) return undefined;
    let yamlSeen = false;
    for (const [i, line] of text.split(/\r?\n/).entries()) {
        if (line.trim() === '' || line.startsWith('#')) continue;
        const m = /^%(\S*)/.exec(line);
        if (!m) return undefined;
        if (m[1] === 'YAML') {
            if (yamlSeen) return syntax('found duplicate %YAML directive', { line: 0, column: 0 });
            yamlSeen = true;
        } else if (m[1] !== 'TAG') {
            return syntax('found unknown directive name while scanning a directive', { line: i, column: 0 });
        }
    }
    return undefined;
}

function newLoader(text: string): InstanceType<typeof yamlJs.loader.Loader> {
    const loader = new yamlJs.loader.Loader(text);
    const scanner = loader as unknown as ScannerInternals;
    scanner.scan_plain = () => scanPlain(scanner);
    scanner.scan_block_scalar = (style: string) => scanBlockScalar(scanner, style);
    scanner.scan_to_next_token = () => scanToNextToken(scanner);
    const scanTag = scanner.scan_tag.bind(scanner);
    scanner.scan_tag = () => scanTagAllowingComma(scanner, scanTag);
    return loader;
}

/** The parts of yaml-js's scanner (PyYAML's, in JavaScript) the libyaml 0.2.5 rules below use. */
interface ScannerInternals {
    flow_level: number;
    indent: number;
    allow_simple_key: boolean;
    peek(n?: number): string;
    prefix(n: number): string;
    forward(n?: number): void;
    get_mark(): Mark;
    scan_plain_spaces(indent: number, start: Mark): string[] | undefined;
    scan_plain: () => unknown;
    scan_block_scalar: (style: string) => unknown;
    scan_block_scalar_indicators(start: Mark): [boolean | null, number | null];
    scan_block_scalar_ignored_line(start: Mark): void;
    scan_block_scalar_indentation(): [string[], number, Mark];
    scan_block_scalar_breaks(indent: number): [string[], Mark];
    scan_tag: () => unknown;
    scan_to_next_token: () => unknown;
    scan_line_break(): string;
    column: number;
}

const BLANKZ = '\r\n\x85\u2028\u2029\t \x00';

/**
 * A plain scalar as libyaml 0.2.5 (what Ruby's Psych links) scans it, where PyYAML differs in
 * flow context: a ':' not followed by a blank stays in the scalar (`[1:30]`, `{a: http://x}`),
 * a ':' followed by a flow indicator is an error, and '?' does not end the scalar.
 */
function scanPlain(sc: ScannerInternals): unknown {
    const chunks: string[] = [];
    const start = sc.get_mark();
    let end = start;
    const indent = sc.indent + 1;
    let spaces: string[] = [];
    for (;;) {
        let length = 0;
        if (sc.peek() === '#') break;
        for (;;) {
            const ch = sc.peek(length);
            if (BLANKZ.includes(ch)) break;
            const next = sc.peek(length + 1);
            if (sc.flow_level !== 0 && ch === ':' && ',?[]{}'.includes(next) && next !== '') {
                sc.forward(length);
                throw Object.assign(new Error('found unexpected \':\''), { context: 'while scanning a plain scalar', context_mark: start, problem: 'found unexpected \':\'', problem_mark: sc.get_mark() });
            }
            if ((ch === ':' && BLANKZ.includes(next)) || (sc.flow_level !== 0 && ',[]{}'.includes(ch))) break;
            length++;
        }
        if (length === 0) break;
        sc.allow_simple_key = false;
        chunks.push(...spaces, sc.prefix(length));
        sc.forward(length);
        end = sc.get_mark();
        spaces = sc.scan_plain_spaces(indent, start) ?? [];
        if (spaces.length === 0 || sc.peek() === '#' || (sc.flow_level === 0 && sc.column < indent)) break;
    }
    return new yamlJs.tokens.ScalarToken(chunks.join(''), true, start, end);
}

const LINE_END = '\r\n\x85\u2028\u2029\x00';

/**
 * A literal (`|`) or folded (`>`) block scalar, by the rules yaml-js follows, with its lines
 * gathered in one growing array: yaml-js copies everything gathered so far at every line, so a
 * 20,000-line literal (a certificate bundle, a script) took seconds and 100,000 lines minutes.
 */
function scanBlockScalar(sc: ScannerInternals, style: string): unknown {
    const start = sc.get_mark();
    sc.forward();
    const [chomping, increment] = sc.scan_block_scalar_indicators(start);
    sc.scan_block_scalar_ignored_line(start);
    const least = Math.max(1, sc.indent + 1);
    let indent: number;
    let breaks: string[];
    let end: Mark;
    if (increment === null) {
        let deepest: number;
        [breaks, deepest, end] = sc.scan_block_scalar_indentation();
        indent = Math.max(least, deepest);
    } else {
        indent = least + increment - 1;
        [breaks, end] = sc.scan_block_scalar_breaks(indent);
    }
    const chunks: string[] = [];
    let lineBreak = '';
    while (sc.column === indent && sc.peek() !== '\x00') {
        for (const b of breaks) chunks.push(b);
        // A folded line joins the next with a space only when neither starts with a blank.
        const startsText = !' \t'.includes(sc.peek());
        let length = 0;
        while (!LINE_END.includes(sc.peek(length))) length++;
        chunks.push(sc.prefix(length));
        sc.forward(length);
        lineBreak = sc.scan_line_break();
        [breaks, end] = sc.scan_block_scalar_breaks(indent);
        if (sc.column !== indent || sc.peek() === '\x00') break;
        if (style === '>' && lineBreak === '\n' && startsText && !' \t'.includes(sc.peek())) {
            if (breaks.length === 0) chunks.push(' ');
        } else chunks.push(lineBreak);
    }
    // Chomping: `-` strips the final line break, `+` keeps the trailing blank lines too.
    if (chomping !== false) chunks.push(lineBreak);
    if (chomping === true) for (const b of breaks) chunks.push(b);
    return new yamlJs.tokens.ScalarToken(chunks.join(''), false, start, end, style);
}

/**
 * libyaml 0.2.5's yaml_parser_scan_to_next_token: besides spaces, tabs are skipped in flow
 * context and where no simple key may start (after a key's ':', `k:\tv`); PyYAML skips spaces only.
 */
function scanToNextToken(sc: ScannerInternals): void {
    for (;;) {
        if (sc.column === 0 && sc.peek() === '\uFEFF') sc.forward();
        while (sc.peek() === ' ' || ((sc.flow_level !== 0 || !sc.allow_simple_key) && sc.peek() === '\t')) sc.forward();
        if (sc.peek() === '#') while (!'\r\n\x85\u2028\u2029\x00'.includes(sc.peek())) sc.forward();
        if (sc.scan_line_break() === '') break;
        if (sc.flow_level === 0) sc.allow_simple_key = true;
    }
}

/** libyaml 0.2.5 lets a ',' end a tag in flow context (`[!!str, 1]`); PyYAML wants a blank. */
function scanTagAllowingComma(sc: ScannerInternals, original: () => unknown): unknown {
    if (sc.flow_level === 0) return original();
    // Scan the tag as if the comma were a blank, then put the comma back.
    let end = 0;
    while (!BLANKZ.includes(sc.peek(end)) && !',[]{}'.includes(sc.peek(end))) end++;
    if (sc.peek(end) !== ',') return original();
    const reader = sc as unknown as { string: string; index: number };
    const at = reader.index + end;
    const saved = reader.string;
    reader.string = `${saved.slice(0, at)} ${saved.slice(at + 1)}`;
    try {
        return original();
    } finally {
        reader.string = saved;
    }
}

function isBlockEnd(t: unknown): boolean {
    return yamlClass(t) === 'BlockEndToken';
}

function fromError(e: YamlJsError, last: YamlJsToken | undefined, text: string): PsychSyntaxError | undefined {
    const problem = e.problem ?? '';
    const context = e.context ?? null;
    // libyaml ends a plain scalar at a tab indenting the next line ("violates indentation"), where
    // PyYAML ends the scalar first and then finds no token starting with the tab.
    if (/^found character \t that cannot start any token/.test(problem) && yamlClass(last) === 'ScalarToken' && last?.plain === true
        && e.problem_mark && last.end_mark.line < e.problem_mark.line && !text.slice(last.end_mark.pointer, e.problem_mark.pointer).includes('#')) {
        return syntax('found a tab character that violates indentation while scanning a plain scalar', last.start_mark);
    }
    for (const rule of RULES) {
        if (rule.context === null ? context !== null : context === null || !rule.context.test(context)) continue;
        const m = rule.problem.exec(problem);
        if (!m) continue;
        const mark = rule.mark === 'zero' ? { line: 0, column: 0 } : rule.mark === 'context' ? e.context_mark : e.problem_mark;
        if (!mark) return undefined;
        return syntax(rule.text(m, context ?? ''), mark);
    }
    return undefined;
}

function syntax(text: string, mark: Mark): PsychSyntaxError {
    return { text, line: mark.line + 1, column: mark.column + 1 };
}
