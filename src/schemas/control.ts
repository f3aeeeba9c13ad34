import { EVENT_TYPES, EventTypeName } from './event-types';
import { HttpUrl } from './primitives';
import { WebhookAuthType } from './webhook-endpoint';
import { z } from './zod';

/**
 * Bodies of the control API (`/_mock/...`): the dashboard's and the tests'
 * levers. Strict like every request body; `organization_id` may be given in any
 * of them (docs/design.md, control API).
 */
const organization = { organization_id: z.string().optional() };

export const ClockAdvanceRequest = z.strictObject({
  ...organization,
  seconds: z
    .number({ message: 'must be a number of seconds' })
    .nonnegative({ message: 'must not be negative: the clock never goes back (use POST /_mock/reset)' })
    .max(10 * 365 * 24 * 3600, { message: 'must be at most ten years' }),
});

/**
 * `POST /_mock/clock/run`: how long to wait at most, in real seconds, before answering with what is
 * still pending (docs/fidelity.md row 98). Left out: the server's bound (`--max-run-wait`, 30 s by default).
 */
export const ClockRunRequest = z.strictObject({
  ...organization,
  max_wait_seconds: z
    .number({ message: 'must be a number of real seconds, like 30' })
    .positive({ message: 'must be above 0: the real seconds to wait at most before answering with what is still pending' })
    .max(86_400, { message: 'must be at most 86400 (a day) real seconds' })
    .optional()
    .openapi({
      description:
        "Real seconds to wait at most before answering with what is still pending (`settled: false`). Default: the server's `--max-run-wait` (30 s).",
      example: 30,
    }),
});

export const SubmitItemsRequest = z.strictObject({ ...organization, items: z.array(z.string().min(1)).min(1).optional() });

export const AnalyzeRequest = z.strictObject({
  ...organization,
  information_sheet: z.record(z.string(), z.unknown()).default({}),
  chat: z.array(z.strictObject({ role: z.enum(['assistant', 'user']), content: z.string() })).default([]),
});

export const AssignRequest = z.strictObject({ ...organization, reviewer_email: z.email(), role: z.enum(['reviewer', 'responsible']).default('reviewer') });

export const CompleteAssignmentRequest = z.strictObject({ ...organization, reviewer_email: z.email() });

export const EvaluateRequest = z.strictObject({ ...organization, comment: z.string().min(1) });

/** A body that carries only the organization, for actions without parameters. */
export const OrganizationOnlyRequest = z.strictObject(organization);

/**
 * A secret a test chooses for an endpoint instead of a generated one (docs/fidelity.md row 84): what it
 * sends is `Authorization: Bearer <secret>`, so printable characters without spaces.
 */
export const ChosenSecret = z
  .string()
  .regex(/^[\x21-\x7e]{1,256}$/, { message: 'must be 1 to 256 printable characters without spaces (it is sent as Authorization: Bearer <secret>)' });

/** A webhook endpoint created through the control API, as the dashboard would (spec §2, §4). */
export const WebhookEndpointCreate = z
  .strictObject({
    ...organization,
    name: z.string().min(1),
    url: HttpUrl,
    enabled: z.boolean().default(true),
    auth_type: WebhookAuthType.default('none'),
    /** With auth_type secret: this secret instead of a generated one. */
    secret: ChosenSecret.optional(),
    subscribed_events: z
      .array(EventTypeName)
      .min(1)
      .default([...EVENT_TYPES]),
  })
  .superRefine((endpoint, context) => {
    if (endpoint.secret !== undefined && endpoint.auth_type !== 'secret')
      context.addIssue({
        code: 'custom',
        path: ['secret'],
        message: `only an endpoint with auth_type secret has a secret; this one has ${endpoint.auth_type}`,
      });
  });

/** `POST /_mock/webhook_endpoints/:id/secret`: a chosen secret, or none for a generated one. */
export const WebhookEndpointSecretRequest = z.strictObject({ ...organization, secret: ChosenSecret.optional() });

