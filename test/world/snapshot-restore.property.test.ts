import fc from 'fast-check';
import { ScenarioLibrary } from '../../src/engine/scenarios';
import { systemTime } from '../../src/wall';
import { createWorld, type World, type WorldOptions } from '../../src/world/world';
import { snapshotWorld } from '../../src/world/world-snapshot';
import { defaultOrganizationWith } from '../support/delivery-harness';
import { freePort } from '../support/free-port';
import { receiver } from '../support/graded-receivers';

// Snapshot, restore, go on: a world restored from its snapshot (through JSON) delivers, from the snapshot's
// instant on, exactly what the world it was taken from delivers: the same events at the same instants with
// the same bodies, and the same attempts (retries still due included), in the same order.

const START = '2026-01-15T10:00:00Z';
const worlds: World[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) world.dispose();
  for (const close of closers.splice(0)) await close();
});

function options(config: WorldOptions['config']): WorldOptions {
  return {
    config,
    seed: 11,
    clock: 'manual',
    startTime: START,
    wallClock: systemTime,
    maxStreamReaders: 4,
    origin: 'snapshot-test',
    logError: () => undefined,
  };
}

function make(worldOptions: WorldOptions): World {
  const world = createWorld(worldOptions);
  worlds.push(world);
  return world;
}

/** What a world emits and delivers from now on: events (type, instant, body) and attempts, each in order. */
function watch(world: World): () => { events: string[]; attempts: string[] } {
  const events: string[] = [];
  const unsubscribe = world.engine.subscribe((event) => events.push(`${event.type} ${event.emittedAt} ${JSON.stringify(event.body)}`), {
    readsBodyAtOnce: true,
  });
  const from = world.clock.now();
  return () => {
    unsubscribe();
    const attempts = world.deliveries
      .list()
      .flatMap((record) =>
        record.attempts
          .filter((attempt) => Date.parse(attempt.at) >= from)
          .map((attempt) => ({
            key: `${attempt.at} ${record.id}`,
            line: [
              record.id,
              record.type,
              record.url,
              attempt.number,
              attempt.at,
              attempt.trigger,
              attempt.response_code,
              record.status,
              JSON.stringify(record.payload),
            ].join(' '),
          })),
      )
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((entry) => entry.line);
    return { events, attempts };
  };
}

type ReceiverKind = 'answers' | 'fails' | 'closed';

async function receiverUrl(kind: ReceiverKind): Promise<string> {
  if (kind === 'closed') return `http://127.0.0.1:${await freePort()}/hooks`;
  const started = await receiver(() => (kind === 'answers' ? 200 : 500));
  closers.push(() => started.close());
  return started.url;
}

const library = ScenarioLibrary.builtIn();
const scenarioNames = library.list().map((summary) => summary.name);

it.each(scenarioNames)('scenario %s: the restored world delivers after the snapshot exactly what the original does', async (name) => {
  const scenario = library.byName(name)!;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        // Mostly within a tree's play (seconds to minutes), sometimes hours on, among retries still due.
        at: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 120_000 }), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 4 * 3_600_000 }), weight: 1 }),
        validations: fc.integer({ min: 1, max: 2 }),
        kind: fc.constantFrom<ReceiverKind>('answers', 'fails', 'closed'),
        fault: fc.constantFrom('none', 'duplicate_delivery', 'delay_delivery'),
      }),
      async ({ at, validations, kind, fault }) => {
        const url = await receiverUrl(kind);
        const original = make(options(defaultOrganizationWith([{ url }])));
        if (fault === 'duplicate_delivery') original.faults.add({ kind: 'duplicate_delivery', share: 0.5 });
        if (fault === 'delay_delivery') original.faults.add({ kind: 'delay_delivery', seconds: 90, share: 0.5 });
        for (let index = 0; index < validations; index += 1) {
          const created = original.engine.createValidation({
            organizationId: original.registry.defaultId,
            request: {
              tin: scenario.tins?.[0] ?? scenario.entity.tin,
              country: scenario.entity.country ?? 'CL',
              webhook_url: name === 'legacy-webhook' ? url : undefined,
            },
            scenarioName: name,
          });
          expect(created.ok).toBe(true);
        }
        await original.advance(at);
        await original.deliveries.settled();

        const snapshot = JSON.parse(JSON.stringify(snapshotWorld(original)));
        const restored = make({ ...options(undefined), seed: undefined, snapshot });
        expect(restored.clock.now()).toBe(original.clock.now());
        expect(restored.clock.pendingTimers()).toEqual(original.clock.pendingTimers());

        const fromOriginal = watch(original);
        const fromRestored = watch(restored);
        expect((await original.drain()).settled).toBe(true);
        expect((await restored.drain()).settled).toBe(true);
        const played = fromOriginal();
        expect(fromRestored()).toEqual(played);
        expect(restored.deliveries.counts()).toEqual(original.deliveries.counts());
        expect(snapshotWorld(restored).engine).toEqual(snapshotWorld(original).engine);
      },
    ),
    { numRuns: 5 },
  );
});
