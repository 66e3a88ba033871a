export * from './values.js';
export { formatFloat, formatTimestamp, formatTimespan } from './format.js';
export { puppetEquals, strictEquals, lookupKey, hashGet, hashSet } from './equality.js';
export { dataClassName } from './class-name.js';
