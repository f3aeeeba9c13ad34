import { jsonPathSegments, listIssues, toJsonPath, type Issue, type ParseResult } from '../schemas';
import { problems } from './api-problem';
import type { CoreRequest } from './core-types';
import type { RouteContext } from './route-context';

/** The media type of a request, lower case, without parameters. */
export function mediaType(request: CoreRequest): string | undefined {
  const header = request.headers['content-type'];
  return header === undefined ? undefined : header.split(';')[0]!.trim().toLowerCase();
}

/**
 * How deeply objects and arrays may nest in a JSON body, the body itself being level 1. Free-form
 * values (an `information_sheet`) are stored and rendered back on every read and event, and
 * rendering copies them recursively (structuredClone, JSON.stringify): a body that parses can still
 * overflow the stack there, about 2,000 levels down for structuredClone and fewer when the server's
 * own frames come first. So depth is refused at input, where the caller can still be told why,
 * instead of breaking every later read. 64 is far above any body of the contract (the deepest nests
 * about 5 levels) and far below the stack's reach; it is also the default of .NET's
 * System.Text.Json. docs/fidelity.md row 26.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Parses a JSON body. A body needs `Content-Type: application/json` (415
 * otherwise), must parse (400 `malformed_json` with the position) and nest at
 * most {@link MAX_JSON_DEPTH} levels (422 `validation_failed` at the JSON path
 * of the first container too deep). An empty body is `undefined`.
 */
export function parseJsonBody(request: CoreRequest): unknown {
  if (request.body.length === 0) return undefined;
  const type = mediaType(request);
  if (type !== 'application/json' && !(type?.startsWith('application/') && type.endsWith('+json'))) {
    throw problems.unsupportedMediaType(request.headers['content-type'], 'Content-Type: application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(request.body.toString('utf8'));
  } catch (error) {
    throw problems.malformedJson((error as Error).message);
  }
  const tooDeep = jsonDepthIssue(value);
  if (tooDeep !== undefined) throw problems.validationFailed([tooDeep]);
  return value;
}

/** One container still to visit by {@link jsonDepthIssue}; `parent` links rebuild the path only when needed. */
interface DepthFrame {
  node: object;
  depth: number;
  key: string | number | null;
  parent: DepthFrame | null;
}

/**
 * The first object or array of `value` (in document order) that lies deeper than `limit` levels,
 * as an issue at its JSON path, or undefined when `value` is shallow enough. Used for every JSON
 * body and for scenarios posted as YAML, so one limit bounds everything the control API stores.
 * The walk keeps its own stack rather than recursing: it must not overflow on the very input it
 * exists to refuse.
 *
 * @example
 * jsonDepthIssue({ a: { b: {} } }, 2); // { path: '$.a.b', code: 'too_deep', message: 'nested more than 2 levels deep ...' }
 */
export function jsonDepthIssue(value: unknown, limit: number = MAX_JSON_DEPTH): Issue | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const pending: DepthFrame[] = [{ node: value, depth: 1, key: null, parent: null }];
  while (pending.length > 0) {
    const frame = pending.pop()!;
    if (frame.depth > limit) {
      const keys: Array<string | number> = [];
      for (let at: DepthFrame | null = frame; at !== null && at.key !== null; at = at.parent) keys.unshift(at.key);
      return {
        path: toJsonPath(keys),
        code: 'too_deep',
        message: `nested more than ${limit} levels deep (objects and arrays, the body being level 1), the limit of bvs-mock (docs/fidelity.md row 26); flatten this value`,
      };
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.node)
      ? frame.node.map((child, index) => [index, child])
      : Object.entries(frame.node);
    // Pushed last to first, so the first child is visited first and the path reported is the first in the document.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      if (child !== null && typeof child === 'object') pending.push({ node: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return undefined;
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
 * with it, and for every other problem, the answer is 422 with the issues
 * (the first `MAX_LISTED_ISSUES`, and how many more: docs/fidelity.md row 96).
 * Every step is linear in the body: 60,000 unknown fields once took minutes
 * when each was stripped with a copy of the whole body.
 */
export function checkBody<T>(context: RouteContext, parse: (value: unknown) => ParseResult<T>, body: unknown): T {
  const first = parse(body);
  if (first.ok) return first.value;
  const unknown = first.issues.filter((issue) => issue.code === 'unknown_field');
  if (context.strictBodies || unknown.length !== first.issues.length) throw problems.validationFailed(first.issues);
  const stripped = withoutPaths(
    body,
    unknown.map((issue) => issue.path),
  );
  const second = parse(stripped);
  if (!second.ok) throw problems.validationFailed(second.issues);
  const recorded = listIssues(unknown);
  context.violations.push(...recorded.issues);
  context.violationsOmitted += recorded.omitted;
  return second.value;
}

/** The members to remove below one container: by key, those below that member, or null for the member itself. */
type Removals = Map<string | number, Removals | null>;

/**
 * `value` without the members at the given JSON paths (`$.a.b`, `$.a[0].c`), in one pass: the paths
 * are gathered into a tree first, so each container along them is copied once whatever the number of
 * members removed from it, and the values below them are never copied.
 */
function withoutPaths(value: unknown, paths: readonly string[]): unknown {
  const removals: Removals = new Map();
  for (const path of paths) {
    const keys = jsonPathSegments(path);
    if (keys.length === 0) continue;
    let node: Removals | null = removals;
    for (const key of keys.slice(0, -1)) {
      const below: Removals | null | undefined = node.get(key);
      // null: the member holding this path goes as a whole already.
      if (below === null) {
        node = null;
        break;
      }
      if (below === undefined) {
        const created: Removals = new Map();
        node.set(key, created);
        node = created;
      } else node = below;
    }
    node?.set(keys[keys.length - 1]!, null);
  }
  return without(value, removals);
}

function without(node: unknown, removals: Removals): unknown {
  if (node === null || typeof node !== 'object') return node;
  const copy = (Array.isArray(node) ? [...(node as unknown[])] : { ...(node as Record<string, unknown>) }) as Record<string | number, unknown>;
  for (const [key, below] of removals) {
    if (below === null) delete copy[key];
    // defineProperty, not assignment: a member named `__proto__` stays a member rather than setting the prototype.
    else if (Object.hasOwn(copy, key))
      Object.defineProperty(copy, key, { value: without(copy[key], below), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
