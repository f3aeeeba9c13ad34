import { ClockDescription } from './clock-answers';
import { OrganizationConfig } from './config';
import { DeliveryCounts } from './delivery-answers';
import { outbound } from './outbound';
import { Timestamp } from './primitives';
import { ReadingsInput } from './readings';
import { z } from './zod';

/**
 * Sessions (`/_mock/sessions`): one running bvs-mock holding many isolated worlds, each with its own clock,
 * organizations and credentials, validations, endpoints, deliveries, faults, journal and report
 * (docs/design.md, "Sessions"; docs/fidelity.md rows 114 to 118).
 */

/** A session's id: `ses_` and 20 lowercase hex digits, or `default` for the default session. */
export const SessionId = z
  .string()
  .regex(/^(ses_[0-9a-f]{20}|default)$/)
  .openapi({ description: 'A session id: `ses_` and 20 hex digits; `default` for the default session.', example: 'ses_6f1c2a9b0d4e8f7a3c5b' });

/** The clock of a new session; each field left out takes the server's own (`--clock`, `--start-time`, `--speed`, `--token-clock`). */
export const SessionClockRequest = z.strictObject({
  mode: z.enum(['instant', 'realtime', 'manual']).optional(),
  start_time: z
    .string()
    .min(1)
    .optional()
    .openapi({ description: "`now`, or an ISO 8601 instant with its offset (like `2026-01-15T10:00:00Z`); default: the server's start time rule." }),
  speed: z.number().positive().max(1_000_000).optional(),
  token_clock: z.enum(['simulated', 'wall']).optional(),
});

/** `POST /_mock/sessions`: every field optional. */
export const SessionCreateRequest = z.strictObject({
  label: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'A name for people: the test file or job it serves, shown by the dashboard and the list.' }),
  clock: SessionClockRequest.optional(),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2_147_483_647)
    .optional()
    .openapi({ description: 'Seed of ids and payloads; default: one drawn at random, answered as `seed`.' }),
  organizations: z.array(OrganizationConfig).min(1).max(100).optional().openapi({
    description:
      "The organizations, in the configuration file's form (docs/design.md). An organization without `api_keys`, `oauth_clients` or `settings.legacy_webhook_token` gets generated ones; given ones must not be in use by another session. Default: one organization `default` with generated credentials.",
  }),
  scenarios: z.array(z.record(z.string(), z.unknown())).max(100).optional().openapi({
    description: 'Scenario files (as JSON) this session plays besides the built-in ones and those of `--scenarios`; a reset keeps them.',
  }),
  strict: z.boolean().optional().openapi({ description: "Refuse unknown request fields (`--strict`); default: the server's." }),
  tolerance: z.boolean().optional().openapi({ description: "Tolerance mode (`--tolerance`); default: the server's." }),
  readings: ReadingsInput.optional().openapi({
    description:
      'Readings of the spec where it contradicts itself, by name (`bvs-mock readings` lists them): `{ "ready-on-main-failure": "withheld" }`. Each left out is the server\'s (`--reading`). A snapshot brings its own.',
  }),
  snapshot: z.unknown().optional().openapi({
    description:
      "A session's snapshot (`GET /_mock/sessions/{id}/snapshot`): the new session goes on exactly where it stood, with its organizations, seed, clock and scenarios, so `organizations`, `seed`, `clock`, `scenarios` and `readings` are not given with it. Its API keys and OAuth clients are kept when no other session uses them, else new ones are generated and answered; access tokens issued before it are not carried over. A snapshot of a newer format is refused (docs/fidelity.md row 118).",
  }),
});

/** One organization's credentials in a session. */
export const SessionOrganization = outbound(
  z.strictObject({
    id: z.string(),
    api_keys: z.array(z.string()),
    oauth_clients: z.array(outbound(z.strictObject({ client_id: z.string(), client_secret: z.string(), scopes: z.array(z.string()) }))),
    legacy_webhook_token: z
      .string()
      .nullable()
      .openapi({ description: 'What legacy-model webhooks carry as `Authorization: Bearer <token>`; null when none is set.' }),
  }),
  'SessionOrganization',
);

const sessionFields = {
  id: SessionId,
  label: z.string().nullable(),
  default: z
    .boolean()
    .openapi({ description: 'The default session: what `/_mock/…` and the credentials of the configuration reach. It never expires and cannot be ended.' }),
  control_base: z.string().openapi({ description: 'The path its control operations are under: `/_mock/sessions/{id}` (`/_mock` for the default session).' }),
  created_at: Timestamp.openapi({ description: 'When it was made (wall clock).' }),
  last_used_at: Timestamp.openapi({ description: 'Its last request, API or control (wall clock).' }),
  expires_at: Timestamp.nullable().openapi({
    description: 'When it ends if no request reaches it before (wall clock, `--session-ttl` after its last request); null for the default session.',
  }),
  seed: z.number().int(),
  clock: ClockDescription,
  counts: outbound(
    z.strictObject({
      organizations: z.number().int().nonnegative(),
      validations: z.number().int().nonnegative().openapi({ description: 'Main validations kept.' }),
      endpoints: z.number().int().nonnegative(),
      requests: z.number().int().nonnegative().openapi({ description: 'API requests in its journal.' }),
      deliveries: DeliveryCounts,
    }),
  ),
};

/** A session as `GET /_mock/sessions` lists it: no credentials. */
export const SessionSummary = outbound(z.strictObject(sessionFields), 'SessionSummary');

/** `POST /_mock/sessions`: the session with its credentials; `GET /_mock/sessions/{id}` shows its secrets as `<set>`. */
export const SessionAnswer = outbound(z.strictObject({ ...sessionFields, organizations: z.array(SessionOrganization) }), 'SessionAnswer');

/** `GET /_mock/sessions`. */
export const SessionList = outbound(
  z.strictObject({
    sessions: z.array(SessionSummary).openapi({ description: 'The default session first, then the others by creation.' }),
    limits: outbound(
      z.strictObject({
        max_sessions: z.number().int().positive().openapi({ description: 'Sessions besides the default one held at once (`--max-sessions`).' }),
        session_ttl_seconds: z.number().int().positive().openapi({ description: 'Idle seconds after which a session ends (`--session-ttl`).' }),
      }),
    ),
  }),
  'SessionList',
);

/** `DELETE /_mock/sessions/{id}`. */
export const SessionEnded = outbound(
  z.strictObject({
    id: SessionId,
    status: z.literal('ended'),
    deliveries_cancelled: z.number().int().nonnegative().openapi({ description: 'Deliveries that were still due or in flight, cancelled.' }),
  }),
  'SessionEnded',
);

export type SessionCreateRequest = z.infer<typeof SessionCreateRequest>;
export type SessionAnswer = z.infer<typeof SessionAnswer>;
export type SessionSummary = z.infer<typeof SessionSummary>;
export type SessionList = z.infer<typeof SessionList>;
export type SessionEnded = z.infer<typeof SessionEnded>;
