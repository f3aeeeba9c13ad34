import type { ZodError, ZodType, output } from 'zod';
import { withGiven } from './issue-messages';
import { listIssues } from './listed-issues';

/**
 * One problem found in an input: where (a JSON path from the document root,
 * `$.entity_validation.tin`), a machine-readable code, and a sentence.
 */
export interface Issue {
  path: string;
  code: string;
  message: string;
}

/** The outcome of checking an input: the parsed value, or every issue found (never only the first). */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/**
 * Writes a zod path as a JSON path: `['partners', 1, 'runs']` becomes
 * `$.partners[1].runs`; keys that are not identifiers are quoted (`$["a.b"]`).
 */
export function toJsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) out += `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/**
 * Splits a JSON path as {@link toJsonPath} writes it (`$.entity.partners[1]["odd.key"]`) back into
 * keys and indexes. Parsing stops at the first part it does not understand; the path found so far
 * still points near the problem.
 *
 * @example
 * jsonPathSegments('$.partners[1]["a.b"]'); // ['partners', 1, 'a.b']
 */
export function jsonPathSegments(jsonPath: string): Array<string | number> {
  const segments: Array<string | number> = [];
  // Sticky: each part is matched where the previous one ended, so a path is read in one pass whatever its length.
  const token = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  token.lastIndex = jsonPath.startsWith('$') ? 1 : 0;
  for (let match = token.exec(jsonPath); match !== null; match = token.exec(jsonPath)) {
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push(JSON.parse(match[3]!) as string);
  }
  return segments;
}

/**
 * Turns a zod error into issues. Unknown keys are reported one issue per key,
 * at the key's own path, so the message says exactly which field is not allowed. A message says what
 * was given when the error was made with {@link PARSE_OPTIONS}.
 */
export function toIssues(error: ZodError): Issue[] {
  const issues: Issue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ path: toJsonPath([...issue.path, key]), code: 'unknown_field', message: `${JSON.stringify(key)} is not a known field here` });
      }
      continue;
    }
    issues.push({ path: toJsonPath(issue.path), code: issue.code, message: withGiven(issue.message, (issue as { input?: unknown }).input) });
  }
  return issues;
}

/**
 * How every check of bvs-mock parses: zod keeps each issue's input (`reportInput`), so that
 * {@link toIssues} can say what was given after a schema's own message.
 */
export const PARSE_OPTIONS = { reportInput: true } as const;

/** Checks `value` with `schema` and returns a {@link ParseResult}. */
export function parseWith<S extends ZodType>(schema: S, value: unknown): ParseResult<output<S>> {
  const result = schema.safeParse(value, PARSE_OPTIONS);
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: toIssues(result.error) };
}

/**
 * The sentence an input refusal starts with, the same for the API's errors and the examples of the
 * document: `The request body has 2 problems: $.tin: must not be empty; $.country: …`. It names at most
 * `MAX_LISTED_ISSUES` of them and counts the others (`; and 59900 more (the first 100 are listed)`);
 * `omitted` adds issues already left out of `issues`.
 */
export function describeProblems(issues: readonly Issue[], where = 'request body', omitted = 0): string {
  const listed = listIssues(issues, omitted);
  const count = listed.issues.length + listed.omitted;
  const more =
    listed.omitted === 0 ? '' : `; and ${listed.omitted} more (the first ${listed.issues.length} ${listed.issues.length === 1 ? 'is' : 'are'} listed)`;
  return `The ${where} has ${count} problem${count === 1 ? '' : 's'}: ${listed.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}${more}`;
}

/** Writes issues one per line, as `$.tin: must not be empty`. */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n');
}
