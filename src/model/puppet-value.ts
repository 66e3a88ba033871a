/**
 * Puppet values as the model runtime carries them. JSON-like values are themselves; the rest
 * are small tagged classes so a codec can tell them apart without guessing.
 */
export type PuppetValue =
    | null | boolean | number | bigint | string
    | PuppetValue[]
    | Map<PuppetValue, PuppetValue>
    | PDefault | PSensitive | PRegexp | PBinary | PStringForm;

/** The `default` literal. */
export class PDefault {
    static readonly instance = new PDefault();
    private constructor() {}
}

/** Sensitive[T]: wraps a value so that no printer, log, report or diff shows it. */
export class PSensitive {
    constructor(readonly value: PuppetValue) {}
    toString(): string {
        return 'Sensitive [value redacted]';
    }
}

export class PRegexp {
    constructor(readonly source: string) {}
}

export class PBinary {
    constructor(readonly bytes: Uint8Array) {}
}

/** A value whose rich-data form is its string form: Timestamp, Timespan, SemVer, SemVerRange, Type. */
export class PStringForm {
    constructor(readonly ptype: 'Timestamp' | 'Timespan' | 'SemVer' | 'SemVerRange' | 'Type', readonly text: string) {}
}
