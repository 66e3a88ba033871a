export { parsePuppet, parserFallbacks, puppetServices, type ParseOptions, type ParseResult } from './parse.js';
export { toPN } from './pn/to-pn.js';
export { createPuppetServices, PuppetModule, type PuppetServices } from './services/puppet-module.js';
export { PuppetLexer } from './lexer/puppet-lexer.js';
export { ParseIssues, issueMessage, type ParseIssueCode } from './issues.js';
export { formatDiagnostic } from '../common/index.js';
export { ParsedFileCache, type FileCacheStats, type ParsedSource, type SourceText } from './file-cache.js';
export { STATEMENT_CALLS } from './lowering/statements.js';
