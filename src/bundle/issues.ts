/** Issue codes of environment bundles. */
export const BundleIssues = {
    BUNDLE_ENCODING: 'BUNDLE_ENCODING',
    BUNDLE_NOT_AN_ENVIRONMENT: 'BUNDLE_NOT_AN_ENVIRONMENT',
    BUNDLE_BAD_ROOT: 'BUNDLE_BAD_ROOT',
    BUNDLE_NO_CONTENT: 'BUNDLE_NO_CONTENT'
} as const;
