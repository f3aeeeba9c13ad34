import { mockParts } from '../../src/mock/create-mock';
import { performance } from 'node:perf_hooks';
import type { EngineEvent } from '../../src/engine';
import type { DeliveryEvent, WebhookEndpoint } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { DEFAULT_API_KEY, expectApiError, startTestServer, useTestServer } from '../support/api-test-server';
import { expectDeliveryRecord } from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS, HAPPY_PARTNERS } from '../support/built-in-tins';

// The dashboard's event history and the tests' fault levers, over real HTTPS (docs/design.md Control
// API: GET /_mock/events, POST /_mock/events/:id/redeliver, POST and DELETE /_mock/faults;
// spec §2 Delivery event record, §6 Subscription and delivery item 3; docs/fidelity.md row 30).

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

/** An api_latency fault's wait on the injected wall clock, held until the test releases it. */
interface HeldLatency {
  ms: number;
  release(): void;
}
const held: HeldLatency[] = [];
let onHeld: (() => void) | undefined;
/** The next latency the server waits for, once a request reaches it. */
const nextHeldLatency = () =>
  new Promise<HeldLatency>((resolve) => {
    const take = () => resolve(held.shift()!);
    if (held.length > 0) take();
    else onHeld = take;
  });
const delay = (ms: number) =>
  new Promise<void>((release) => {
    held.push({ ms, release });
    onHeld?.();
    onHeld = undefined;
  });

const t = useTestServer(() => ({ webhookUrl: receiver.url, wallClock: { delay } }));
const emitted = t.events;

beforeEach(() => {
  receiver.received.length = 0;
  receiver.respond(() => 200);
});

async function events(query = ''): Promise<DeliveryEvent[]> {
  const answer = await t.call(`/_mock/events${query}`);
  expect(answer.status).toBe(200);
  return answer.json<{ events: DeliveryEvent[] }>().events.map(expectDeliveryRecord);
}

async function fault(body: Record<string, unknown>): Promise<void> {
  const answer = await t.json('POST', '/_mock/faults', body);
  expect(answer.status).toBe(201);
}

const redeliver = (id: string) => t.call(`/_mock/events/${id}/redeliver`, { method: 'POST' });
const raws = () => receiver.received.map((hook) => hook.raw);
const bodies = (list: readonly EngineEvent[]) => list.map((event) => JSON.stringify(event.body));

test('a redelivery adds an attempt with trigger redelivery and the receiver gets the identical body again', async () => {
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.runClock();
  const ready = (await events('?type=data_source_run_batch.ready'))[0]!;
  const before = receiver.received.length;
  const answer = await redeliver(ready.id);
  expect(answer.status).toBe(200);
  const after = expectDeliveryRecord(answer.json());
  expect(after.status).toBe('succeeded');
  expect(after.attempts.map((attempt) => [attempt.number, attempt.trigger, attempt.response_code])).toEqual([
    [1, 'first', 200],
    [2, 'redelivery', 200],
  ]);
  expect(receiver.received).toHaveLength(before + 1);
  expect(receiver.received[before]!.raw).toBe(JSON.stringify(emitted.find((event) => event.type === 'data_source_run_batch.ready')!.body));
  expect(receiver.received.filter((hook) => hook.raw === receiver.received[before]!.raw)).toHaveLength(2);
  expect((await t.call(`/_mock/events/${ready.id}`)).json()).toEqual(after);
});

test('a redelivery of a failed record that now succeeds makes it succeeded', async () => {
  receiver.respond(() => 500);
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.runClock();
  const [first] = await events();
  expect(first).toMatchObject({ status: 'failed' });
  expect(first!.attempts).toHaveLength(21);
  receiver.respond(() => 200);
  const after = expectDeliveryRecord((await redeliver(first!.id)).json());
  expect(after.status).toBe('succeeded');
  expect(after.attempts.at(-1)).toMatchObject({ number: 22, trigger: 'redelivery', response_code: 200 });
});

test('redelivering an unknown event answers 404 not_found', async () => {
  expectApiError(await redeliver('evt_unknown'), 404, 'not_found');
  expectApiError(await t.call('/_mock/events/evt_unknown'), 404, 'not_found');
});

test('a successful redelivery while a retry waits ends the record: the scheduled retry is not sent', async () => {
  receiver.respond((_hook, index) => (index === 0 ? 500 : 200));
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.advance(25);
  await mockParts(t.server).world.deliveries.settled();
  const [pending] = await events();
  expect(pending).toMatchObject({ status: 'pending', attempts: [{ response_code: 500 }] });
  const after = expectDeliveryRecord((await redeliver(pending!.id)).json());
  expect(after).toMatchObject({ status: 'succeeded', next_attempt_at: null });
  await t.runClock();
  const [settled] = await events(`?resource_id=${pending!.resource_id}`);
  expect(settled!.attempts.map((attempt) => attempt.trigger)).toEqual(['first', 'redelivery']);
  expect(receiver.received.filter((hook) => hook.raw === receiver.received[0]!.raw)).toHaveLength(2);
});

