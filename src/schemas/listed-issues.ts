import type { Issue } from './parse-result';

/**
 * Most issues one answer or record lists: a 422's `issues`, a journal entry's `violations`, a scenario
 * file's problems. A client or file with more has one mistake repeated (60,000 unknown fields in one
 * create, a generated file gone wrong), and the first hundred show it; listing them all made one
 * answer megabytes long and kept that much per journal entry (docs/fidelity.md row 96). What is left
 * out is counted (`issues_omitted`, `violations_omitted`, "and N more").
 */
export const MAX_LISTED_ISSUES = 100;

/**
 * Longest path or message of an issue as it is listed, in characters. A path or message repeats the
 * input (an unknown field's name), so a 200,000-character name made each journal entry that large;
 * 1,000 characters hold any path of a real body (64 levels of ordinary names) whole (docs/fidelity.md row 96).
 */
export const MAX_ISSUE_TEXT = 1_000;

/** Issues as an answer or a record lists them: at most {@link MAX_LISTED_ISSUES}, and how many more were found. */
export interface ListedIssues<T extends Issue = Issue> {
  issues: T[];
  /** Issues found and not listed; 0 when every one is. */
  omitted: number;
}

/**
 * The first {@link MAX_LISTED_ISSUES} of `issues`, each with its path and message held to
 * {@link MAX_ISSUE_TEXT} characters, and how many were left out, `omitted` already included
 * (issues counted and dropped before, as a list built from lists already bounded).
 *
 * @example
 * listIssues(sixtyThousandIssues); // { issues: [first 100], omitted: 59900 }
 */
export function listIssues<T extends Issue>(issues: readonly T[], omitted = 0): ListedIssues<T> {
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map(clipIssue);
  return { issues: listed, omitted: omitted + issues.length - listed.length };
}

function clipIssue<T extends Issue>(issue: T): T {
  if (issue.path.length <= MAX_ISSUE_TEXT && issue.message.length <= MAX_ISSUE_TEXT) return issue;
  return { ...issue, path: clipText(issue.path), message: clipText(issue.message) };
}

/**
 * `text` when it has at most `limit` characters, else its start and how long it was, in `limit`
 * characters in all: `$["xxxx… (200004 characters in all)`.
 */
export function clipText(text: string, limit = MAX_ISSUE_TEXT): string {
  if (text.length <= limit) return text;
  const tail = `… (${text.length} characters in all)`;
  let head = text.slice(0, Math.max(0, limit - tail.length));
  // Never half a surrogate pair: the clipped text stays valid UTF-16, so it serializes as valid UTF-8.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return head + tail;
}
