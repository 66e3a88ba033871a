export * from './diff-engine.js';
export * from './diff-format.js';
export * from './diff-model.js';
export * from './diff-profile.js';
export { diffProfileFor } from './diff-profiles.js';
export { lineDiff } from './line-diff.js';
export { CHANGE_FILTERS, filterChanges, parseIgnoreRule, type ChangeFilterName, type ChangeFilterOptions, type IgnoreRule } from './change-filters.js';
