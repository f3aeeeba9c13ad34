import type { ZodError, ZodType, output } from 'zod';

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
 * Turns a zod error into issues. Unknown keys are reported one issue per key,
 * at the key's own path, so the message says exactly which field is not allowed.
 */
export function toIssues(error: ZodError): Issue[] {
  const issues: Issue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ path: toJsonPath([...issue.path, key]), code: 'unknown_field', message: `"${key}" is not a known field here` });
      }
      continue;
    }
    issues.push({ path: toJsonPath(issue.path), code: issue.code, message: issue.message });
  }
  return issues;
}

/** Checks `value` with `schema` and returns a {@link ParseResult}. */
export function parseWith<S extends ZodType>(schema: S, value: unknown): ParseResult<output<S>> {
  const result = schema.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, issues: toIssues(result.error) };
}

/**
 * The sentence an input refusal starts with, the same for the API's errors and the examples of the
 * document: `The request body has 2 problems: $.tin: must not be empty; $.country: …`.
 */
export function describeProblems(issues: readonly Issue[], where = 'request body'): string {
  return `The ${where} has ${issues.length} problem${issues.length === 1 ? '' : 's'}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`;
}

/** Writes issues one per line, as `$.tin: must not be empty`. */
export function formatIssues(issues: readonly Issue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n');
}
