/**
 * A HOCON failure as ruby-hocon (what Puppet's hocon_data uses) words it: "ORIGIN: LINE: problem",
 * the origin being "String" for the text Hocon.parse reads and a file's absolute path for what an
 * include read (a failure of a whole file has no line). `kind` is the Ruby error class: ruby-hocon's
 * own, or NoMethodError where the gem (1.3.1) calls an includer method it never ported (url() and
 * classpath() includes).
 */
export class HoconError extends Error {
    constructor(readonly line: number | undefined, readonly problem: string,
                readonly kind: 'ConfigParseError' | 'UnresolvedSubstitutionError' | 'ConfigWrongTypeError' | 'NoMethodError' = 'ConfigParseError',
                readonly origin = 'String') {
        super(kind === 'NoMethodError' ? problem : line === undefined ? `${origin}: ${problem}` : `${origin}: ${line}: ${problem}`);
    }
}
