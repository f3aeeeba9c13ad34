import { systemTime } from '../../src/wall';
import { createWorld, type World, type WorldOptions } from '../../src/world/world';
import { snapshotWorld } from '../../src/world/world-snapshot';
import { defaultOrganizationWith } from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';
import { receiver } from '../support/graded-receivers';

// A delivery under way when the snapshot is taken has no timer to keep: the snapshot lists it as pending
// (`deliveries.resume`), and the restored world sends it again from the snapshot's instant, body unchanged.

const worlds: World[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) world.dispose();
  for (const close of closers.splice(0)) await close();
});

function options(extra: Partial<WorldOptions>): WorldOptions {
  return {
    clock: 'manual',
    startTime: '2026-01-15T10:00:00Z',
    wallClock: systemTime,
    maxStreamReaders: 4,
    origin: 'in-flight-test',
    logError: () => undefined,
    ...extra,
  };
}

it('deliveries under way at the snapshot are sent again by the restored world at the snapshot instant, with the same bodies', async () => {
  const bodies: string[] = [];
  const started = await receiver((body) => {
    bodies.push(JSON.stringify(body));
    return 200;
  });
  closers.push(() => started.close());
  const original = createWorld(options({ seed: 3, config: defaultOrganizationWith([{ url: started.url }]) }));
  worlds.push(original);
  expect(original.engine.createValidation({ organizationId: original.registry.defaultId, request: { tin: HAPPY_NO_PARTNERS, country: 'CL' } }).ok).toBe(true);
  // The synchronous lever fires the timers without waiting for deliveries: they are under way right after it.
  original.clock.advance(600_000);
  const snapshot = JSON.parse(JSON.stringify(snapshotWorld(original)));
  expect(snapshot.deliveries.resume.length).toBeGreaterThan(0);
  await original.drain();
  const sentByOriginal = [...bodies];
  bodies.length = 0;

  const restored = createWorld(options({ snapshot }));
  worlds.push(restored);
  expect((await restored.drain()).settled).toBe(true);
  expect(bodies).toEqual(sentByOriginal.slice(0, snapshot.deliveries.resume.length));
  for (const id of snapshot.deliveries.resume) {
    const record = restored.deliveries.get(restored.registry.defaultId, id)!;
    expect(record.status).toBe('succeeded');
    expect(record.attempts.map((attempt) => [attempt.number, attempt.at, attempt.trigger])).toEqual([[1, '2026-01-15T10:10:00.000Z', 'first']]);
  }
});
