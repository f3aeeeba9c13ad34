import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createClock } from '../../src/clock';
import { Engine, IdSource } from '../../src/engine';
import { MAX_TOMBSTONES } from '../../src/engine/tree-store';
import { generateScenario, parseScenarioSource } from '../../src/engine/scenarios';
import { UrlSigner } from '../../src/reports/url-signer';
import { BvsMockConfig, type DeliveryEvent, type Scenario } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { expectApiError, startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { ROOT } from '../support/built-cli';

/**
 * Retention: a long-running bvs-mock keeps a bounded state (memory grew about
 * 10.5 KB per validation until the process died), evicts the oldest settled
 * validations first, says "evicted" for what it dropped, and pages its lists.
 */

let server: TestServer | undefined;
let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  await receiver?.close();
  receiver = undefined;
});

interface Health {
  retention: { validations: number; max_validations: number; evicted_validations: number; journal: { entries: number; max_entries: number } };
  deliveries: { records: number; max_records: number; evicted_records: number };
}

test('the oldest validations are evicted past the limit and answer 404 evicted, the newest stay readable', async () => {
  server = await startTestServer({ clock: 'instant', retention: { maxValidations: 3 } });
  const ids: string[] = [];
  for (let index = 0; index < 5; index += 1) ids.push((await server.create({ tin: HAPPY_PARTNERS, country: 'CL' })).id);
  await server.runClock();
  for (const id of ids.slice(0, 2)) {
    const error = expectApiError(await server.get(`/api/v2/entity_validations/${id}`), 404, 'evicted');
    expect(error.message).toContain('--max-validations');
  }
  for (const id of ids.slice(2)) expect((await server.get(`/api/v2/entity_validations/${id}`)).status).toBe(200);
  // An id that never existed is still simply not found.
  expectApiError(await server.get('/api/v2/entity_validations/evl_00000000000000000000000000'), 404, 'not_found');
  const health = (await server.call('/_mock/health')).json<Health>();
  expect(health.retention).toMatchObject({ validations: 3, max_validations: 3, evicted_validations: 2 });
});

// Regression: after one million creations the first id answered plain not_found while the README promised `evicted`.
test('the README says where `evicted` ends: past the number of evicted ids the engine remembers, an id answers not_found', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  expect(readme).toContain(`Only the last ${MAX_TOMBSTONES.toLocaleString('en-US')} evicted ids are remembered as evicted`);
  expect(readme).toMatch(/answers plain `404 not_found`/);
});

test('an evicted validation is evicted for its own organization only: another organization still gets not_found', async () => {
  server = await startTestServer({
    clock: 'instant',
    retention: { maxValidations: 1 },
    config: BvsMockConfig.parse({
      organizations: [
        { id: 'a', api_keys: ['key_a_123'] },
        { id: 'b', api_keys: ['key_b_123'] },
      ],
    }),
  });
  const first = await server.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: 'key_a_123' });
  await server.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: 'key_a_123' });
  expectApiError(await server.get(`/api/v2/entity_validations/${first.id}`, 'key_a_123'), 404, 'evicted');
  expectApiError(await server.get(`/api/v2/entity_validations/${first.id}`, 'key_b_123'), 404, 'not_found');
});

