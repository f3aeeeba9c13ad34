import * as path from 'node:path';
import type { Issue } from '../../schemas';

/**
 * One problem in a scenario file: the {@link Issue} of the schema (JSON path, code, reason) plus
 * where it is in the file, so the message points at the line to fix.
 */
export interface ScenarioFileIssue extends Issue {
  /** The file, as it was given to the loader. */
  file: string;
  /**
   * 1-based line of the node nearest to `path` (for a missing field: the object that lacks it).
   * Absent when the file could not be read at all.
   */
  line?: number;
  /** 1-based column; given for YAML syntax errors, where the line alone may not be enough. */
  column?: number;
}

/**
 * Writes an issue as one line: `bvs-mock: scenarios/partner-fail.yaml:14: $.entity.runs[0].type: reason`.
 * The root path `$` is left out, as it adds nothing to "the file is empty" or a syntax error.
 */
export function formatScenarioFileIssue(issue: ScenarioFileIssue): string {
  let where = displayPath(issue.file);
  if (issue.line !== undefined) where += `:${issue.line}`;
  if (issue.line !== undefined && issue.column !== undefined) where += `:${issue.column}`;
  const at = issue.path === '$' ? '' : `${issue.path}: `;
  return `bvs-mock: ${where}: ${at}${issue.message}`;
}

/**
 * A file name as a user reads it: relative to the working directory when the file is below it
 * (`scenarios/happy-partners.yaml`), absolute otherwise, so it can be pasted into an editor.
 */
export function displayPath(file: string): string {
  const absolute = path.resolve(file);
  const relative = path.relative(process.cwd(), absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}
