import { dirname, isAbsolute, join, resolve } from 'node:path';
import { HoconError } from './hocon-error.js';

/**
 * The files a HOCON include may read. `read` gives a file's text (an absolute path), undefined
 * when there is no such file; `cwd` is where a relative `file()` name is opened from (ruby-hocon
 * opens it as Ruby's File.new does, against the process's working directory).
 */
export interface HoconFiles {
    read(path: string): string | undefined;
    readonly cwd: string;
}

export type IncludeKind = 'heuristic' | 'file' | 'url' | 'classpath';

/** `include "name"` (heuristic) or `include file("name")` etc., at `line` of the including text. */
export interface IncludeDirective {
    readonly kind: IncludeKind;
    readonly name: string;
    readonly line: number;
}

/** A file an include reads, and whether ruby-hocon reads it in its JSON flavour (a .json file). */
export interface IncludeTarget {
    readonly path: string;
    readonly json: boolean;
}

/**
 * The NoMethodErrors of the gem's unported includer methods, as Ruby 3.1 words them: the receiver
 * (an includer's inspect carries its address, which differs from run to run: comparisons leave it
 * out), then error_highlight's quote of the call and did_you_mean's suggestions.
 */
const INCLUDER = '#<Hocon::Impl::SimpleIncluder:0x0000000000000000 @fallback=nil>';
const NO_INCLUDE_URL = `undefined method \`include_url' for ${INCLUDER}\n\n          obj = @includer.include_url(@include_context, url)\n                         ^^^^^^^^^^^^\nDid you mean?  include_file`;
const NO_INCLUDE_RESOURCES = `undefined method \`include_resources' for ${INCLUDER}\n\n          obj = @includer.include_resources(@include_context, n.name)\n                         ^^^^^^^^^^^^^^^^^^\nDid you mean?  include_file`;
const NO_URL_WITHOUT_FALLBACK = 'undefined method `include_url_without_fallback\' for Hocon::Impl::SimpleIncluder:Class\n\n      include_url_without_fallback(context, url)\n'
    + '      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nDid you mean?  include_file_without_fallback\n               include_without_fallback';

/**
 * The files an include reads, in order (the first one's keys win), as ruby-hocon 1.3.1 finds
 * them for `Hocon.parse` of a string:
 * - a name ending in .conf, .json or .properties is that one file; any other name is NAME.conf
 *   then NAME.json;
 * - `file(name)` opens the name against the working directory; a file that is not there is
 *   skipped (includes may be missing);
 * - `include "name"` (the heuristic) is relative to the including file; the string itself is no
 *   file, so from it the name is looked up on a classpath Ruby has not got and nothing is read;
 * - an http(s) URL, `url()` and `classpath()` reach includer methods the gem never ported
 *   (NoMethodError); `url()` of anything else is refused as an invalid URL.
 * `origin` names the including text in a failure.
 */
export function includeTargets(d: IncludeDirective, includingFile: string | undefined, files: HoconFiles, origin: string): IncludeTarget[] {
    switch (d.kind) {
        case 'url':
            if (!isHttpUrl(d.name)) throw new HoconError(d.line, `include url() specifies an invalid URL: ${d.name}`, 'ConfigParseError', origin);
            throw new HoconError(d.line, NO_INCLUDE_URL, 'NoMethodError', origin);
        case 'classpath':
            throw new HoconError(d.line, NO_INCLUDE_RESOURCES, 'NoMethodError', origin);
        case 'file':
            return fromBasename(d.name, n => resolve(files.cwd, n));
        case 'heuristic':
            if (isHttpUrl(d.name)) throw new HoconError(d.line, NO_URL_WITHOUT_FALLBACK, 'NoMethodError', origin);
            if (includingFile === undefined) return [];
            return fromBasename(d.name, n => isAbsolute(n) ? n : join(dirname(includingFile), n));
    }
}

function fromBasename(name: string, locate: (name: string) => string): IncludeTarget[] {
    if (/\.(conf|json|properties)$/.test(name)) return [{ path: locate(name), json: name.endsWith('.json') }];
    return [{ path: locate(`${name}.conf`), json: false }, { path: locate(`${name}.json`), json: true }];
}

/** What Ruby's URI.parse takes as a URI::HTTP (the gem's test for a URL): http or https, no characters URIs refuse. */
function isHttpUrl(name: string): boolean {
    return /^https?:[^\s"<>\\^`{|}]*$/i.test(name);
}
