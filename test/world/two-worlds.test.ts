import { mockParts } from '../../src/mock/create-mock';
import { callCore } from '../support/core-call';
import { createMock, type Mock } from '../../src/mock/create-mock';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// A world is a value: everything one simulated world owns is made by createWorld, so two mocks in one
// process (the sessions of a shared server, two test files in one worker) share nothing. Each step below
// acts on one world through its own core and checks the other did not move.

const mocks: Mock[] = [];
afterEach(() => {
  for (const mock of mocks.splice(0)) mock.dispose();
});

function make(): Mock {
  const mock = createMock({ clock: 'manual', seed: 7, startTime: '2026-01-15T10:00:00Z' });
  mocks.push(mock);
  return mock;
}

async function call(mock: Mock, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const answer = await callCore(mock, { method, path, body, bearer: 'test_key_default' });
  return { status: answer.status, json: answer.text === '' ? undefined : JSON.parse(answer.text) };
}

/** What a world shows of itself: its clock, faults, endpoints, validations and journal. */
async function lookOf(mock: Mock) {
  return {
    clock: (await call(mock, 'GET', '/_mock/clock')).json.now,
    faults: (await call(mock, 'GET', '/_mock/faults')).json.faults.length,
    endpoints: (await call(mock, 'GET', '/_mock/webhook_endpoints')).json.webhook_endpoints.map((endpoint: { name: string }) => endpoint.name),
    validations: (await call(mock, 'GET', '/_mock/entity_validations')).json.total,
  };
}

it('two worlds in one process share nothing: clock, reset, faults, endpoints and validations of one leave the other as it was', async () => {
  const one = make();
  const other = make();
  const before = await lookOf(other);

  expect((await call(one, 'POST', '/_mock/clock/advance', { seconds: 3600 })).status).toBe(200);
  expect((await call(one, 'POST', '/_mock/faults', { kind: 'api_error', count: 1 })).status).toBe(201);
  expect((await call(one, 'POST', '/_mock/webhook_endpoints', { name: 'only-in-one', url: 'https://127.0.0.1:9/hooks' })).status).toBe(201);
  expect((await call(one, 'POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' })).status).toBe(503);
  expect((await call(one, 'POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' })).status).toBe(201);

  const moved = await lookOf(one);
  expect(moved).toEqual({ clock: '2026-01-15T11:00:00.000Z', faults: 1, endpoints: [...before.endpoints, 'only-in-one'], validations: 1 });
  expect(await lookOf(other)).toEqual(before);

  // The same seed gives the same ids, drawn from each world's own source.
  const first = (await call(other, 'POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' })).json;
  const inOne = (await call(one, 'GET', '/_mock/entity_validations')).json.validations[0];
  expect(first.id).toMatch(/^evl_/);
  expect(inOne.id).not.toBe(first.id);

  expect((await call(one, 'POST', '/_mock/reset')).status).toBe(200);
  expect(await lookOf(one)).toEqual(before);
  const otherNow = await lookOf(other);
  expect(otherNow).toEqual({ ...before, validations: 1 });
  expect(mockParts(other).world.journal.list().length).toBeGreaterThan(0);
  expect(mockParts(one).world.journal.list()).toEqual([]);
});

it('disposing one world leaves the other answering', async () => {
  const one = make();
  const other = make();
  one.dispose();
  expect((await call(other, 'POST', '/_mock/clock/advance', { seconds: 60 })).status).toBe(200);
  expect((await lookOf(other)).clock).toBe('2026-01-15T10:01:00.000Z');
});

it('two unseeded worlds draw different seeds and give different ids; the same seed gives the same bytes', async () => {
  const unseeded = [createMock({ clock: 'manual', startTime: '2026-01-15T10:00:00Z' }), createMock({ clock: 'manual', startTime: '2026-01-15T10:00:00Z' })];
  const seeded = [make(), make()];
  mocks.push(...unseeded);
  const first = async (mock: Mock) => (await call(mock, 'POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' })).json;
  const [a, b] = [await first(unseeded[0]!), await first(unseeded[1]!)];
  expect(a.id).not.toBe(b.id);
  expect(mockParts(unseeded[0]!).world.seed).not.toBe(mockParts(unseeded[1]!).world.seed);
  // Replayed with the drawn seed and the same start, the first world's id comes again.
  const replay = createMock({ clock: 'manual', startTime: '2026-01-15T10:00:00Z', seed: mockParts(unseeded[0]!).world.seed });
  mocks.push(replay);
  expect((await first(replay)).id).toBe(a.id);
  const [c, d] = [await first(seeded[0]!), await first(seeded[1]!)];
  expect(JSON.stringify(c)).toBe(JSON.stringify(d));
});
