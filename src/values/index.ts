export * from './values.js';
export { formatValue, formatFloat, formatTimestamp, formatTimespan, quoteValue } from './format.js';
export { puppetEquals, strictEquals, lookupKey, hashGet, hashSet } from './equality.js';
export { dataClassName } from './class-name.js';
export { sprintf } from './sprintf.js';
