import { createMock, mockParts, type Mock } from '../../src/mock/create-mock';
import { callCore } from '../support/core-call';
import { systemTime } from '../../src/wall';
import { createWorld, type World } from '../../src/world/world';
import { snapshotWorld } from '../../src/world/world-snapshot';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// Everything a world holds is in its snapshot: a world restored from it snapshots to the same document
// (but the wall-clock instant it was taken at), after tokens, faults that applied, changed settings, a
// scenario added at run time, an endpoint with its secret, validations and the journal of all those requests.

const mocks: Mock[] = [];
const worlds: World[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.dispose();
  for (const world of worlds.splice(0)) world.dispose();
});

async function call(mock: Mock, method: string, path: string, body?: unknown, form?: string): Promise<number> {
  return (await callCore(mock, { method, path, body, form, bearer: 'test_key_default' })).status;
}

it('a restored world snapshots to the same document as the world it was taken from', async () => {
  const mock = createMock({ clock: 'manual', startTime: '2026-01-15T10:00:00Z' });
  mocks.push(mock);
  const { world } = mockParts(mock);
  const organization = world.registry.defaultId;
  expect(await call(mock, 'POST', '/oauth/token', undefined, 'grant_type=client_credentials&client_id=default_client&client_secret=default_secret')).toBe(200);
  expect(await call(mock, 'PATCH', `/_mock/organizations/${organization}/settings`, { child_batches_ready: false })).toBe(200);
  expect(await call(mock, 'POST', '/_mock/faults', { kind: 'api_error', count: 1 })).toBe(201);
  expect(await call(mock, 'POST', '/_mock/webhook_endpoints', { name: 'kept', url: 'https://127.0.0.1:9/hooks', auth_type: 'secret' })).toBe(201);
  expect(await call(mock, 'POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' })).toBe(503);
  expect(await call(mock, 'POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' })).toBe(201);
  const copy = { ...world.scenarios.byName('happy-no-partners')!, name: 'added-at-run-time', tins: ['11111111-1'] };
  expect(world.scenarios.add(copy).ok).toBe(true);
  await world.advance(30_000);
  await world.deliveries.settled();

  const snapshot = snapshotWorld(world);
  expect(Object.keys(snapshot)).toEqual([
    'format',
    'version',
    'taken_at',
    'seed',
    'signing_key',
    'readings',
    'clock',
    'organizations',
    'scenarios',
    'engine',
    'timers',
    'deliveries',
    'endpoints',
    'faults',
    'journal',
    'emitted',
    'receiver_checks',
    'observer',
    'relied_on',
    'tokens',
  ]);
  expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  expect(snapshot.faults.faults).toEqual([expect.objectContaining({ kind: 'api_error', applied: 1 })]);
  expect(snapshot.tokens).toHaveLength(1);
  expect(snapshot.journal.entries.length).toBeGreaterThan(0);

  const restored = createWorld({ wallClock: systemTime, maxStreamReaders: 4, origin: 'whole-world-test', logError: () => undefined, snapshot });
  worlds.push(restored);
  expect(restored.registry.settings(organization).child_batches_ready).toBe(false);
  expect(restored.scenarios.byName('added-at-run-time')).toEqual(copy);
  const { taken_at: _taken, ...again } = snapshotWorld(restored);
  const { taken_at: _original, ...expected } = snapshot;
  expect(again).toEqual(expected);
});
