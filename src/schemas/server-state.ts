import { WorldSnapshot } from './world-snapshot';
import { z } from './zod';

/** The `format` of the file `--state-file` keeps: every session of a server, to restart where it stood. */
export const SERVER_STATE_FORMAT = 'bvs-mock/server-state';

/** The state file version this code writes and reads; a newer one is refused, never half-loaded. */
export const SERVER_STATE_VERSION = 1;

/** What is read first of a state file: what it is and which version wrote it. */
export const ServerStateHeader = z.object({ format: z.literal(SERVER_STATE_FORMAT), version: z.number().int().min(1) });

/** One session of a state file: its id, label and making, and its world's snapshot. */
export const SessionState = z.object({
  id: z.string().regex(/^ses_[0-9a-f]{20}$/),
  label: z.string().nullable(),
  /** When it was made, on the wall clock (epoch ms). */
  created_at: z.number().int(),
  /** What its world was made with besides what the snapshot holds. */
  strict: z.boolean(),
  tolerance: z.boolean(),
  token_clock: z.enum(['simulated', 'wall']),
  snapshot: WorldSnapshot,
});

/**
 * The file of `--state-file` (docs/fidelity.md row 119): the default session's world and every other session,
 * each as its world's snapshot; written whole to a temporary file and renamed over the last one.
 */
export const ServerState = z.object({
  format: z.literal(SERVER_STATE_FORMAT),
  version: z.literal(SERVER_STATE_VERSION),
  saved_at: z.string(),
  default: WorldSnapshot,
  sessions: z.array(SessionState),
});

export type SessionState = z.infer<typeof SessionState>;
export type ServerState = z.infer<typeof ServerState>;
