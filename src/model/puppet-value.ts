/**
 * The model runtime carries Puppet values in the shared runtime representation of `src/values`
 * (Integer = bigint, types = type values); this module only re-exports it for model users.
 */
export {
    PBinary, PDefault, PDeferred, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, type PuppetValue
} from '../values/index.js';

/**
 * The earlier string-form representation of Timestamp, Timespan, SemVer and Type values. Kept
 * only so code written against it still compiles; runtime values are never of this class now
 * (rich data decodes to PTimestamp, type values, ...).
 * @deprecated use the classes of `src/values` and `src/types`.
 */
export class PStringForm {
    constructor(readonly ptype: 'Timestamp' | 'Timespan' | 'SemVer' | 'SemVerRange' | 'Type', readonly text: string) {}
}
