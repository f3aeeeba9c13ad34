import { DeliveryCounts } from './delivery-answers';
import { outbound } from './outbound';
import { Timestamp } from './primitives';
import { z } from './zod';

/** What the control API answers about the clock and the whole mock: its health, a reset, an advance, a run. */

const clockFields = {
  mode: z.enum(['instant', 'realtime', 'manual']).openapi({ description: 'instant, realtime (at `speed`) or manual.' }),
  speed: z.number().positive().openapi({ description: 'Realtime speed factor (kept while in other modes).' }),
  now: Timestamp.openapi({ description: 'Current simulated time.' }),
  started_at: Timestamp.openapi({ description: 'The instant the clock started at; `POST /_mock/reset` returns here.' }),
  pending: z.number().int().nonnegative().openapi({ description: 'Timers not yet fired.' }),
  next_at: Timestamp.nullable().openapi({ description: 'Due time of the next timer; null when nothing is scheduled.' }),
};

/** The clock as the control API shows it (`GET /_mock/clock`, docs/design.md "One simulated clock"). */
export const ClockDescription = outbound(z.strictObject(clockFields), 'ClockDescription');

/** `GET /_mock/health`. */
export const Health = outbound(
  z.strictObject({
    status: z.literal('ok'),
    version: z.string().openapi({ description: "bvs-mock's version." }),
    imitates: outbound(
      z.strictObject({ service: z.string(), api: z.string().openapi({ description: 'Base path of the API version imitated.', example: '/api/v2' }) }),
    ),
    seed: z.number().int().openapi({
      description:
        'The seed of ids and payloads: the one given (`--seed`), or the one drawn at start; `--seed` with it (and `--start-time` with `clock.started_at`) replays the same ids.',
    }),
    clock: ClockDescription,
    retention: outbound(
      z.strictObject({
        validations: z.number().int(),
        max_validations: z.number().int(),
        evicted_validations: z.number().int(),
        journal: outbound(z.strictObject({ entries: z.number().int(), max_entries: z.number().int() })),
      }),
    ),
    deliveries: outbound(
      z.strictObject({
        records: z.number().int(),
        max_records: z.number().int(),
        evicted_records: z.number().int(),
        max_pending_per_receiver: z.number().int().openapi({
          description: 'Deliveries one receiver may have pending; one more fails at once with `reason: receiver_backlog` (`--max-pending-per-receiver`).',
        }),
        slow_receivers: z.number().int().openapi({ description: 'Receivers the instant clock stopped waiting for (slower than a real second).' }),
        suspended_receivers: z.number().int().openapi({
          description:
            'Receivers whose last five attempts all timed out: one probe every two delivery timeouts still goes, the other attempts are recorded as `receiver_suspended` without being sent, until a probe or a redelivery is answered.',
        }),
        counts: DeliveryCounts,
      }),
    ),
  }),
  'Health',
);

/** `POST /_mock/reset`. */
export const ResetAnswer = outbound(z.strictObject({ status: z.literal('reset'), clock: ClockDescription }), 'ResetAnswer');

/** `POST /_mock/clock/advance`: the clock after the advance, and how many timers fired. */
export const ClockAdvanceAnswer = outbound(
  z.strictObject({ ...clockFields, fired: z.number().int().nonnegative().openapi({ description: 'Timers fired by the advance.' }) }),
  'ClockAdvanceAnswer',
);

/**
 * `POST /_mock/clock/run`: the clock once nothing is scheduled or in flight, or when the real-time bound
 * came first (`settled: false`), what is still pending; and the deliveries by status (docs/fidelity.md row 98).
 */
export const ClockRunAnswer = outbound(
  z.strictObject({
    ...clockFields,
    deliveries: DeliveryCounts,
    settled: z.boolean().openapi({
      description:
        'True when the run reached its end: nothing scheduled and no delivery attempt running or queued. False when `max_wait_seconds` passed first: `pending`, `next_at`, `in_flight` and `deliveries.pending` say what is left; call again to go on.',
    }),
    in_flight: z
      .number()
      .int()
      .nonnegative()
      .openapi({ description: 'Delivery attempts running or queued to start now (retries waiting for their time are counted in `pending`).' }),
    max_wait_seconds: z.number().positive().openapi({ description: 'The bound this run had, in real seconds.' }),
  }),
  'ClockRunAnswer',
);

export type ClockDescription = z.infer<typeof ClockDescription>;
export type Health = z.infer<typeof Health>;
