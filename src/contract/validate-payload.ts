import { parseWith, type Issue, type ParseResult } from '../schemas';
import { SCHEMA_CATALOG, SCHEMA_NAMES } from './schema-catalog';

/** Outcome of {@link validatePayload}: the schema used, and the parse result. */
export type PayloadCheck = { schema: string } & ParseResult<unknown>;

/**
 * Checks one payload. With `schemaName` it uses that schema; without it, a body
 * with a `type` field is taken as a webhook event and checked against the
 * envelope of its type. Anything else needs a schema name.
 *
 * @example
 * validatePayload(JSON.parse(body)) // { schema: 'WebhookEvent', ok: true, value }
 * validatePayload(body, 'EntityValidation')
 */
export function validatePayload(body: unknown, schemaName?: string): PayloadCheck {
  if (schemaName !== undefined) {
    const schema = SCHEMA_CATALOG[schemaName];
    if (!schema) return { schema: schemaName, ok: false, issues: [unknownSchema(schemaName)] };
    return { schema: schemaName, ...parseWith(schema, body) };
  }
  if (typeof body === 'object' && body !== null && 'type' in body) {
    return { schema: 'WebhookEvent', ...parseWith(SCHEMA_CATALOG.WebhookEvent!, body) };
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
