import { BvsMockConfig } from './config';
import { ReadingsInput } from './readings';
import { ReliedOnChoice } from './report-answers';
import { z } from './zod';

/** The `format` of a world's snapshot document. */
export const WORLD_SNAPSHOT_FORMAT = 'bvs-mock/world-snapshot';

/** The snapshot format version this code writes and reads; a newer one is refused, never half-loaded. */
export const WORLD_SNAPSHOT_VERSION = 1;

/** What is read first of an uploaded snapshot: what it is and which version wrote it. */
export const WorldSnapshotHeader = z.object({
  format: z.literal(WORLD_SNAPSHOT_FORMAT),
  version: z.number().int().min(1),
});

/** A random source's position: sfc32's four 32-bit words. */
const RandomPosition = z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]);

/**
 * A timer still due, as plain data: its instant (epoch ms) and its descriptor, a `kind` and its arguments
 * (`play.outcome`, `play.formation`, `play.report`, `flow.step`, `flow.extract`, `delivery.retry`,
 * `delivery.release`, `delivery.resume`). The list is in the exact order the clock fires them.
 */
const SnapshotTimer = z.object({ at: z.number().finite(), tag: z.object({ kind: z.string() }).passthrough() });

/**
 * A world's snapshot (`snapshotWorld`, src/world/world-snapshot.ts): a versioned, JSON-safe document of the
 * whole world, from which a new world goes on exactly where this one stood. The engine's records, the
 * delivery records, the journals and the observer are sub-documents checked by the restore itself, which
 * names what does not hold together; anything wrong refuses the whole snapshot.
 */
export const WorldSnapshot = z.object({
  format: z.literal(WORLD_SNAPSHOT_FORMAT),
  version: z.literal(WORLD_SNAPSHOT_VERSION),
  /** When it was taken, on the wall clock. */
  taken_at: z.string(),
  seed: z.number().int().nonnegative(),
  /** The key pre-signed URLs are signed with (URLs issued before the snapshot stay valid after it). */
  signing_key: z.string().min(1),
  /** The readings the world played (src/schemas/readings.ts); absent in a snapshot taken before readings existed: the defaults. */
  readings: ReadingsInput.optional(),
  clock: z.object({
    /** Simulated time at the snapshot, epoch ms, and as ISO 8601 for people reading the document. */
    now: z.number().finite(),
    now_iso: z.string(),
    /** The start a reset returns to, epoch ms. */
    start: z.number().finite(),
    mode: z.enum(['instant', 'realtime', 'manual']),
    speed: z.number().positive(),
  }),
  organizations: z.object({
    /** The organizations as configured (the configuration file's form, credentials included): what a reset returns to. */
    configuration: BvsMockConfig,
    /** Each organization's settings as they stand (changed at run time or not), by organization id. */
    settings: z.record(z.string(), z.record(z.string(), z.unknown())),
  }),
  /** Scenarios added at run time, in the order they were added. */
  scenarios: z.array(z.object({ source: z.string(), scenario: z.unknown(), kept: z.literal(true).optional() })),
  /** The engine's records, trees, plays and flows (checked by the engine's restore). */
  engine: z.unknown(),
  timers: z.array(SnapshotTimer),
  /** The delivery records and the pending ones under way or queued at the snapshot (checked by the delivery restore). */
  deliveries: z.object({ log: z.unknown(), resume: z.array(z.string()) }),
  endpoints: z.array(z.unknown()),
  faults: z.object({
    faults: z.array(z.object({ id: z.string(), kind: z.string(), applied: z.number().int() }).passthrough()),
    counter: z.number().int(),
    random: RandomPosition,
  }),
  /** The request journal: entries kept, oldest first, their first position, and the counts. */
  journal: z.object({
    entries: z.array(z.unknown()),
    first: z.number().int().nonnegative(),
    operations: z.record(z.string(), z.number().int()),
    violating_requests: z.number().int(),
    violations: z.number().int(),
  }),
  emitted: z.object({ events: z.array(z.unknown()), counts: z.record(z.string(), z.number().int()) }),
  receiver_checks: z.object({ checks: z.array(z.unknown()), counter: z.number().int() }),
  observer: z.record(z.string(), z.unknown()),
  /** The contract report's `relied_on` so far; absent in a snapshot from before it existed. */
  relied_on: z.array(ReliedOnChoice).optional(),
  /** Access tokens issued and kept: the token, then its grant with its expiry (epoch ms). */
  tokens: z.array(z.tuple([z.string(), z.object({ organizationId: z.string(), clientId: z.string(), scopes: z.array(z.string()), expiresAt: z.number() })])),
});
export type WorldSnapshot = z.infer<typeof WorldSnapshot>;
