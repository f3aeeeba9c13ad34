import type { ZodType } from 'zod';
import { jsonDepthIssue, MAX_JSON_DEPTH } from '../api/read-body';
import { closedIssues } from '../contract';
import { errorsOf } from '../openapi';
import { API_ERROR_STATUS, ApiError, OAuthError, oauthErrorOf, jsonPathSegments, type DriftDifference, type Issue } from '../schemas';
import type { Route } from '../api/router';
import { maskValue, type Exchange } from './exchange';

/** A difference before it is counted. */
export type Finding = Omit<DriftDifference, 'count' | 'first_request_id'>;

/** An answer slower than this is a difference: bvs-mock answers at once, so a client tuned on it may wait too little. */
const SLOW_ANSWER_MS = 5_000;

/** The rows of docs/fidelity.md a kind of difference concerns. */
const ROWS: Record<DriftDifference['kind'], number | null> = {
  unknown_field: 89,
  unseen_value: 89,
  missing_field: null,
  wrong_type: null,
  invalid_value: null,
  undocumented_status: 80,
  error_body: 25,
  slow_answer: null,
  unexpected_content_type: null,
};

/** Rows for the answers whose whole shape is bvs-mock's choice (docs/fidelity.md). */
const OPERATION_ROWS: Readonly<Record<string, number>> = { getDataSourceRunRecords: 17, createOAuthToken: 20 };

/**
 * What differs between the contract and one exchange: the request against the operation's body schema (closed),
 * the status against the ones the document lists for the operation, a successful answer against its schema checked
 * closed (unknown and missing fields, types, values beyond those seen), an error answer against the one error shape
 * and the codes the document lists, and the answer time.
 */
export function checkExchange(route: Route, exchange: Exchange, slowAnswerMs = SLOW_ANSWER_MS): Finding[] {
  const document = route.document;
  if (document === undefined) return [];
  const operation = route.operation;
  const findings: Finding[] = [];
  const add = (side: Finding['side'], kind: Finding['kind'], path: string, expected: string, actual: string) =>
    findings.push({ operation, side, kind, path, expected, actual, row: side === 'request' ? null : rowOf(operation, kind) });
  const body = document.body;
  if (body !== undefined && exchange.requestBody.length > 0) {
    const form = body.contentType === 'application/x-www-form-urlencoded';
    const parsed = form ? Object.fromEntries(new URLSearchParams(exchange.requestBody)) : parseJson(exchange.requestBody);
    if (parsed !== undefined)
      for (const issue of closedIssues(body.schema, parsed)) add('request', kindOf(issue), issue.path, expectation(issue), valueAt(parsed, issue.path));
  }
  const answer = document.answer;
  const codes = errorsOf(route);
  const statuses = [answer.status, ...new Set(codes.map((code) => (route.errorForm === 'oauth2' ? oauthErrorOf(code)[1] : API_ERROR_STATUS[code])))];
  if (!statuses.includes(exchange.status as never))
    add('answer', 'undocumented_status', '$status', `one of ${[...new Set(statuses)].sort().join(', ')}`, String(exchange.status));
  const contentType = (exchange.answerHeaders['content-type'] ?? '').split(';')[0]!.trim();
  if (exchange.status === answer.status && answer.schema !== undefined) {
    const expectedType = answer.contentType ?? 'application/json';
    if (contentType !== expectedType) add('answer', 'unexpected_content_type', '$headers["content-type"]', expectedType, contentType || '(none)');
    else if (expectedType === 'application/json')
      checkBody(answer.schema, exchange.answerBody, (issue, value) => add('answer', kindOf(issue), issue.path, expectation(issue), valueAt(value, issue.path)));
  } else if (exchange.status >= 400) {
    const oauth = route.errorForm === 'oauth2';
    const known = oauth ? codes.map((code) => oauthErrorOf(code)[0]) : codes;
    checkBody(oauth ? OAuthError : ApiError, exchange.answerBody, (issue, value) =>
      add('answer', 'error_body', issue.path, expectation(issue), valueAt(value, issue.path)),
    );
    const code = errorCode(exchange.answerBody, oauth);
    if (code !== undefined && !known.includes(code as never))
      add('answer', 'error_body', oauth ? '$.error' : '$.error.code', `one of ${[...new Set(known)].join(', ')}`, JSON.stringify(code));
  }
  if (exchange.durationMs > slowAnswerMs) add('answer', 'slow_answer', '$time', `at most ${slowAnswerMs} ms`, `${Math.round(exchange.durationMs)} ms`);
  return findings;
}

/** What differs between a schema checked closed and a value (a webhook payload as recorded): kind, JSON path, what the schema says, what was sent. */
export function bodyFindings(schema: ZodType, value: unknown): Array<Pick<Finding, 'kind' | 'path' | 'expected' | 'actual'>> {
  return closedIssues(schema, value).map((issue) => ({
    kind: kindOf(issue),
    path: issue.path,
    expected: expectation(issue),
    actual: valueAt(value, issue.path),
  }));
}

function rowOf(operation: string, kind: Finding['kind']): number | null {
  return ROWS[kind] ?? OPERATION_ROWS[operation] ?? null;
}

function checkBody(schema: ZodType, text: string, report: (issue: Issue, value: unknown) => void): void {
  const value = parseJson(text);
  if (value === undefined) {
    report({ path: '$', code: 'invalid_type', message: 'JSON' }, text.slice(0, 80));
    return;
  }
  for (const issue of closedIssues(schema, value)) report(issue, value);
}

function errorCode(text: string, oauth: boolean): unknown {
  const value = parseJson(text) as { error?: unknown } | undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  return oauth ? value.error : (value.error as { code?: unknown } | undefined)?.code;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function kindOf(issue: Issue): Finding['kind'] {
  if (issue.code === 'unknown_field' || issue.code === 'unseen_value') return issue.code;
  if (issue.code === 'invalid_type') return /received undefined|required/i.test(issue.message) ? 'missing_field' : 'wrong_type';
  return 'invalid_value';
}

/** What the contract says at the issue's place: its message without the value given. */
function expectation(issue: Issue): string {
  if (issue.code === 'unknown_field') return 'no such field';
  return issue.message.replace(/;? ?(given|got|received)\b.*$/i, '').trim() || issue.code;
}

/** The value at a JSON path, as JSON, credentials masked; `(absent)` when there is none. */
function valueAt(value: unknown, path: string): string {
  let here: unknown = value;
  for (const key of jsonPathSegments(path)) {
    if (typeof here !== 'object' || here === null) return '(absent)';
    here = (here as Record<string, unknown>)[String(key)];
  }
  // A value nested deeper than any of the service's is named, not walked: masking and writing it would recurse through it.
  if (jsonDepthIssue(here) !== undefined) return `(a value nested more than ${MAX_JSON_DEPTH} levels deep)`;
  const leaf = jsonPathSegments(path).at(-1);
  const text = JSON.stringify(maskValue(here, typeof leaf === 'string' ? leaf : ''));
  return text === undefined ? '(absent)' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