test('a failed redelivery while a retry waits keeps one retry schedule: 21 scheduled attempts at most', async () => {
  receiver.respond(() => 500);
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.advance(25);
  await mockParts(t.server).world.deliveries.settled();
  const [pending] = await events();
  await redeliver(pending!.id);
  await t.runClock();
  const [settled] = await events(`?resource_id=${pending!.resource_id}`);
  expect(settled!.status).toBe('failed');
  expect(settled!.attempts.filter((attempt) => attempt.trigger !== 'redelivery')).toHaveLength(21);
});

test('a redelivery to an endpoint that is disabled sends nothing: a disabled endpoint receives nothing', async () => {
  const endpoint = (
    await t.json('POST', '/_mock/webhook_endpoints', {
      name: 'off',
      url: `${receiver.url}/off`,
      enabled: false,
      subscribed_events: ['data_source_run_batch.ready'],
    })
  ).json<{
    webhook_endpoint: WebhookEndpoint;
  }>().webhook_endpoint;
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.runClock();
  const [record] = await events(`?endpoint_id=${endpoint.id}`);
  expect(record).toMatchObject({ status: 'failed', attempts: [{ error: 'endpoint_disabled' }] });
  const after = expectDeliveryRecord((await redeliver(record!.id)).json());
  expect(receiver.received.filter((hook) => hook.path.endsWith('/off'))).toHaveLength(0);
  expect(after.attempts.at(-1)).toMatchObject({ trigger: 'redelivery', response_code: null, error: 'endpoint_disabled' });
});

test('a duplicate_delivery fault with share 1 sends every body twice, identical bytes, one after the other', async () => {
  await fault({ kind: 'duplicate_delivery', share: 1 });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(raws()).toEqual(bodies(emitted).flatMap((body) => [body, body]));
  for (const record of await events()) {
    expect(record.status).toBe('succeeded');
    expect(record.attempts.map((attempt) => attempt.trigger)).toEqual(['first', 'duplicate_fault']);
  }
  const listed = (await t.call('/_mock/faults')).json<{ faults: Array<{ kind: string; applied: number }> }>().faults;
  expect(listed).toEqual([expect.objectContaining({ kind: 'duplicate_delivery', share: 1, applied: emitted.length, id: expect.any(String) })]);
});

test('a delay_delivery fault holds a delivery back on the instant clock, so later events overtake it', async () => {
  const instant = await startTestServer({ clock: 'instant', webhookUrl: receiver.url });
  try {
    const played: EngineEvent[] = [];
    mockParts(instant.server).world.engine.subscribe((event) => played.push(event));
    expect((await instant.json('POST', '/_mock/faults', { kind: 'delay_delivery', seconds: 600, event_type: 'data_source_run_batch.ready' })).status).toBe(201);
    await instant.create({ tin: HAPPY_PARTNERS, country: 'CL' });
    await instant.runClock();
    const ready = played.find((event) => event.type === 'data_source_run_batch.ready')!;
    expect(raws()).toEqual([...bodies(played.filter((event) => event !== ready)), JSON.stringify(ready.body)]);
    const record = (await instant.call('/_mock/events?type=data_source_run_batch.ready')).json<{ events: DeliveryEvent[] }>().events[0]!;
    expect(record.status).toBe('succeeded');
    expect(Date.parse(record.attempts[0]!.at) - Date.parse(ready.emittedAt)).toBe(600_000);
  } finally {
    await instant.close();
  }
});

test('with the manual clock, a delayed delivery is not sent before the events emitted ahead of it', async () => {
  await fault({ kind: 'delay_delivery', seconds: 600, event_type: 'data_source_run_batch.ready' });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const ready = emitted.find((event) => event.type === 'data_source_run_batch.ready')!;
  // Held back 600 s, longer than the rest of the tree takes: everything else arrives first, in order.
  expect(raws()).toEqual([...bodies(emitted.filter((event) => event !== ready)), JSON.stringify(ready.body)]);
});

test('DELETE /_mock/faults clears every fault: the next deliveries arrive once and in order', async () => {
  await fault({ kind: 'duplicate_delivery', share: 1 });
  await fault({ kind: 'delay_delivery', seconds: 60 });
  expect((await t.call('/_mock/faults')).json<{ faults: unknown[] }>().faults).toHaveLength(2);
  expect((await t.call('/_mock/faults', { method: 'DELETE' })).status).toBe(204);
  expect((await t.call('/_mock/faults')).json()).toEqual({ faults: [] });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(raws()).toEqual(bodies(emitted));
});

test('a fault request that is not one of the four kinds answers 422 with the path', async () => {
  const answer = await t.json('POST', '/_mock/faults', { kind: 'drop_everything' });
  expectApiError(answer, 422, 'validation_failed');
});

