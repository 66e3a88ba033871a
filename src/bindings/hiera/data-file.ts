import type { SourcePoint } from '../../common/index.js';
import { DataTextError, HoconError, parseHocon, type HoconFiles, parsePsychYaml, parseRubyJson, pointAt, RubyJsonError, type PuppetValue } from '../../values/index.js';
import { BindingsIssues } from '../issues.js';
import { LookupError } from './errors.js';

/** A parsed data file: its value and where each top-level key was written (for provenance). */
export interface DataFile {
    readonly value: PuppetValue;
    readonly keyPositions: ReadonlyMap<string, SourcePoint>;
    /**
     * Where top-level values hold Ruby Symbols (YAML reads them as their names): looking such a
     * key up fails ("expects Puppet::LookupValue, got Runtime[ruby, 'Symbol']").
     */
    readonly symbols?: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Parses YAML as Ruby's Psych `safe_load` does for Puppet (values/psych-yaml.ts; Date and Time
 * forbidden). `display` is the path used in messages, as Puppet prints it: "Unable to parse
 * (data/x.yaml): ...".
 */
export function parseYamlData(text: string, display: string): DataFile {
    try {
        const { value, keyPositions, symbols } = parsePsychYaml(text);
        return {
            value,
            keyPositions: new Map([...keyPositions].map(([k, p]) => [k, { file: display, line: p.line, column: p.column }])),
            ...(symbols.size > 0 ? { symbols } : {})
        };
    } catch (e) {
        if (!(e instanceof DataTextError)) throw e;
        if (e.psychCause === 'SystemStackError') throw new LookupError(e.detail, { code: BindingsIssues.LOOKUP_DATA_PARSE, puppetClass: 'SystemStackError', at: { file: display } });
        // Psych's BadAlias message names no file.
        if (e.psychCause === 'Psych::BadAlias') throw new LookupError(`Unable to parse ${e.detail}`, { code: BindingsIssues.LOOKUP_DATA_PARSE, at: { file: display } });
        throw new LookupError(`Unable to parse (${display}): ${e.detail}`, {
            code: BindingsIssues.LOOKUP_DATA_PARSE, at: { file: display, line: e.line, column: e.column }, causeClass: e.psychCause
        });
    }
}

/**
 * Parses JSON data (json_data) as Ruby's JSON.parse reads it (see ruby-json.ts), with Puppet's
 * message for a failure: "Unable to parse (data/x.json): 859: unexpected token at '...'".
 */
export function parseJsonData(text: string, display: string): DataFile {
    try {
        const { value, keyPositions } = parseRubyJson(text);
        return { value, keyPositions: new Map([...keyPositions].map(([k, off]) => [k, pointAt(text, off, display)])) };
    } catch (e) {
        if (!(e instanceof RubyJsonError)) throw e;
        throw new LookupError(`Unable to parse (${display}): ${e.message}`, { code: BindingsIssues.LOOKUP_DATA_PARSE, at: pointAt(text, e.offset, display) });
    }
}

/**
 * Parses HOCON data (hocon_data) as ruby-hocon's `Hocon.parse` reads it, with Puppet's message
 * for a failure: "Unable to parse (data/x.conf): String: 2: ...".
 */
export function parseHoconData(text: string, display: string, files: HoconFiles): DataFile {
    try {
        const { value, keyLines } = parseHocon(text, files);
        return { value, keyPositions: new Map([...keyLines].map(([k, line]) => [k, { file: display, line, column: 1 }])) };
    } catch (e) {
        if (!(e instanceof HoconError)) throw e;
        // Not a ConfigError: hocon_data lets it through, and the call evaluating the lookup reports it.
        if (e.kind === 'NoMethodError') throw new LookupError(e.message, { code: BindingsIssues.LOOKUP_DATA_PARSE, puppetClass: 'NoMethodError', at: { file: display } });
        // A failure inside an included file is located there.
        const at = e.origin === 'String' ? { file: display, line: e.line, column: 1 } : { file: e.origin, ...(e.line !== undefined ? { line: e.line, column: 1 } : {}) };
        throw new LookupError(`Unable to parse (${display}): ${e.message}`, { code: BindingsIssues.LOOKUP_DATA_PARSE, at });
    }
}
