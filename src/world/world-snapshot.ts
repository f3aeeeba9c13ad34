import { WORLD_SNAPSHOT_FORMAT, WORLD_SNAPSHOT_VERSION, type WorldSnapshot } from '../schemas';
import type { World } from './world';

/**
 * The whole state of a world as a versioned, JSON-safe document: the clock, the
 * seed and where the id source and the fault draws stand, the organizations as configured with their settings
 * as they stand, the engine's records, trees and plays, every timer still due as a descriptor in the exact
 * order the clock would fire them, the delivery records, endpoints, faults, journals, emitted counts, receiver
 * checks, the client observer, scenarios added at run time and access tokens. Deliveries under way or queued
 * at this instant are kept as pending with nothing scheduled (`deliveries.resume`): the restored world sends
 * them again from the snapshot's instant. The document shares nothing with the world (it is copied through JSON).
 *
 * @example
 * const snapshot = snapshotWorld(world);
 * const restored = createWorld({ ...options, snapshot: JSON.parse(JSON.stringify(snapshot)) });
 */
export function snapshotWorld(world: World): WorldSnapshot {
  const { clock } = world;
  const now = clock.now();
  const timers = clock.pendingTimers().map(({ at, tag }, index) => {
    if (typeof tag !== 'object' || tag === null || typeof (tag as { kind?: unknown }).kind !== 'string') {
      throw new Error(
        `bvs-mock: snapshot: timer ${index} of the clock, due at ${new Date(at).toISOString()}, has no descriptor; this world cannot be snapshotted`,
      );
    }
    return { at, tag: tag as { kind: string } };
  });
  const document: WorldSnapshot = {
    format: WORLD_SNAPSHOT_FORMAT,
    version: WORLD_SNAPSHOT_VERSION,
    taken_at: new Date(world.wallClock.wallNow()).toISOString(),
    seed: world.seed,
    signing_key: world.signer.key,
    readings: world.readings,
    clock: { now, now_iso: new Date(now).toISOString(), start: clock.startedAt, mode: clock.mode, speed: clock.speed },
    organizations: {
      configuration: world.registry.configuration,
      settings: Object.fromEntries(world.registry.list().map((organization) => [organization.id, organization.settings])),
    },
    scenarios: world.scenarios.runTimeScenarios(),
    engine: world.engine.snapshot(),
    timers,
    deliveries: world.deliveries.snapshot(),
    endpoints: world.endpoints.snapshot(),
    faults: world.faults.snapshot(),
    journal: world.journal.snapshot(),
    emitted: { events: world.emitted.snapshot(), counts: Object.fromEntries(world.emittedEvents) },
    receiver_checks: world.receiverChecks.snapshot(),
    observer: { ...world.observer.snapshot() },
    relied_on: world.reliedOn.list(),
    tokens: world.tokens.snapshot(),
  };
  // One copy through JSON: the document shares nothing with the live world, and restoring it before or after
  // a trip through JSON gives the same world.
  return JSON.parse(JSON.stringify(document)) as WorldSnapshot;
}
