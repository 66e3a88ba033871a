export * from './issues.js';
export * from './hiera/index.js';