function scenario(name: string, tin: string, after: string): Scenario {
  const parsed = parseScenarioSource({
    file: `${name}.yaml`,
    text: `name: ${name}\ndescription: test\ntins: ["${tin}"]\nentity:\n  tin: "${tin}"\n  country: CL\n  category: business\n  name: ${name}\n  runs:\n    - { type: cl/sii, outcomes: [{ succeeded: ${after} }] }\n`,
  });
  if (!parsed.ok) throw new Error(parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '));
  return parsed.value;
}

test('a settled validation is evicted before an older one that is still playing, and an evicted play fires nothing more', () => {
  const clock = createClock({ mode: 'manual' });
  const slow = scenario('slow', '11111111-1', '10h');
  const fast = scenario('fast', '22222222-2', '1s');
  const engine = new Engine({
    clock,
    ids: new IdSource(1, () => clock.now()),
    scenarios: { byName: () => undefined, forTin: (tin) => [slow, fast].find((candidate) => candidate.tins?.includes(tin)) },
    generate: generateScenario,
    signer: new UrlSigner('test', 'https://127.0.0.1:4010'),
    maxValidations: 2,
  });
  const emitted: string[] = [];
  engine.subscribe((event) => emitted.push(event.validationId));
  const create = (tin: string) => {
    const result = engine.createValidation({ organizationId: 'acme', request: { tin, country: 'CL' } });
    if (!result.ok) throw new Error(result.message);
    return result.value.id;
  };
  const older = create('11111111-1');
  const newer = create('22222222-2');
  clock.advance(3_600_000);
  const third = create('22222222-2');
  // The newer one had settled; the older one still plays, so it stays.
  expect(engine.wasEvicted('acme', newer)).toBe(true);
  expect(engine.getValidation('acme', older)).toBeDefined();
  // Over the limit with nothing settled, the oldest goes anyway, and its scheduled outcomes are cancelled.
  create('22222222-2');
  expect(engine.wasEvicted('acme', older)).toBe(true);
  emitted.length = 0;
  clock.runAll();
  expect(emitted).not.toContain(older);
  expect(emitted).toContain(third);
  expect(engine.retention()).toEqual({ validations: 2, max_validations: 2, evicted_validations: 2 });
});

test('GET /_mock/events pages with cursor and limit, every record once, and a bad limit is a 422 naming it', async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({ clock: 'instant', webhookUrl: receiver.url });
  for (let index = 0; index < 3; index += 1) await server.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await server.runClock();
  const seen: string[] = [];
  let cursor: string | null = '';
  let pages = 0;
  while (cursor !== null) {
    const page: { events: DeliveryEvent[]; next_cursor: string | null } = (await server.call(`/_mock/events?limit=5&cursor=${cursor}`)).json();
    expect(page.events.length).toBeLessThanOrEqual(5);
    seen.push(...page.events.map((event) => event.id));
    cursor = page.next_cursor;
    pages += 1;
  }
  expect(seen).toHaveLength(36);
  expect(new Set(seen).size).toBe(36);
  expect(pages).toBe(8);
  // Without limit: the default page of 100.
  const all = (await server.call('/_mock/events')).json<{ events: DeliveryEvent[]; next_cursor: string | null }>();
  expect(all.events.map((event) => event.id)).toEqual(seen);
  expect(all.next_cursor).toBeNull();
  const bad = expectApiError(await server.call('/_mock/events?limit=0'), 422, 'validation_failed');
  expect(bad.issues[0]!.path).toBe('$query.limit');
  expectApiError(await server.call('/_mock/events?cursor=nonsense'), 422, 'validation_failed');
});

test('GET /_mock/requests pages with cursor and limit, oldest first', async () => {
  server = await startTestServer({ clock: 'instant' });
  for (let index = 0; index < 7; index += 1) await server.get('/api/v2/webhook_endpoints');
  const first = (await server.call('/_mock/requests?limit=4')).json<{ requests: Array<{ id: string }>; next_cursor: string }>();
  expect(first.requests).toHaveLength(4);
  const second = (await server.call(`/_mock/requests?limit=4&cursor=${first.next_cursor}`)).json<{
    requests: Array<{ id: string }>;
    next_cursor: string | null;
  }>();
  expect(second.requests).toHaveLength(3);
  expect(second.next_cursor).toBeNull();
  expect([...first.requests, ...second.requests].map((entry) => entry.id)).toEqual([
    'req_000001',
    'req_000002',
    'req_000003',
    'req_000004',
    'req_000005',
    'req_000006',
    'req_000007',
  ]);
});

test('the journal and delivery records keep their configured number of entries', async () => {
  receiver = await startWebhookReceiver();
  server = await startTestServer({ clock: 'instant', webhookUrl: receiver.url, retention: { maxJournalEntries: 5, maxDeliveryRecords: 20 } });
  for (let index = 0; index < 4; index += 1) await server.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await server.runClock();
  for (let index = 0; index < 10; index += 1) await server.get('/api/v2/webhook_endpoints');
  const health = (await server.call('/_mock/health')).json<Health>();
  expect(health.retention.journal).toEqual({ entries: 5, max_entries: 5 });
  expect(health.deliveries.records).toBeLessThanOrEqual(20);
  expect(health.deliveries.evicted_records).toBe(48 - health.deliveries.records);
  const requests = (await server.call('/_mock/requests')).json<{ requests: Array<{ id: string }> }>().requests;
  expect(requests.map((entry) => entry.id)).toEqual(['req_000011', 'req_000012', 'req_000013', 'req_000014', 'req_000015']);
});
