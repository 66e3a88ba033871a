export { runLanguageServer } from './server.js';
export { createPuppetLspServices, type PuppetLspServices } from './services.js';
export type { LspHost, NodeSetting } from './node-values.js';
export { completionContext } from './completion.js';
export { siteAt, sitesOf, type Site, type SiteKind } from './sites.js';
