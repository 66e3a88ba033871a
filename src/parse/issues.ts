/**
 * The catalogue of parser and validator findings. Codes are stable API (tests, CI filters and
 * users match on them); messages follow Puppet's wording where Puppet has one, so users
 * moving from `puppet parser validate` recognise them.
 */
export const ParseIssues = {
    // lexer
    PARSE_UNCLOSED_QUOTE: 'Unclosed quote after %s followed by \'%s\'',
    PARSE_UNCLOSED_MLCOMMENT: 'Unclosed multiline comment',
    PARSE_ILLEGAL_NUMBER: 'Illegal number \'%s\'',
    PARSE_INVALID_HEX_NUMBER: 'Not a valid hex number %s',
    PARSE_INVALID_OCTAL_NUMBER: 'Not a valid octal number %s',
    PARSE_INVALID_DECIMAL_NUMBER: 'Not a valid decimal number %s',
    PARSE_ILLEGAL_CLASS_REFERENCE: 'Illegal class reference',
    PARSE_ILLEGAL_FULLY_QUALIFIED_CLASS_REFERENCE: 'Illegal fully qualified class reference',
    PARSE_ILLEGAL_FULLY_QUALIFIED_NAME: 'Illegal fully qualified name',
    PARSE_ILLEGAL_NAME_OR_BARE_WORD: 'Illegal name or bare word',
    PARSE_ILLEGAL_CHARACTER: 'Syntax error at \'%s\'',
    PARSE_HEREDOC_UNCLOSED_PARENTHESIS: 'Unclosed parenthesis after \'@(\' followed by \'%s\'',
    PARSE_HEREDOC_INVALID_SYNTAX: 'Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])',
    PARSE_HEREDOC_EMPTY_ENDTAG: 'Heredoc with an empty endtag',
    PARSE_HEREDOC_MULTIPLE_AT_ESCAPES: 'An escape char for @() may only appear once. Got \'%s\'',
    PARSE_HEREDOC_INVALID_ESCAPE: 'Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got \'%s\'',
    PARSE_HEREDOC_WITHOUT_TEXT: 'Heredoc without any following lines of text',
    PARSE_HEREDOC_WITHOUT_END_TAGGED_LINE: 'Heredoc without end-tagged line',
    PARSE_UNRECOGNIZED_ESCAPE: 'Unrecognized escape sequence \'\\%s\'',
    PARSE_ILLEGAL_UNICODE_ESCAPE: 'Unicode escape \'\\u\' was not followed by 4 hex digits or 1-6 hex digits in {} or was > 10ffff',
    PARSE_ILLEGAL_BOM: 'Illegal byte order mark in the input',
    PARSE_EPP_UNBALANCED_TAG: 'Unbalanced epp tag, reached <eof> without closing tag.',
    PARSE_EPP_UNBALANCED_COMMENT: 'Reaching end after opening <%# without seeing %>',
    // parser
    PARSE_TOO_COMPLEX: 'The input could not be parsed: %s',
    PARSE_SYNTAX_ERROR: 'Syntax error at %s',
    PARSE_ARGS_TO_NON_CALL: 'attempt to pass argument list to the function \'%s\' which cannot be called without parentheses',
    PARSE_ILLEGAL_COMMA_LIST: 'illegal comma separated argument list',
    PARSE_RESOURCE_WITHOUT_TITLE: 'Syntax error resource body without title or hash with +>',
    PARSE_INVALID_RESOURCE_SHAPE: 'Expression is not valid as a resource, resource-default, or resource-override',
    PARSE_VIRTUAL_NOT_RESOURCE: 'Virtual (@) can only be applied to a Resource Expression',
    PARSE_EXPORTED_NOT_RESOURCE: 'Exported (@@) can only be applied to a Resource Expression',
    PARSE_KEYWORD_ENTRY_NOT_ALLOWED: 'Syntax error at \'%s\'',
    // validator (checker4_0); %s holes take Puppet's labels (`a Literal Integer`, `Name`)
    VALIDATE_RESERVED_PARAMETER: 'The parameter $%s redefines a built in parameter in %s',
    VALIDATE_ILLEGAL_ASSIGNMENT: 'Illegal attempt to assign to \'%s\'. Not an assignable reference',
    VALIDATE_ILLEGAL_INDEXED_ASSIGNMENT: 'Illegal attempt to assign via [index/key]. Not an assignable reference',
    VALIDATE_ILLEGAL_NUMERIC_ASSIGNMENT: 'Illegal attempt to assign to the numeric match result variable \'$%s\'. Numeric variables are not assignable',
    VALIDATE_CROSS_SCOPE_ASSIGNMENT: 'Illegal attempt to assign to \'%s\'. Cannot assign to variables in other namespaces',
    VALIDATE_APPENDS_DELETES_NO_LONGER_SUPPORTED: 'The operator \'%s\' is no longer supported. See http://links.puppet.com/remove-plus-equals',
    VALIDATE_IDEM_EXPRESSION_NOT_LAST: 'This %s has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)',
    VALIDATE_IDEM_NOT_ALLOWED_LAST: 'This %s has no effect. %s can not end with a value-producing expression without other effect',
    VALIDATE_RESOURCE_WITHOUT_TITLE: 'This expression is invalid. Did you try declaring a \'%s\' resource without a title?',
    VALIDATE_NOT_TOP_LEVEL: 'Classes, definitions, and nodes may only appear at toplevel or inside other classes',
    VALIDATE_NOT_ABSOLUTE_TOP_LEVEL: '%s may only appear at toplevel',
    VALIDATE_ILLEGAL_PARAM_NAME: 'Illegal parameter name. The given name \'%s\' does not conform to the naming rule /^[a-z_]\\w*$/',
    VALIDATE_ILLEGAL_VAR_NAME: 'Illegal variable name, The given name \'%s\' does not conform to the naming rule /^((::)?[a-z]\\w*)*((::)?[a-z_]\\w*)$/',
    VALIDATE_DUPLICATE_PARAMETER: 'The parameter \'%s\' is declared more than once in the parameter list',
    VALIDATE_DUPLICATE_KEY: 'The key \'%s\' is declared more than once',
    VALIDATE_DUPLICATE_DEFAULT: 'This %s already has a \'default\' entry - this is a duplicate',
    VALIDATE_CAPTURES_REST_NOT_SUPPORTED: 'Parameter $%s has \'captures rest\' - not supported in %s',
    VALIDATE_NOT_VIRTUALIZEABLE: 'Resource Defaults are not virtualizable',
    VALIDATE_CLASS_NOT_VIRTUALIZABLE: 'Classes are not virtualizable',
    VALIDATE_ILLEGAL_ATTRIBUTE_APPEND: 'Illegal +> operation on attribute %s. This operator can not be used in %s',
    VALIDATE_RESERVED_WORD: 'Use of reserved word: %s, must be quoted if intended to be a String value'
} as const;

export type ParseIssueCode = keyof typeof ParseIssues;

/** Fills the `%s` holes of an issue's message, in order. */
export function issueMessage(code: ParseIssueCode, ...args: readonly string[]): string {
    let i = 0;
    return ParseIssues[code].replace(/%s/g, () => args[i++] ?? '');
}
