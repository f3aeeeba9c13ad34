import { toJsonPath, type Issue, type ParseResult } from '../schemas';
import { problems } from './api-problem';
import type { CoreRequest } from './core-types';
import type { RouteContext } from './route-context';

/** The media type of a request, lower case, without parameters. */
export function mediaType(request: CoreRequest): string | undefined {
  const header = request.headers['content-type'];
  return header === undefined ? undefined : header.split(';')[0]!.trim().toLowerCase();
}

/**
 * Parses a JSON body. A body needs `Content-Type: application/json` (415
 * otherwise) and must parse (400 `malformed_json` with the position). An empty
 * body is `undefined`.
 */
export function parseJsonBody(request: CoreRequest): unknown {
  if (request.body.length === 0) return undefined;
  const type = mediaType(request);
  if (type !== 'application/json' && !(type?.startsWith('application/') && type.endsWith('+json'))) {
    throw problems.unsupportedMediaType(request.headers['content-type'], 'Content-Type: application/json');
  }
  try {
    return JSON.parse(request.body.toString('utf8'));
  } catch (error) {
    throw problems.malformedJson((error as Error).message);
  }
}

/** Parses a form-encoded body (`application/x-www-form-urlencoded`) into fields; a field given twice is an error. */
export function parseFormBody(request: CoreRequest): Record<string, string> {
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw problems.unsupportedMediaType(request.headers['content-type'], 'Content-Type: application/x-www-form-urlencoded');
  }
  const fields: Record<string, string> = {};
  const repeated: Issue[] = [];
  for (const [key, value] of new URLSearchParams(request.body.toString('utf8'))) {
    if (key in fields) repeated.push({ path: toJsonPath([key]), code: 'repeated_field', message: `"${key}" is given more than once` });
    fields[key] = value;
  }
  if (repeated.length > 0) throw problems.invalidRequest('The form has repeated fields.', repeated);
  return fields;
}

/**
 * Checks a body with its schema. Unknown fields are the one tolerable
 * violation: without `--strict` they are dropped and recorded in the journal;
 * with it, and for every other problem, the answer is 422 with every issue.
 */
export function checkBody<T>(context: RouteContext, parse: (value: unknown) => ParseResult<T>, body: unknown): T {
  const first = parse(body);
  if (first.ok) return first.value;
  const unknown = first.issues.filter((issue) => issue.code === 'unknown_field');
  if (context.strictBodies || unknown.length !== first.issues.length) throw problems.validationFailed(first.issues);
  const stripped = withoutPaths(body, unknown.map((issue) => issue.path));
  const second = parse(stripped);
  if (!second.ok) throw problems.validationFailed(second.issues);
  context.violations.push(...unknown);
  return second.value;
}

/**
 * `value` without the members at the given JSON paths (`$.a.b`, `$.a[0].c`).
 * Only the containers along each path are copied, never the values below
 * them, so a deeply nested unknown field costs nothing.
 */
function withoutPaths(value: unknown, paths: string[]): unknown {
  let root = value;
  for (const path of paths) {
    const keys = [...path.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)].map((match) =>
      match[1] ?? (match[2] !== undefined ? Number(match[2]) : (JSON.parse(`"${match[3]}"`) as string)),
    );
    root = without(root, keys);
  }
  return root;
}

function without(node: unknown, keys: Array<string | number>): unknown {
  if (keys.length === 0 || node === null || typeof node !== 'object') return node;
  const [head, ...rest] = keys as [string | number, ...Array<string | number>];
  const copy = (Array.isArray(node) ? [...(node as unknown[])] : { ...(node as Record<string, unknown>) }) as Record<string | number, unknown>;
  if (rest.length === 0) delete copy[head];
  else copy[head] = without(copy[head], rest);
  return copy;
}
