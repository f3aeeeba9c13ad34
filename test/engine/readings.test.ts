import type { EngineEvent } from '../../src/engine';
import { BvsMockConfig, DEFAULT_READINGS, parseWith, resolveReadings } from '../../src/schemas';
import { systemTime } from '../../src/wall';
import { createWorld, type World, type WorldOptions } from '../../src/world/world';
import { snapshotWorld } from '../../src/world/world-snapshot';
import { createMock } from '../../src/mock/create-mock';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// Readings (src/schemas/readings.ts): where the spec contradicts itself, each value is played and the default is
// bvs-mock's choice. ready-on-main-failure (docs/fidelity.md row 31): `sent` sends data_source_run_batch.ready with
// runs_succeeded false when a main run fails (§6 Event order: "complete"); `withheld` sends none (§6 Triggers:
// "completed successfully").

const worlds: World[] = [];
afterEach(() => {
  for (const world of worlds.splice(0)) world.dispose();
});

function world(extra: Partial<WorldOptions> = {}): World {
  const made = createWorld({
    seed: 7,
    clock: 'manual',
    startTime: '2026-01-15T10:00:00Z',
    wallClock: systemTime,
    maxStreamReaders: 4,
    origin: 'readings-test',
    logError: () => undefined,
    ...extra,
  });
  worlds.push(made);
  return made;
}

interface Played {
  types: string[];
  ready: Array<{ runs_succeeded: boolean }>;
}

/** Plays one validation of a scenario to its end; answers the event types in order and the bodies of the main batch's `ready`. */
async function play(target: World, request: { scenarioName?: string; tin?: string }): Promise<Played> {
  const events: EngineEvent[] = [];
  target.engine.subscribe((event) => events.push(event));
  const created = target.engine.createValidation({
    organizationId: target.registry.defaultId,
    request: { tin: request.tin ?? '11111111-1', country: 'CL' },
    scenarioName: request.scenarioName,
  });
  if (!created.ok) throw new Error(created.message);
  await target.drain();
  const ready = events
    .filter((event) => event.type === 'data_source_run_batch.ready')
    .map((event) => (event.body as { data_source_run_batch: { runs_succeeded: boolean } }).data_source_run_batch);
  return { types: events.map((event) => event.type), ready };
}

test('main-definitive-error: sent (the default) sends ready with runs_succeeded false; withheld sends every other event and no ready', async () => {
  const sent = await play(world(), { scenarioName: 'main-definitive-error' });
  const explicit = await play(world({ readings: { 'ready-on-main-failure': 'sent' } }), { scenarioName: 'main-definitive-error' });
  const withheld = await play(world({ readings: { 'ready-on-main-failure': 'withheld' } }), { scenarioName: 'main-definitive-error' });

  expect(explicit.types).toEqual(sent.types);
  expect(sent.ready).toEqual([expect.objectContaining({ runs_succeeded: false })]);
  expect(withheld.ready).toEqual([]);
  // The one difference: the ready event; child_batches_ready and the automatic report stay suppressed under both
  // (row 32, child-batches-on-main-failure at its default).
  const index = sent.types.indexOf('data_source_run_batch.ready');
  expect(withheld.types).toEqual(sent.types.filter((_, at) => at !== index));
  for (const played of [sent, withheld]) {
    expect(played.types).not.toContain('data_source_run_batch.child_batches_ready');
    expect(played.types).not.toContain('data_source_run_batch.consolidated_report_ready');
    expect(played.types).toContain('data_source_run_batch.data_source_run.ready');
  }
});

test('withheld changes nothing where every main run succeeds: happy-partners sends its ready with runs_succeeded true', async () => {
  const sent = await play(world(), { tin: HAPPY_PARTNERS });
  const withheld = await play(world({ readings: { 'ready-on-main-failure': 'withheld' } }), { tin: HAPPY_PARTNERS });
  expect(withheld.types).toEqual(sent.types);
  expect(withheld.ready).toEqual([expect.objectContaining({ runs_succeeded: true })]);
});

test('the configuration file sets a reading, and an option given besides it wins', async () => {
  const config = BvsMockConfig.parse({ readings: { 'ready-on-main-failure': 'withheld' } });
  expect(world({ config }).readings).toEqual({ ...DEFAULT_READINGS, 'ready-on-main-failure': 'withheld' });
  expect(world({ config, readings: { 'ready-on-main-failure': 'sent' } }).readings).toEqual({ ...DEFAULT_READINGS, 'ready-on-main-failure': 'sent' });
  expect(world().readings).toEqual({
    'ready-on-main-failure': 'sent',
    'child-batches-on-main-failure': 'suppressed',
    'child-batches-on-revalidation': 'once',
    'legacy-url-and-endpoints': 'both',
    'run-ready-on-failure': 'sent',
    'child-batch-fields': 'whole',
    'token-client-auth': 'form-or-basic',
  });
  const played = await play(world({ config }), { scenarioName: 'main-definitive-error' });
  expect(played.ready).toEqual([]);
});

test('an unknown reading or value is refused naming the known ones: createMock, createWorld and the configuration file', () => {
  expect(() => createMock({ readings: { 'ready-on-failure': 'withheld' } })).toThrow(
    'bvs-mock: unknown reading "ready-on-failure"; the readings are ready-on-main-failure, child-batches-on-main-failure, child-batches-on-revalidation, legacy-url-and-endpoints, run-ready-on-failure, child-batch-fields, token-client-auth',
  );
  expect(() => createMock({ readings: { 'ready-on-main-failure': 'never' } })).toThrow(
    'bvs-mock: reading ready-on-main-failure must be sent or withheld, got "never"',
  );
  expect(() => world({ readings: { nope: 'x' } })).toThrow(/unknown reading "nope"/);
  expect(() => resolveReadings({ 'ready-on-main-failure': 'withheld' }, { 'ready-on-main-failure': 'maybe' })).toThrow(/got "maybe"/);
  const parsed = parseWith(BvsMockConfig, { readings: { 'ready-on-main-failure': 'late', other: 'x' } });
  expect(parsed.ok).toBe(false);
  if (parsed.ok) return;
  expect(parsed.issues).toEqual([
    expect.objectContaining({ path: '$.readings["ready-on-main-failure"]', message: 'reading ready-on-main-failure must be sent or withheld, got "late"' }),
    expect.objectContaining({ path: '$.readings.other', message: expect.stringMatching(/^unknown reading "other"; the readings are ready-on-main-failure, /) }),
  ]);
});

test("a snapshot carries the world's readings: the restored world plays on under them, whatever its options say", async () => {
  const original = world({ readings: { 'ready-on-main-failure': 'withheld' } });
  const snapshot = JSON.parse(JSON.stringify(snapshotWorld(original))) as Record<string, unknown>;
  expect(snapshot.readings).toEqual({ ...DEFAULT_READINGS, 'ready-on-main-failure': 'withheld' });
  const restored = world({ snapshot, readings: { 'ready-on-main-failure': 'sent' } });
  expect(restored.readings).toEqual({ ...DEFAULT_READINGS, 'ready-on-main-failure': 'withheld' });
  expect((await play(restored, { scenarioName: 'main-definitive-error' })).ready).toEqual([]);
  // A snapshot from before readings existed plays the defaults.
  const older = world({ snapshot: { ...snapshot, readings: undefined } });
  expect(older.readings).toEqual(DEFAULT_READINGS);
});
