export * from './assert.js';
export * from './diagnostic.js';
export * from './location.js';
export * from './user-error.js';
export * from './ruby-float.js';
export * from './files.js';
export * from './yaml.js';
export * from './issues.js';
