import { listIssues } from '../../schemas';
import { displayPath, formatScenarioFileIssue, type ScenarioFileIssue } from './scenario-file-issue';

/**
 * A scenario file that cannot be used, with every issue found in it. Its message has one line per
 * issue, ready to print as it is, for the first `MAX_LISTED_ISSUES` (each path and reason at most
 * `MAX_ISSUE_TEXT` characters), and a last line counting the others (a generated file gone wrong can
 * have tens of thousands; docs/fidelity.md row 96):
 *
 * ```text
 * bvs-mock: scenarios/partner-fail.yaml:14: $.entity.partners[1].runs[0].outcomes[0].definitve_error: "definitve_error" is not one of succeeded, temporary_error, definitive_error, missing_input_data
 * bvs-mock: scenarios/partner-fail.yaml: and 17900 more problems (the first 100 are listed)
 * ```
 */
export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';
  /** The file, as it was given to the loader. */
  readonly file: string;
  /** Every issue, in file order. */
  readonly issues: readonly ScenarioFileIssue[];

  constructor(file: string, issues: readonly ScenarioFileIssue[], options?: { cause?: unknown }) {
    const listed = listIssues(issues);
    const lines = listed.issues.map(formatScenarioFileIssue);
    if (listed.omitted > 0) lines.push(`bvs-mock: ${displayPath(file)}: and ${listed.omitted} more problems (the first ${listed.issues.length} are listed)`);
    super(lines.join('\n'), options);
    this.file = file;
    this.issues = issues;
  }
}
