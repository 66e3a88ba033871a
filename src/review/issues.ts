/** Issue codes of `modelc review` (usage and repository problems; compile errors keep the catalog's codes). */
export const ReviewIssues = {
    NOT_A_REPOSITORY: 'REVIEW_NOT_A_REPOSITORY',
    UNKNOWN_REVISION: 'REVIEW_UNKNOWN_REVISION',
    CHECKOUT_FAILED: 'REVIEW_CHECKOUT_FAILED',
    NO_NODES: 'REVIEW_NO_NODES',
    NO_FACTS: 'REVIEW_NO_FACTS',
    USAGE: 'REVIEW_USAGE',
    WORKER_FAILED: 'REVIEW_WORKER_FAILED'
} as const;

export type ReviewIssueCode = (typeof ReviewIssues)[keyof typeof ReviewIssues];
