export { review, reviewExitCode, type ReviewOptions } from './review.js';
export { defaultJobs } from './compile-pool.js';
export { formatReviewText } from './report-text.js';
export { formatReviewMarkdown, DEFAULT_MARKDOWN_LIMIT, type MarkdownOptions } from './report-markdown.js';
export { ReviewIssues, type ReviewIssueCode } from './issues.js';
export type * from './report-model.js';
export type { NodeError } from './compile-node.js';
export { explainParameter } from './explain.js';
export { diffNodeCatalogs, type NodeDiff, type NodeDiffOptions } from './node-diff.js';
