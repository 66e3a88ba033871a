/**
 * The model runtime carries Puppet values in the shared runtime representation of `src/values`
 * (Integer = bigint, types = type values); this module only re-exports it for model users.
 */
export {
    PBinary, PDefault, PDeferred, PRegexp, PSemVer, PSemVerRange, PSensitive, PTimespan, PTimestamp, type PuppetValue
} from '../values/index.js';
