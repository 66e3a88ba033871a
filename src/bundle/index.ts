export { bundleEnvironment, environmentFromBundle, isEnvironmentBundle, type BundleOptions, type SourceKind } from './bundle.js';
export { BundleIssues } from './issues.js';
export { reviveProgram } from './revive.js';
