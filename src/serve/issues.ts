/** Issue codes of `modelc serve` (user errors at start-up; request errors are HTTP answers). */
export const ServeIssues = {
    /** A --port that is not a number from 0 to 65535, or --workers that is not a positive integer. */
    SERVE_USAGE: 'SERVE_USAGE',
    /** The ssl dir, or a certificate, key, CA or CRL in it, is missing or unreadable. */
    SERVE_SSL: 'SERVE_SSL',
    /** The server could not listen (address in use, no permission). */
    SERVE_LISTEN: 'SERVE_LISTEN',
    /** The CONFDIR/CODEDIR given does not exist. */
    SERVE_NO_CODEDIR: 'SERVE_NO_CODEDIR'
} as const;
