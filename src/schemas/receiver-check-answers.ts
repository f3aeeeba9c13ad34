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
    check: z.string().openapi({ example: 'refuse:wrong-bearer' }),
    expectation: z.string().openapi({
      description:
        'What it observes: an answer seen from outside (`answers a duplicate with 2xx`), or, for the `processed:*` checks, what the receiver processed as its side-effect probe tells.',
    }),
    rule: z.string().openapi({ description: 'The rule of the spec it tests, with its section.' }),
    outcome: z.enum(['pass', 'fail', 'skipped']).openapi({ description: 'A skipped check is not a pass: the report is then `incomplete`.' }),
    reason: z.string().nullable().openapi({ description: 'Why it failed or was skipped; null when it passed.' }),
    exchanges: z.array(ProbeExchange),
    processed: z
      .array(
        outbound(
          z.strictObject({
            type: z.string(),
            id: z.string(),
            times: z.number().int().nonnegative().openapi({ description: 'How many times the receiver processed it during the check, by its probe.' }),
          }),
        ),
      )
      .nullable()
      .openapi({ description: 'For a `processed:*` check that ran: each event it sent and how many times the receiver processed it; null otherwise.' }),
  }),
  'ReceiverCheckResult',
);

/** A receiver check: the battery of probe deliveries sent to one receiver, graded (docs/fidelity.md row 88). */
export const ReceiverCheckReport = outbound(
  z.strictObject({
    url: z.string(),
    auth: z.enum(['none', 'secret', 'legacy']).openapi({
      description: '`none`: checked without Authorization, right only for an endpoint whose auth_type is none; the `refuse:*` checks are then skipped.',
    }),
    observe: z.string().nullable().openapi({
      description:
        'The side-effect probe: its URL, `callback` for a callback of bvs-mock/testing, null without one (the `processed:*` checks are then skipped).',
    }),
    outcome: z.enum(['pass', 'fail', 'incomplete']).openapi({
      description: '`pass` only when every check ran and passed; `fail` when one failed; `incomplete` when none failed and some were skipped.',
    }),
    summary: z.string().openapi({
      description: 'The summary line: the counts, which checks were skipped and why, and a word when the receiver was checked without authorization.',
      example: '31 checks: 27 passed, 0 failed, 4 skipped (processed:duplicate-once, ...: no side-effect probe was given (--observe URL))',
    }),
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
