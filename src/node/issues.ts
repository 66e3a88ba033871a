/** Issue codes of the node request (facts, trusted data, node name). */
export const NodeIssues = {
    /** A --facts or --trusted path that does not exist, is a directory, or cannot be read. */
    NODE_INPUT_FILE: 'NODE_INPUT_FILE',
    /** A facts or trusted file that is not YAML or JSON Ruby would read. */
    NODE_INPUT_SYNTAX: 'NODE_INPUT_SYNTAX',
    /** A facts or trusted file holding something other than a mapping (a list, a string...). */
    NODE_INPUT_SHAPE: 'NODE_INPUT_SHAPE'
} as const;
