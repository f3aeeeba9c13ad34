import { SimulatedClock, type TimerHandle } from '../../src/clock';
import { systemTime } from '../../src/wall';
import { createWorld, type World, type WorldOptions } from '../../src/world/world';
import { snapshotWorld } from '../../src/world/world-snapshot';
import { defaultOrganizationWith } from '../support/delivery-harness';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { freePort } from '../support/free-port';

// A snapshot is restored whole or not at all: a newer format is refused saying so, and one that does not
// hold together is refused naming what, with nothing of it left running (no timer on any clock).

const worlds: World[] = [];
afterEach(() => {
  for (const world of worlds.splice(0)) world.dispose();
  jest.restoreAllMocks();
});

function options(extra: Partial<WorldOptions> = {}): WorldOptions {
  return {
    seed: 5,
    clock: 'manual',
    startTime: '2026-01-15T10:00:00Z',
    wallClock: systemTime,
    maxStreamReaders: 4,
    origin: 'refused-test',
    logError: () => undefined,
    ...extra,
  };
}

/** A world with a tree half played and a delivery waiting for its retry (its receiver's port is closed), and its snapshot. */
async function takenSnapshot(): Promise<Record<string, any>> {
  const world = createWorld(options({ config: defaultOrganizationWith([{ url: `http://127.0.0.1:${await freePort()}/hooks` }]) }));
  worlds.push(world);
  expect(world.engine.createValidation({ organizationId: world.registry.defaultId, request: { tin: HAPPY_PARTNERS, country: 'CL' } }).ok).toBe(true);
  await world.advance(60_000);
  await world.deliveries.settled();
  const snapshot = JSON.parse(JSON.stringify(snapshotWorld(world)));
  const kinds = snapshot.timers.map((timer: { tag: { kind: string } }) => timer.tag.kind);
  expect(kinds).toContain('play.outcome');
  expect(kinds).toContain('delivery.retry');
  return snapshot;
}

/** Restores `snapshot`, expecting a refusal; answers its message, and how many timers it scheduled and left due. */
function refused(snapshot: unknown): { message: string; timersLeft: number; scheduled?: number } {
  const scheduled: TimerHandle[] = [];
  const schedule = SimulatedClock.prototype.schedule;
  jest.spyOn(SimulatedClock.prototype, 'schedule').mockImplementation(function (this: SimulatedClock, ...args) {
    const handle = schedule.apply(this, args);
    scheduled.push(handle);
    return handle;
  });
  let message = '';
  try {
    worlds.push(createWorld(options({ seed: undefined, snapshot })));
  } catch (error) {
    message = (error as Error).message;
  }
  return { message, timersLeft: scheduled.filter((handle) => handle.pending).length, ...(scheduled.length > 0 ? { scheduled: scheduled.length } : {}) };
}

it('a snapshot written by a newer bvs-mock is refused, saying which version this one reads', async () => {
  const snapshot = await takenSnapshot();
  expect(refused({ ...snapshot, version: 2 })).toEqual({
    message: 'bvs-mock: this snapshot is format version 2, written by a newer bvs-mock; this one reads version 1',
    timersLeft: 0,
  });
});

it('a document that is no snapshot is refused, naming what it lacks', () => {
  expect(refused({ hello: 'world' }).message).toMatch(/^bvs-mock: this is not a bvs-mock world snapshot: .*\$\.format/);
});

it('a snapshot missing a field is refused, naming the field, and nothing is built', async () => {
  const { clock: _clock, ...withoutClock } = await takenSnapshot();
  const outcome = refused(withoutClock);
  expect(outcome.message).toMatch(/^bvs-mock: this snapshot cannot be restored: .*\$\.clock/);
  expect(outcome.timersLeft).toBe(0);
});

it('a snapshot whose last timer names an unknown validation is refused whole: the timers scheduled before it are cancelled', async () => {
  const snapshot = await takenSnapshot();
  const last = snapshot.timers.at(-1);
  snapshot.timers.push({ at: last.at, tag: { kind: 'play.report', play: 'dsrb_NOT_IN_THE_SNAPSHOT' } });
  const outcome = refused(snapshot);
  expect(outcome.message).toContain(`timers[${snapshot.timers.length - 1}]: timer {"kind":"play.report","play":"dsrb_NOT_IN_THE_SNAPSHOT"} names a play`);
  expect(outcome.message).toMatch(/nothing of it was loaded$/);
  expect(outcome.scheduled).toBe(snapshot.timers.length - 1);
  expect(outcome.timersLeft).toBe(0);
});

it('a snapshot whose tree names a validation it does not hold is refused', async () => {
  const snapshot = await takenSnapshot();
  snapshot.engine.trees.roots[0][0] = 'evl_NOT_IN_THE_SNAPSHOT';
  const outcome = refused(snapshot);
  expect(outcome.message).toContain('root evl_NOT_IN_THE_SNAPSHOT is not a validation of organization');
  expect(outcome.timersLeft).toBe(0);
});

it('a timer of an unknown kind is refused', async () => {
  const snapshot = await takenSnapshot();
  snapshot.timers[0].tag = { kind: 'play.somersault' };
  expect(refused(snapshot).message).toContain('timers[0]: unknown timer kind "play.somersault"');
});

it('the same snapshot restores twice into two worlds that share nothing', async () => {
  const snapshot = await takenSnapshot();
  const one = createWorld(options({ snapshot }));
  const other = createWorld(options({ snapshot }));
  worlds.push(one, other);
  await one.advance(3_600_000);
  expect(other.clock.now()).toBe(Date.parse('2026-01-15T10:01:00Z'));
  expect(snapshotWorld(other).engine).toEqual(snapshot.engine);
  expect(snapshotWorld(one).engine).not.toEqual(snapshot.engine);
});
