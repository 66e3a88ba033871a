export * from './values.js';
export { formatFloat, formatTimestamp, formatTimespan } from './format.js';
export { puppetEquals, strictEquals, lookupKey, hashGet, hashSet } from './equality.js';
export { dataClassName } from './class-name.js';
export { DataTextError, parsePsychYaml, type PsychYaml } from './psych-yaml.js';
export { ForbiddenClass, RubySymbol, tokenizePlain } from './psych-scalar.js';
export { parseRubyJson, pointAt, RubyJsonError } from './ruby-json.js';
export { capitalizeTypeName, resourceReference } from './reference.js';
