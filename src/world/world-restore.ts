import type { DeliveriesSnapshot, DeliveryTimerTag } from '../delivery/deliveries';
import type { StoredEndpoint } from '../delivery/webhook-endpoint-store';
import type { EngineSnapshot, PlayTimerTag, RandomState } from '../engine';
import type { ClientObserverSnapshot } from '../faults/client-observer';
import {
  describeProblems,
  parseWith,
  WORLD_SNAPSHOT_VERSION,
  WorldSnapshot,
  WorldSnapshotHeader,
  type ActiveFault,
  type EmittedEvent,
  type EndpointReceiverCheck,
  type JournalEntry,
  type Scenario,
  type Scope,
} from '../schemas';
import type { World } from './world';

/**
 * Checks an uploaded snapshot before anything is built: a document of another format, or of a newer version
 * than this code reads, is refused with a message saying so; one that does not have the snapshot's shape is
 * refused naming each problem. Answers a copy: the restored world shares nothing with `input`.
 */
export function readWorldSnapshot(input: unknown): WorldSnapshot {
  const header = parseWith(WorldSnapshotHeader, input);
  if (!header.ok) throw new Error(`bvs-mock: this is not a bvs-mock world snapshot: ${describeProblems(header.issues, 'document')}`);
  const { version } = header.value;
  if (version > WORLD_SNAPSHOT_VERSION) {
    throw new Error(`bvs-mock: this snapshot is format version ${version}, written by a newer bvs-mock; this one reads version ${WORLD_SNAPSHOT_VERSION}`);
  }
  const parsed = parseWith(WorldSnapshot, structuredClone(input));
  if (!parsed.ok) throw new Error(`bvs-mock: this snapshot cannot be restored: ${describeProblems(parsed.issues, 'snapshot')}`);
  return parsed.value;
}

type TimerRestorer = (world: World, at: number, tag: { kind: string }) => void;
const engineTimer: TimerRestorer = (world, at, tag) => world.engine.restoreTimer(at, tag as PlayTimerTag);
const deliveryTimer: TimerRestorer = (world, at, tag) => world.deliveries.restoreTimer(at, tag as DeliveryTimerTag);

/** Each kind of timer a snapshot may hold, and who schedules it again: no closure is ever in a snapshot. */
const TIMER_KINDS: Readonly<Record<string, TimerRestorer>> = {
  'play.outcome': engineTimer,
  'play.formation': engineTimer,
  'play.report': engineTimer,
  'flow.step': engineTimer,
  'flow.extract': engineTimer,
  'delivery.retry': deliveryTimer,
  'delivery.release': deliveryTimer,
  'delivery.resume': deliveryTimer,
};

/**
 * Puts a checked snapshot's state into a world just built from it (its clock manual, at the start, with
 * nothing scheduled, and nothing created yet), then lets its clock go in the snapshot's mode. Everything is
 * built before anything is live; a snapshot that does not hold together throws, naming what, and leaves
 * nothing running: no timer on the clock, no delivery.
 */
export function restoreWorldState(world: World, snapshot: WorldSnapshot): void {
  try {
    world.clock.restoreTime(snapshot.clock.now);
    for (const [id, settings] of Object.entries(snapshot.organizations.settings)) {
      if (!world.registry.has(id)) throw new Error(`organizations.settings names organization ${id}, which is not configured`);
      const updated = world.registry.updateSettings(id, settings);
      if (!updated.success) throw new Error(`organizations.settings.${id}: ${updated.error.issues.map((issue) => issue.message).join('; ')}`);
    }
    for (const { scenario, source, kept } of snapshot.scenarios) {
      const added = world.scenarios.add(scenario as Scenario, { source, override: true, permanent: kept === true });
      if (!added.ok) throw new Error(`scenarios: ${added.issues.map((issue) => issue.message).join('; ')}`);
    }
    world.endpoints.restore(snapshot.endpoints as StoredEndpoint[]);
    const engine = snapshot.engine as EngineSnapshot;
    if (typeof engine !== 'object' || engine === null || !isRandomState(engine.ids) || typeof engine.sequence !== 'number') {
      throw new Error('engine: expected the engine with its ids position and event sequence');
    }
    world.engine.restore(engine);
    world.deliveries.restore(snapshot.deliveries as DeliveriesSnapshot);
    world.faults.restore({ ...snapshot.faults, faults: snapshot.faults.faults as unknown as ActiveFault[], random: snapshot.faults.random });
    world.journal.restore({ ...snapshot.journal, entries: snapshot.journal.entries as JournalEntry[] });
    world.emitted.restore(snapshot.emitted.events as EmittedEvent[]);
    for (const [type, count] of Object.entries(snapshot.emitted.counts)) world.emittedEvents.set(type, count);
    world.receiverChecks.restore({ ...snapshot.receiver_checks, checks: snapshot.receiver_checks.checks as EndpointReceiverCheck[] });
    world.observer.restore(snapshot.observer as unknown as ClientObserverSnapshot);
    world.reliedOn.restore(snapshot.relied_on ?? []);
    world.tokens.restore(snapshot.tokens.map(([token, grant]) => [token, { ...grant, scopes: grant.scopes as Scope[] }]));
    // Deliveries under way or queued at the snapshot go again from its instant, before anything else due then.
    for (const record of snapshot.deliveries.resume) world.deliveries.restoreTimer(snapshot.clock.now, { kind: 'delivery.resume', record });
    snapshot.timers.forEach(({ at, tag }, index) => {
      const restorer = TIMER_KINDS[tag.kind];
      if (restorer === undefined) throw new Error(`timers[${index}]: unknown timer kind ${JSON.stringify(tag.kind)}`);
      if (at < snapshot.clock.now) throw new Error(`timers[${index}] is due at ${at}, before the snapshot's instant ${snapshot.clock.now}`);
      try {
        restorer(world, at, tag);
      } catch (error) {
        throw new Error(`timers[${index}]: ${(error as Error).message}`, { cause: error });
      }
    });
    world.clock.setMode(snapshot.clock.mode, { speed: snapshot.clock.speed });
  } catch (error) {
    world.deliveries.reset();
    world.clock.reset();
    world.clock.dispose();
    throw new Error(`bvs-mock: this snapshot cannot be restored: ${(error as Error).message}; nothing of it was loaded`, { cause: error });
  }
}

function isRandomState(value: unknown): value is RandomState {
  return Array.isArray(value) && value.length === 4 && value.every((word) => Number.isInteger(word));
}
