import { parseWith, type Issue, type ParseResult } from '../schemas';
import { SCHEMA_CATALOG, SCHEMA_NAMES, schemaNamed } from './schema-catalog';

/** Outcome of {@link validatePayload}: the schema used, and the parse result. */
export type PayloadCheck = { schema: string } & ParseResult<unknown>;

/** Schemas of what a client sends: closed, so an unknown field is a mistake even when not strict. */
const REQUEST_SCHEMAS = new Set(['EntityValidationCreateRequest', 'OAuthTokenRequest']);

/**
 * Checks one payload. With `schemaName` it uses that schema; without it, a body
 * with a `type` field is taken as a webhook event and checked against the
 * envelope of its type. Anything else needs a schema name.
 *
 * What the service sends may carry fields the spec does not list (its field lists are "not shown"), so they
 * are accepted unless `strict`; the event envelope itself stays closed (`type` plus one resource key), and so
 * do request bodies (docs/fidelity.md row 89).
 *
 * @example
 * validatePayload(JSON.parse(body)) // { schema: 'WebhookEvent', ok: true, value }
 * validatePayload(body, 'EntityValidation', { strict: true })
 */
export function validatePayload(body: unknown, schemaName?: string, options: { strict?: boolean } = {}): PayloadCheck {
  if (schemaName !== undefined) {
    const schema = schemaNamed(schemaName);
    if (!schema) return { schema: schemaName, ok: false, issues: [unknownSchema(schemaName)] };
    const tolerant = options.strict !== true && !REQUEST_SCHEMAS.has(schemaName);
    return { schema: schemaName, ...tolerate(parseWith(schema, body), body, tolerant ? 1 : Infinity) };
  }
  if (typeof body === 'object' && body !== null && 'type' in body) {
    // Unknown fields inside the resource (depth 2 and deeper) are tolerated; beside `type` they are not.
    return { schema: 'WebhookEvent', ...tolerate(parseWith(SCHEMA_CATALOG.WebhookEvent!, body), body, options.strict === true ? Infinity : 2) };
  }
  return {
    schema: '(none)',
    ok: false,
    issues: [
      {
        path: '$',
        code: 'schema_unknown',
        message: 'not a webhook event (no "type" field); name the schema with --schema, one of: ' + SCHEMA_NAMES.join(', '),
      },
    ],
  };
}

function unknownSchema(name: string): Issue {
  return { path: '$', code: 'schema_unknown', message: `no schema named "${name}"; use one of: ${SCHEMA_NAMES.join(', ')}` };
}

/**
 * The parse result without the unknown-field issues at `minDepth` or deeper (`$.a` is depth 1, `$.a.b` and
 * `$.a[0]` depth 2); valid, with the body as given, when those were its only issues.
 */
function tolerate(result: ParseResult<unknown>, body: unknown, minDepth: number): ParseResult<unknown> {
  if (result.ok || minDepth === Infinity) return result;
  const kept = result.issues.filter((issue) => issue.code !== 'unknown_field' || depthOf(issue.path) < minDepth);
  if (kept.length === result.issues.length) return result;
  return kept.length === 0 ? { ok: true, value: body } : { ok: false, issues: kept };
}

function depthOf(path: string): number {
  return (path.match(/\.[^.[]+|\[\d+\]|\["(?:[^"\\]|\\.)*"\]/g) ?? []).length;
}
