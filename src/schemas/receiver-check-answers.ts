import { EventTypeName } from './event-types';
import { idOf } from './ids';
import { outbound } from './outbound';
import { Timestamp } from './primitives';
import { z } from './zod';

/** What the control API answers about receiver checks: probe deliveries sent to one receiver, and how it answered. */

/** One probe delivery of a receiver check, with what the receiver answered. */
export const ProbeExchange = outbound(
  z.strictObject({
    request: outbound(
      z.strictObject({
        method: z.literal('POST'),
        url: z.string(),
        headers: z.record(z.string(), z.string()).openapi({ description: "As sent, but the receiver's own secret written as a placeholder." }),
        type: EventTypeName,
        bytes: z.number().int().nonnegative(),
        body_excerpt: z.string().openapi({ description: 'The first 2,000 characters of the body.' }),
      }),
    ),
    answer: outbound(
      z.strictObject({
        status: z.number().int().nullable().openapi({ description: 'Null when no HTTP answer came.' }),
        duration_ms: z.number().int().nonnegative().nullable().openapi({
          description:
            'Real milliseconds until the answer ended; null when no HTTP answer came, so that a closed port and one that never answers read the same (docs/fidelity.md row 106).',
        }),
        error: z.string().nullable().openapi({
          description:
            '`unreachable` when no HTTP answer came, whatever the reason (refused, reset, timed out, TLS failed, not HTTP); with a status, why the answer broke off after its head (`answer_truncated: ...`, `timeout`): a truncated answer is not an answer.',
        }),
        body_excerpt: z.string().openapi({ description: 'The first 200 characters of the answer; empty when no HTTP answer came.' }),
      }),
    ),
  }),
  'ProbeExchange',
);

/** One check of a receiver check: what the receiver must do, the spec rule, and how it did. */
export const ReceiverCheckResult = outbound(
  z.strictObject({
    check: z.string().openapi({ example: 'verify:wrong-bearer' }),
    expectation: z.string(),
    rule: z.string().openapi({ description: 'The rule of the spec it tests, with its section.' }),
    outcome: z.enum(['pass', 'fail', 'skipped']),
    reason: z.string().nullable().openapi({ description: 'Why it failed or was skipped; null when it passed.' }),
    exchanges: z.array(ProbeExchange),
  }),
  'ReceiverCheckResult',
);

/** A receiver check: the battery of probe deliveries sent to one receiver, graded (docs/fidelity.md row 88). */
export const ReceiverCheckReport = outbound(
  z.strictObject({
    url: z.string(),
    auth: z.enum(['none', 'secret', 'legacy']),
    quick_answer_ms: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    results: z.array(ReceiverCheckResult),
  }),
  'ReceiverCheckReport',
);

/** A receiver check run through the control API, against one of the organization's endpoints. */
export const EndpointReceiverCheck = outbound(
  z.strictObject({
    id: z.string().openapi({ example: 'rck_1' }),
    organization_id: z.string(),
    endpoint_id: idOf('whe'),
    checked_at: Timestamp.openapi({ description: 'Simulated time of the check.' }),
    report: ReceiverCheckReport,
  }),
  'EndpointReceiverCheck',
);

export const EndpointReceiverCheckList = outbound(z.strictObject({ receiver_checks: z.array(EndpointReceiverCheck) }), 'EndpointReceiverCheckList');

export type ProbeExchange = z.infer<typeof ProbeExchange>;
export type ReceiverCheckResult = z.infer<typeof ReceiverCheckResult>;
export type ReceiverCheckReport = z.infer<typeof ReceiverCheckReport>;
export type EndpointReceiverCheck = z.infer<typeof EndpointReceiverCheck>;
