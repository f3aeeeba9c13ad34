import { outbound } from './outbound';
import { Timestamp } from './primitives';
import { z } from './zod';

/** What `bvs-mock listen` answers at `GET /_mock/relay`: the deliveries it relayed and what it found in them. */

/** What the local receiver answered a relayed delivery, as passed back to the service. */
export const RelayAnswer = outbound(
  z.strictObject({
    status: z.number().int().nullable().openapi({ description: 'Null when the receiver gave no HTTP answer (the service is then answered 502).' }),
    body_excerpt: z.string().openapi({ description: 'The first 1,000 characters of the answer.' }),
    error: z.string().nullable().openapi({ description: 'Why no whole answer came: `connection_refused`, `timeout`, ...; null for a whole answer.' }),
    duration_ms: z.number().int().nonnegative(),
  }),
);

/** One delivery the service sent, as relayed: a plain record a recording can keep. */
export const RelayedDelivery = outbound(
  z.strictObject({
    id: z.string().openapi({ description: "The relay's own number for it, `rly_1`, `rly_2`, ... in arrival order.", example: 'rly_1' }),
    path: z.string().openapi({ description: 'The path the service posted to.' }),
    event_type: z.string().nullable().openapi({ description: "The body's `type`; null when the body has none." }),
    resource_id: z.string().nullable().openapi({ description: "The `id` of the body's resource; null when it has none." }),
    tree_id: z.string().nullable().openapi({ description: 'The main entity validation of its validation tree, as far as the deliveries so far tell.' }),
    headers: z.record(z.string(), z.string()).openapi({ description: 'As received, hop-by-hop headers and credentials (`authorization`, `cookie`) left out.' }),
    body: z.unknown().openapi({ description: 'The body as JSON, or as text when it is not JSON.' }),
    arrived_at: Timestamp.openapi({ description: 'Real time of arrival.' }),
    attempt: z.number().int().positive().openapi({
      description:
        'How many times this event (its type, resource id and the instant its body is from) has arrived so far: 2 or more is a retry or a redelivery.',
    }),
    answer: RelayAnswer,
  }),
  'RelayedDelivery',
);

/** A delivery as a finding names it. */
export const RelayFindingEvent = outbound(
  z.strictObject({
    delivery_id: z.string(),
    event_type: z.string().nullable(),
    resource_id: z.string().nullable(),
    arrived_at: Timestamp,
  }),
);

/** Something a delivery, or the order of deliveries, broke. */
export const RelayFinding = outbound(
  z.strictObject({
    kind: z.enum(['envelope', 'authorization', 'order']),
    rule: z.string().openapi({ description: 'The rule of the spec (or the row of docs/fidelity.md) it breaks.' }),
    message: z.string(),
    tree_id: z.string().nullable(),
    events: z.array(RelayFindingEvent).openapi({ description: 'The deliveries involved, the one that broke the rule last.' }),
  }),
  'RelayFinding',
);

/** `GET /_mock/relay`. */
export const RelayReport = outbound(
  z.strictObject({
    forward_to: z.string().openapi({ description: 'The local receiver deliveries are relayed to.' }),
    deliveries: z.array(RelayedDelivery).openapi({ description: 'In arrival order; the oldest are dropped past 10,000.' }),
    findings: z.array(RelayFinding),
  }),
  'RelayReport',
);
export type RelayedDelivery = z.infer<typeof RelayedDelivery>;
export type RelayFinding = z.infer<typeof RelayFinding>;
export type RelayReport = z.infer<typeof RelayReport>;