/** A change to a webhook endpoint. */
export const WebhookEndpointPatch = z.strictObject({
  ...organization,
  name: z.string().min(1).optional(),
  url: HttpUrl.optional(),
  enabled: z.boolean().optional(),
  auth_type: WebhookAuthType.optional(),
  subscribed_events: z.array(EventTypeName).min(1).optional(),
});

/**
 * Query parameters of the control API, as its document describes them (the handlers read them from the
 * query string and answer 422 at `$query.<name>` for a bad value).
 */
const organizationQuery = {
  organization_id: z.string().optional().openapi({ description: 'The organization acted on; default: the default organization.' }),
};
const pageQuery = {
  limit: z.number().int().min(1).max(1000).optional().openapi({ description: 'Items on the page, 1 to 1000; default 100.' }),
  cursor: z.string().optional().openapi({ description: '`next_cursor` of the previous page, as it was given.' }),
};

/** `?organization_id=` of a control call without other parameters. */
export const OrganizationQuery = z.object(organizationQuery);

/** `GET /_mock/events`: filters and page. */
export const DeliveryEventQuery = z.object({
  ...organizationQuery,
  type: EventTypeName.optional(),
  status: z.enum(['pending', 'succeeded', 'failed', 'expired']).optional(),
  resource_id: z.string().optional(),
  endpoint_id: z.string().optional(),
  entity_validation_id: z.string().optional(),
  label: z
    .string()
    .optional()
    .openapi({ description: 'Only the records of validations created under this label (`x-bvs-mock-label`, the test that made them).' }),
  order: z.enum(['oldest', 'newest']).optional().openapi({ description: 'oldest first (default), or newest first; a cursor keeps the order it was given in.' }),
  ...pageQuery,
});

/** `GET /_mock/emitted`: filters and page. */
export const EmittedQuery = z.object({ ...organizationQuery, type: EventTypeName.optional(), entity_validation_id: z.string().optional(), ...pageQuery });

/** `GET /_mock/requests`: filters and page. */
export const JournalQuery = z.object({
  organization_id: z.string().optional().openapi({ description: 'Only the requests of this organization (by its credential).' }),
  violations: z.enum(['true', 'false']).optional().openapi({ description: '`true`: only requests with contract violations.' }),
  operation: z.string().optional().openapi({ description: 'Only the requests of this operation (its operationId, as `operation` shows it).' }),
  method: z.string().optional().openapi({ description: 'Only the requests of this HTTP method (any case).' }),
  path: z.string().optional().openapi({
    description: 'Only the requests to this path: exact, or a template whose `{name}` segments each stand for one segment (`/api/v2/entity_validations/{id}`).',
  }),
  label: z.string().optional().openapi({ description: 'Only the requests that carried this label (`x-bvs-mock-label`, the test that sent them).' }),
  status: z.number().int().min(100).max(599).optional().openapi({ description: 'Only the requests answered with this status.' }),
  ...pageQuery,
});

/** `GET /_mock/report`: the format. */
export const ReportQuery = z.object({
  format: z.enum(['json', 'markdown', 'junit']).optional().openapi({ description: 'json (default), markdown (a CI job summary) or junit (JUnit XML).' }),
});

/** `POST /_mock/receiver-checks`: the endpoint whose receiver is checked, and its side-effect probe. */
export const ReceiverCheckRequest = z.strictObject({
  ...organization,
  endpoint_id: z.string().regex(/^whe_[A-Za-z0-9_-]{1,64}$/, { message: 'must be an id of the form whe_<suffix>' }),
  observe: z.string().max(2048).optional().openapi({
    description:
      "The receiver's side-effect probe: a read-only URL of its test build answering what it processed (a ProcessedState, docs/receiver-probe.md). With it the behaviour checks (`processed:*`) grade what the receiver did; without it they are skipped and the check's outcome is `incomplete`. Reached as the endpoint's URL is (no credentials, no link-local or metadata address).",
    example: 'http://127.0.0.1:3000/test/processed',
  }),
});
