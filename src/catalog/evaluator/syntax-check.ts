import type { SyntaxProblem } from '../../parse/index.js';
import { CompileError, whereSuffix, type Where } from '../errors.js';
import { CatalogIssues, puppetIssueOf } from '../issues.js';

/** A heredoc's produced text refused by its syntax checker: a ParseErrorWithIssue of the checker's issue, at the text. */
export function syntaxCheckFailure(problem: SyntaxProblem, where: Where): CompileError {
    const code = `EVAL_ILLEGAL_${problem.checker.toUpperCase() as Uppercase<typeof problem.checker>}` as const;
    const basic = CatalogIssues[code].message({ detail: problem.message });
    return new CompileError(code, {
        message: basic + whereSuffix(where), file: where.file, line: where.line, pos: where.column, issueCode: puppetIssueOf(code), basic,
        rubyClass: 'Puppet::ParseErrorWithIssue', log: { message: basic, file: where.file, line: where.line }
    });
}