test('GET /_mock/events filters by type, status, resource_id and endpoint_id; every record is a DeliveryEvent', async () => {
  const add = async (body: Record<string, unknown>) =>
    (await t.json('POST', '/_mock/webhook_endpoints', { name: 'extra', url: receiver.url, ...body })).json<{ webhook_endpoint: WebhookEndpoint }>()
      .webhook_endpoint;
  const readyOnly = await add({ subscribed_events: ['data_source_run_batch.ready'] });
  const disabled = await add({ enabled: false, subscribed_events: ['data_source_run_batch.data_source_run.ready'] });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const all = await events();
  const runReady = emitted.find((event) => event.type === 'data_source_run_batch.data_source_run.ready')!;
  const mainBatch = emitted.find((event) => event.type === 'data_source_run_batch.ready')!.resourceId;
  const filters: Array<[string, (record: DeliveryEvent) => boolean]> = [
    ['type=data_source_run_batch.data_source_run.ready', (record) => record.type === 'data_source_run_batch.data_source_run.ready'],
    ['type=entity_validation.stakeholder.created', (record) => record.type === 'entity_validation.stakeholder.created'],
    ['status=succeeded', (record) => record.status === 'succeeded'],
    ['status=failed', (record) => record.status === 'failed'],
    [`resource_id=${runReady.resourceId}`, (record) => record.resource_id === runReady.resourceId],
    [`resource_id=${mainBatch}`, (record) => record.resource_id === mainBatch],
    [`endpoint_id=${readyOnly.id}`, (record) => record.endpoint_id === readyOnly.id],
    [`endpoint_id=${disabled.id}`, (record) => record.endpoint_id === disabled.id],
    [
      `type=data_source_run_batch.ready&endpoint_id=${readyOnly.id}`,
      (record) => record.type === 'data_source_run_batch.ready' && record.endpoint_id === readyOnly.id,
    ],
    ['type=information_request.evaluated', () => false],
  ];
  for (const [query, keep] of filters) {
    expect({ query, ids: (await events(`?${query}`)).map((record) => record.id) }).toEqual({ query, ids: all.filter(keep).map((record) => record.id) });
  }
  expect(all.filter((record) => record.status === 'failed').every((record) => record.endpoint_id === disabled.id)).toBe(true);
  expect(all.filter((record) => record.endpoint_id === disabled.id)).toHaveLength(
    emitted.filter((event) => event.type === 'data_source_run_batch.data_source_run.ready').length,
  );
  const counts = (await t.call('/_mock/events')).json<{ counts: Record<string, number> }>().counts;
  expect(counts).toEqual({
    pending: 0,
    succeeded: all.filter((record) => record.status === 'succeeded').length,
    failed: all.filter((record) => record.status === 'failed').length,
    expired: 0,
  });
  // Fidelity row 30: evt_ ids; the payload is the body sent.
  for (const record of all) {
    expect(record.id).toMatch(/^evt_/);
    expect(JSON.stringify(record.payload)).toBe(
      JSON.stringify(emitted.find((event) => event.resourceId === record.resource_id && event.type === record.type)!.body),
    );
  }
});

test('an api_error fault with count 2 answers two 503s and then the normal answer; the control API is never hit', async () => {
  await fault({ kind: 'api_error', count: 2 });
  const statuses: number[] = [];
  for (let index = 0; index < 3; index += 1) {
    const answer = await t.get('/api/v2/webhook_endpoints');
    statuses.push(answer.status);
    if (answer.status === 503) expectApiError(answer, 503, 'service_unavailable');
    expect((await t.call('/_mock/health')).status).toBe(200);
  }
  expect(statuses).toEqual([503, 503, 200]);
});

test.each([
  { code: 'rate_limited', status: 429 },
  { code: 'internal_error', status: 500 },
])('an api_error fault with code $code answers $status on the matching path and method only', async ({ code, status }) => {
  await fault({ kind: 'api_error', code, method: 'post', path: '/api/v2/entity_validations' });
  expectApiError(
    await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_NO_PARTNERS, country: 'CL' }, { authorization: `Bearer ${DEFAULT_API_KEY}` }),
    status,
    code as 'rate_limited',
  );
  expect((await t.get('/api/v2/webhook_endpoints')).status).toBe(200);
});

test('an api_latency fault holds matching API answers for its milliseconds, and no other answer', async () => {
  await fault({ kind: 'api_latency', ms: 300, path: '/api/v2/webhook_endpoints' });
  let answered = false;
  const slow = t.get('/api/v2/webhook_endpoints').then((answer) => {
    answered = true;
    return answer;
  });
  const latency = await nextHeldLatency();
  expect(latency.ms).toBe(300);
  // While the matching request is held, other requests are answered without a wait of their own.
  expect((await t.call('/_mock/health')).status).toBe(200);
  expect((await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' })).tin).toBe(HAPPY_NO_PARTNERS);
  expect(held).toEqual([]);
  expect(answered).toBe(false);
  latency.release();
  expect((await slow).status).toBe(200);
});

test('without an injected wall clock, api_latency is real time: the answer comes no sooner than its milliseconds', async () => {
  const real = await startTestServer();
  try {
    expect((await real.json('POST', '/_mock/faults', { kind: 'api_latency', ms: 100, path: '/api/v2/webhook_endpoints' })).status).toBe(201);
    const started = performance.now();
    expect((await real.get('/api/v2/webhook_endpoints')).status).toBe(200);
    // Node's timers count whole milliseconds of the event loop's time, which may run a little behind performance.now().
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  } finally {
    await real.close();
  }
});
