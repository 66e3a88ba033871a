export { parsePuppet, parserFallbacks, puppetServices, type ParseOptions, type ParseResult } from './parse.js';
export { toPN } from './pn/to-pn.js';
export { createPuppetServices, PuppetModule, type PuppetServices } from './services/puppet-module.js';
export { LineIndex, PuppetLexer } from './lexer/puppet-lexer.js';
export { ParseIssues, issueMessage, type ParseIssueCode } from './issues.js';
export { formatDiagnostic } from '../common/index.js';
export { locatingOperator, operatorLeaf, positionOf, recordPositions, type SourcePosition } from './positions.js';
export { ParsedFileCache, type FileCacheStats, type GivenAsts, type ParsedSource, type SourceText } from './file-cache.js';
export { STATEMENT_CALLS } from './lowering/statements.js';
