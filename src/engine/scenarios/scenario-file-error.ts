import { formatScenarioFileIssue, type ScenarioFileIssue } from './scenario-file-issue';

/**
 * A scenario file that cannot be used, with every issue found in it. Its message has one line per
 * issue, ready to print as it is:
 *
 * ```text
 * bvs-mock: scenarios/partner-fail.yaml:14: $.entity.partners[1].runs[0].outcomes[0].definitve_error: "definitve_error" is not one of succeeded, temporary_error, definitive_error, missing_input_data
 * ```
 */
export class ScenarioFileError extends Error {
  override readonly name = 'ScenarioFileError';
  /** The file, as it was given to the loader. */
  readonly file: string;
  /** Every issue, in file order. */
  readonly issues: readonly ScenarioFileIssue[];

  constructor(file: string, issues: readonly ScenarioFileIssue[], options?: { cause?: unknown }) {
    super(issues.map(formatScenarioFileIssue).join('\n'), options);
    this.file = file;
    this.issues = issues;
  }
}
