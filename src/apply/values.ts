/**
 * The one place the apply stage takes Puppet runtime values from: the shared representation of
 * `src/values` (undef = null, Integer = bigint, Float = number, Hash = Map, Sensitive = PSensitive).
 */
export { capitalizeTypeName, copyValue, PSensitive, PRegexp, PDefault, resourceReference, rubyRegexpToJs, type PuppetValue } from '../values/index.js';
