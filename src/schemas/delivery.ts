import { EventTypeName } from './event-types';
import { idOf } from './ids';
import { outbound } from './outbound';
import { HttpUrl, Timestamp } from './primitives';
import { LabelField } from './label-field';
import { WebhookAuthType } from './webhook-endpoint';
import { z } from './zod';

/**
 * Delivery event states (spec §3). Transitions are bvs-mock's (docs/fidelity.md row 15):
 * pending → succeeded on a 2xx; pending → failed when retries are exhausted, the endpoint is
 * disabled, or its receiver has too many deliveries pending (row 99); pending → expired when the
 * endpoint is disabled or deleted while retries remain.
 */
export const DeliveryStatus = z.enum(['pending', 'succeeded', 'failed', 'expired']);

/**
 * Why a delivery ended without success (`failed` or `expired`), bvs-mock's own field beside the spec's
 * four statuses (docs/fidelity.md row 99): `retries_exhausted` (the 20 retries of §8 went unanswered),
 * `endpoint_disabled` and `endpoint_deleted` (rows 15, §7.3), `receiver_backlog` (the receiver already
 * had `--max-pending-per-receiver` deliveries pending, so this one failed at once, without an attempt
 * on the wire).
 */
export const DeliveryEndReason = z.enum(['retries_exhausted', 'endpoint_disabled', 'endpoint_deleted', 'receiver_backlog']);

/** One attempt of a delivery (spec §2, Delivery event record). */
export const DeliveryAttempt = outbound(
  z.strictObject({
    number: z.number().int().positive(),
    at: Timestamp,
    /** When the attempt ended by the wall clock: simulated time may run far ahead of it (manual and instant clocks). */
    real_at: Timestamp,
    /** The receiver's status code; null when no answer came (refused, reset, timeout, disabled). */
    response_code: z.number().int().nullable(),
    /** The first 1,000 characters of the receiver's answer. */
    response_body: z.string(),
    duration_ms: z.number().nonnegative(),
    /**
     * Why no answer came: `connection_refused`, `timeout`, `connection_reset`, `endpoint_disabled`, `oauth_token_refused`, ...;
     * `receiver_suspended: ...` and `receiver_backlog: ...` when bvs-mock sent nothing (docs/fidelity.md rows 99, 100).
     */
    error: z.string().nullable(),
    /** What started it: the first attempt, a scheduled retry, a redelivery, or a duplicate fault. */
    trigger: z.enum(['first', 'retry', 'redelivery', 'duplicate_fault']),
    request_headers: z
      .record(z.string(), z.string())
      .optional()
      .openapi({
        description:
          "The request headers sent, by lower-case name, the authorization's secret masked to its last 4 characters (`Bearer ****f00d`; none of a secret shorter than 8); absent when nothing was sent (docs/fidelity.md row 30).",
        example: { 'content-type': 'application/json', 'user-agent': 'bvs-mock/0.1.0', authorization: 'Bearer ****f00d' },
      }),
  }),
  'DeliveryAttempt',
);

/** A delivery event record, as `GET /_mock/events` lists it. */
export const DeliveryEvent = outbound(
  z.strictObject({
    id: idOf('evt'),
    type: EventTypeName,
    organization_id: z.string(),
    model: z.enum(['endpoint', 'legacy']),
    endpoint_id: idOf('whe').nullable(),
    url: HttpUrl,
    auth_type: WebhookAuthType.or(z.literal('legacy_token')),
    status: DeliveryStatus,
    /** Why it ended without success; null while pending and once succeeded (docs/fidelity.md row 99). */
    reason: DeliveryEndReason.nullable().openapi({
      description:
        'Why the delivery ended without success: `retries_exhausted`, `endpoint_disabled`, `endpoint_deleted` or `receiver_backlog` (the receiver had too many deliveries pending). Null while pending and once succeeded.',
    }),
    entity_validation_id: idOf('evl'),
    resource_id: z.string(),
    created_at: Timestamp,
    next_attempt_at: Timestamp.nullable(),
    attempts: z.array(DeliveryAttempt),
    /** The body sent (the event envelope), exactly as delivered. */
    payload: z.record(z.string(), z.unknown()),
    label: LabelField.openapi({
      description:
        "The label the request that created its validation carried (header `x-bvs-mock-label`; bvs-mock/testing sends the current test's name); absent when none.",
    }),
  }),
  'DeliveryEvent',
);

/** A fault to inject (`POST /_mock/faults`). */
export const FaultRequest = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('duplicate_delivery'),
    /** Share of deliveries sent twice, from 0 to 1. */
    share: z.number().min(0).max(1).default(1),
    event_type: EventTypeName.optional(),
    organization_id: z.string().optional(),
  }),
  z.strictObject({
    kind: z.literal('delay_delivery'),
    share: z.number().min(0).max(1).default(1),
    /** Simulated seconds a chosen delivery waits before its first attempt (so later events may overtake it). */
    seconds: z.number().positive().max(86_400),
    event_type: EventTypeName.optional(),
    organization_id: z.string().optional(),
  }),
  z.strictObject({
    kind: z.literal('tolerance'),
    /** Share of events whose deliveries carry fields and values the spec does not list (tolerance mode), from 0 to 1. */
    share: z.number().min(0).max(1).default(1),
    event_type: EventTypeName.optional(),
    organization_id: z.string().optional(),
  }),
  z.strictObject({
    kind: z.literal('api_error'),
    share: z.number().min(0).max(1).default(1),
    method: z.string().toUpperCase().optional(),
    /** A path prefix, like /api/v2/entity_validations. */
    path: z.string().startsWith('/').optional(),
    /** The error answered: 429 rate_limited, 500 internal_error or 503 service_unavailable. */
    code: z.enum(['rate_limited', 'internal_error', 'service_unavailable']).default('service_unavailable'),
    /** With rate_limited: the seconds sent as `Retry-After` (default 1). */
    retry_after: z.number().int().min(0).max(3600).optional(),
    /** How many requests get it; absent: until the faults are cleared. */
    count: z.number().int().positive().optional(),
  }),
  z.strictObject({
    kind: z.literal('api_reset'),
    share: z.number().min(0).max(1).default(1),
    method: z.string().toUpperCase().optional(),
    path: z.string().startsWith('/').optional(),
    /** How many requests have their connection reset, with no answer; absent: until the faults are cleared. */
    count: z.number().int().positive().optional(),
  }),
  z.strictObject({
    kind: z.literal('token_revoked'),
    share: z.number().min(0).max(1).default(1),
    /** The access token of the next matching request is revoked before its expiry: 401 invalid_token. */
    count: z.number().int().positive().optional(),
    organization_id: z.string().optional(),
  }),
  z.strictObject({
    kind: z.literal('api_latency'),
    share: z.number().min(0).max(1).default(1),
    method: z.string().toUpperCase().optional(),
    path: z.string().startsWith('/').optional(),
    /** Real milliseconds added before the answer. */
    ms: z.number().int().positive().max(60_000),
    count: z.number().int().positive().optional(),
  }),
]);

export type DeliveryStatus = z.infer<typeof DeliveryStatus>;
export type DeliveryEndReason = z.infer<typeof DeliveryEndReason>;
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;
export type DeliveryEvent = z.infer<typeof DeliveryEvent>;
export type FaultRequest = z.infer<typeof FaultRequest>;
