import { RelayedDelivery } from './relay-answers';
import { Timestamp } from './primitives';
import { z } from './zod';

/** The `format` of a recording (`bvs-mock proxy --record FILE`, `bvs-mock listen --record FILE`). */
export const RECORDING_FORMAT = 'bvs-mock/recording';

/** The recording format version this code writes and reads; a newer one is refused. */
export const RECORDING_VERSION = 1;

/** One API call through `bvs-mock proxy`, credentials left out or masked, bodies as text. */
export const RecordedExchange = z.strictObject({
  request_id: z.string(),
  operation: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  request_headers: z.record(z.string(), z.string()),
  request_body: z.string(),
  answer_headers: z.record(z.string(), z.string()),
  answer_body: z.string(),
  /** Real time the request came. */
  started_at: Timestamp,
  duration_ms: z.number().nonnegative(),
});

/** One validation tree of a recording: what of the exchanges and deliveries concerns it, by their ids. */
export const RecordedTree = z.strictObject({
  /** The main entity validation (`evl_…`). */
  tree_id: z.string(),
  exchanges: z.array(z.string()),
  deliveries: z.array(z.string()),
});

/**
 * A recording: the API exchanges (proxy) or the webhook deliveries (listen, first arrivals and retries) as they
 * happened, with their real times, grouped per validation tree where the ids tell. No credential is ever in it.
 */
export const Recording = z.strictObject({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  /** Which command wrote it. */
  source: z.enum(['proxy', 'listen']),
  /** The upstream (proxy) or the receiver deliveries were forwarded to (listen). */
  peer: z.string(),
  started_at: Timestamp,
  ended_at: Timestamp,
  /** JSON paths masked with `--redact`. */
  redacted: z.array(z.string()),
  exchanges: z.array(RecordedExchange),
  deliveries: z.array(RelayedDelivery),
  trees: z.array(RecordedTree),
});

export type RecordedExchange = z.infer<typeof RecordedExchange>;
export type Recording = z.infer<typeof Recording>;
