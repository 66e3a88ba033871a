/** Issue catalogue of the model runtime (loading, validating, converting, diffing models). */
export const ModelIssues = {
    FILE_NOT_FOUND: 'MODEL_FILE_NOT_FOUND',
    UNKNOWN_FORMAT: 'MODEL_UNKNOWN_FORMAT',
    INVALID_JSON: 'MODEL_INVALID_JSON',
    INVALID_MSGPACK: 'MODEL_INVALID_MSGPACK',
    NOT_A_MODEL: 'MODEL_NOT_A_MODEL',
    UNKNOWN_PACKAGE: 'MODEL_UNKNOWN_PACKAGE',
    WRONG_TYPE: 'MODEL_WRONG_TYPE',
    MISSING_FEATURE: 'MODEL_MISSING_FEATURE',
    UNKNOWN_FEATURE: 'MODEL_UNKNOWN_FEATURE',
    WRONG_DATATYPE: 'MODEL_WRONG_DATATYPE',
    BAD_MULTIPLICITY: 'MODEL_BAD_MULTIPLICITY',
    SCHEMA: 'MODEL_SCHEMA',
    PROTO_KEY: 'MODEL_PROTO_KEY',
    DANGLING_REF: 'MODEL_DANGLING_REF',
    REF_TYPE: 'MODEL_REF_TYPE',
    DUPLICATE_ID: 'MODEL_DUPLICATE_ID',
    ID_MISMATCH: 'MODEL_ID_MISMATCH',
    KIND_MISMATCH: 'MODEL_KIND_MISMATCH',
    NOT_SERIALIZABLE: 'MODEL_NOT_SERIALIZABLE',
    /** Objects and arrays nested beyond MAX_MODEL_DEPTH. */
    TOO_DEEP: 'MODEL_TOO_DEEP',
    /** An output file cannot be written (missing directory, a directory in the way). */
    WRITE_FAILED: 'MODEL_WRITE_FAILED',
    /** The file is not UTF-8. */
    INVALID_ENCODING: 'MODEL_INVALID_ENCODING'
} as const;

export type ModelIssueCode = typeof ModelIssues[keyof typeof ModelIssues];
