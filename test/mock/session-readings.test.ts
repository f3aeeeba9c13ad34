import { expectApiError, DEFAULT_API_KEY, type TestServer } from '../support/api-test-server';
import { makeSession, serversClosedAfterEach } from '../support/sessions';
import { DEFAULT_READINGS } from '../../src/schemas';

// A reading is a setting of a world: a session plays the server's readings (`--reading`, the configuration's
// `readings:`) unless it gives its own in POST /_mock/sessions; an unknown name or value is a 422 at its path.

const { serve } = serversClosedAfterEach();
const session = makeSession;

/** Creates a main-definitive-error validation with `key`, plays it to its end, and answers the event types its world emitted. */
async function playedTypes(t: TestServer, base: string, key: string): Promise<string[]> {
  await t.create({ tin: '11111111-1', country: 'CL' }, { key, scenario: 'main-definitive-error' });
  await t.json('POST', `${base}/clock/run`, {});
  return (await t.call(`${base}/emitted?limit=100`)).json<{ events: Array<{ type: string }> }>().events.map((event) => event.type);
}

test("a session's readings are its own: withheld there, the server's sent in the default session", async () => {
  const t = await serve({ clock: 'manual' });
  const withheld = await session(t, { readings: { 'ready-on-main-failure': 'withheld' } });
  const inherits = await session(t, {});
  const sessionTypes = await playedTypes(t, withheld.control_base, withheld.organizations[0]!.api_keys[0]!);
  const inheritedTypes = await playedTypes(t, inherits.control_base, inherits.organizations[0]!.api_keys[0]!);
  const defaultTypes = await playedTypes(t, '/_mock', DEFAULT_API_KEY);
  expect(defaultTypes).toContain('data_source_run_batch.ready');
  expect(inheritedTypes).toEqual(defaultTypes);
  expect(sessionTypes).toEqual(defaultTypes.filter((type) => type !== 'data_source_run_batch.ready'));
});

test('a session plays two readings at once: no ready, then child_batches_ready and the report after the main failure', async () => {
  const t = await serve({ clock: 'manual' });
  const made = await session(t, { readings: { 'ready-on-main-failure': 'withheld', 'child-batches-on-main-failure': 'sent' } });
  const sessionTypes = await playedTypes(t, made.control_base, made.organizations[0]!.api_keys[0]!);
  const defaultTypes = await playedTypes(t, '/_mock', DEFAULT_API_KEY);
  expect(defaultTypes).not.toContain('data_source_run_batch.child_batches_ready');
  expect(sessionTypes).toEqual([
    ...defaultTypes.filter((type) => type !== 'data_source_run_batch.ready'),
    'data_source_run_batch.child_batches_ready',
    'data_source_run_batch.consolidated_report_ready',
  ]);
  const snapshot = (await t.call(`${made.control_base}/snapshot`)).json<{ readings: Record<string, string> }>();
  expect(snapshot.readings).toEqual({ ...DEFAULT_READINGS, 'ready-on-main-failure': 'withheld', 'child-batches-on-main-failure': 'sent' });
});

test("a session takes the server's readings unless it gives its own", async () => {
  const t = await serve({ clock: 'manual', readings: { 'ready-on-main-failure': 'withheld' } });
  const inherits = await session(t, {});
  const own = await session(t, { readings: { 'ready-on-main-failure': 'sent' } });
  expect(await playedTypes(t, inherits.control_base, inherits.organizations[0]!.api_keys[0]!)).not.toContain('data_source_run_batch.ready');
  expect(await playedTypes(t, own.control_base, own.organizations[0]!.api_keys[0]!)).toContain('data_source_run_batch.ready');
});

test('an unknown reading or value is a 422 naming its path and the known ones; with a snapshot, readings are refused', async () => {
  const t = await serve();
  const error = expectApiError(
    await t.json('POST', '/_mock/sessions', { readings: { 'ready-on-main-failure': 'late', other: 'x' } }),
    422,
    'validation_failed',
  );
  expect(error.issues).toEqual([
    expect.objectContaining({ path: '$.readings["ready-on-main-failure"]', message: 'reading ready-on-main-failure must be sent or withheld, got "late"' }),
    expect.objectContaining({ path: '$.readings.other', message: expect.stringMatching(/^unknown reading "other"; the readings are ready-on-main-failure, /) }),
  ]);
  const made = await session(t, { readings: { 'ready-on-main-failure': 'withheld' } });
  const snapshot = (await t.call(`${made.control_base}/snapshot`)).json<Record<string, unknown>>();
  expect(snapshot.readings).toEqual({ ...DEFAULT_READINGS, 'ready-on-main-failure': 'withheld' });
  const refused = await t.json('POST', '/_mock/sessions', { snapshot, readings: { 'ready-on-main-failure': 'sent' } });
  expect(expectApiError(refused, 400, 'invalid_request').issues).toEqual([expect.objectContaining({ path: '$.readings', code: 'not_with_snapshot' })]);
});
