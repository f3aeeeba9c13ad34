import { mockParts } from '../../src/mock/create-mock';
import { createServer, type AddressInfo } from 'node:net';
import { startWebhookReceiver, type ReceiverAnswer, type WebhookReceiver } from '../../src/testing';
import {
  defaultOrganizationWith,
  expectDeliveryRecord,
  expectedBackoffSeconds,
  gapsInSeconds,
  startDeliveryHarness,
  type DeliveryHarness,
} from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// Retries (spec §6 Subscription and delivery item 2, §7 item 2, §8: up to 20 retries with
// exponential backoff; docs/fidelity.md rows 15 and 27: 15 s after the first failure, doubling,
// capped at one hour, on the simulated clock).

const READY = 'data_source_run_batch.ready';
/** Every retry interval, in seconds: 15, 30, ..., 1920, then 3600 twelve times. */
const FULL_SCHEDULE = [15, 30, 60, 120, 240, 480, 960, 1920, ...Array<number>(12).fill(3600)];

let receiver: WebhookReceiver | undefined;
let harness: DeliveryHarness | undefined;

afterEach(async () => {
  harness?.mock.dispose();
  harness = undefined;
  await receiver?.close();
  receiver = undefined;
});

/** A receiver answering each distinct body with `answers[n]` on its n-th arrival, and 200 after them. */
async function receiverAnswering(answers: readonly ReceiverAnswer[]): Promise<WebhookReceiver> {
  const seen = new Map<string, number>();
  return startWebhookReceiver({
    respond(hook) {
      const count = seen.get(hook.raw) ?? 0;
      seen.set(hook.raw, count + 1);
      return answers[count] ?? 200;
    },
  });
}

/** An endpoint subscribed to data_source_run_batch.ready only: one record per validation. */
function readyOnly(url: string, extra: Record<string, unknown> = {}): DeliveryHarness {
  return startDeliveryHarness({ config: defaultOrganizationWith([{ url, subscribed_events: [READY] }]), ...extra });
}

test('the retry schedule is 15 s doubling, capped at one hour, twenty retries', () => {
  expect(expectedBackoffSeconds(20)).toEqual(FULL_SCHEDULE);
});

test.each([1, 2, 5, 9])(
  'a receiver failing %i times then answering 200 gets that many retries at the backoff intervals, and the record succeeds',
  async (failures) => {
    receiver = await receiverAnswering(Array<ReceiverAnswer>(failures).fill(500));
    harness = startDeliveryHarness({ webhookUrl: receiver.url });
    harness.create(HAPPY_NO_PARTNERS);
    await harness.mock.drain();
    const records = harness.records();
    expect(records).toHaveLength(harness.emitted.length);
    for (const record of records) {
      expectDeliveryRecord(record);
      expect(record.status).toBe('succeeded');
      expect(record.next_attempt_at).toBeNull();
      expect(record.attempts.map((attempt) => [attempt.number, attempt.trigger, attempt.response_code])).toEqual([
        ...Array.from({ length: failures }, (_unused, index) => [index + 1, index === 0 ? 'first' : 'retry', 500]),
        [failures + 1, 'retry', 200],
      ]);
      expect(gapsInSeconds(record.attempts.map((attempt) => attempt.at))).toEqual(expectedBackoffSeconds(failures));
    }
    // Every body arrived failures + 1 times, byte for byte the same.
    expect(receiver.received).toHaveLength(harness.emitted.length * (failures + 1));
    expect(new Set(receiver.received.map((hook) => hook.raw)).size).toBe(harness.emitted.length);
  },
);

test('a receiver that always fails gets 21 attempts at the full schedule, then the record is failed', async () => {
  receiver = await startWebhookReceiver({ respond: () => ({ status: 500, body: 'down for maintenance' }) });
  harness = readyOnly(receiver.url);
  harness.create(HAPPY_NO_PARTNERS);
  await harness.mock.drain();
  const [record] = harness.records();
  expectDeliveryRecord(record);
  expect(record).toMatchObject({ status: 'failed', next_attempt_at: null });
  expect(record!.attempts).toHaveLength(21);
  expect(record!.attempts.map((attempt) => attempt.trigger)).toEqual(['first', ...Array<string>(20).fill('retry')]);
  expect(record!.attempts.every((attempt) => attempt.response_code === 500 && attempt.response_body === 'down for maintenance' && attempt.error === null)).toBe(
    true,
  );
  expect(gapsInSeconds(record!.attempts.map((attempt) => attempt.at))).toEqual(FULL_SCHEDULE);
  expect(receiver.received).toHaveLength(21);
  // The retries ran on the simulated clock: about 13 simulated hours, not real ones.
  expect((Date.parse(record!.attempts[20]!.at) - Date.parse(record!.attempts[0]!.at)) / 3600_000).toBeCloseTo(
    FULL_SCHEDULE.reduce((sum, gap) => sum + gap, 0) / 3600,
    5,
  );
});

test.each<{ status: number; succeeds: boolean }>([
  { status: 200, succeeds: true },
  { status: 201, succeeds: true },
  { status: 202, succeeds: true },
  { status: 204, succeeds: true },
  { status: 299, succeeds: true },
  { status: 301, succeeds: false },
  { status: 302, succeeds: false },
  { status: 304, succeeds: false },
  { status: 400, succeeds: false },
  { status: 401, succeeds: false },
  { status: 404, succeeds: false },
  { status: 410, succeeds: false },
  { status: 429, succeeds: false },
  { status: 500, succeeds: false },
  { status: 503, succeeds: false },
])('an answer $status counts as success: $succeeds', async ({ status, succeeds }) => {
  receiver = await receiverAnswering([status]);
  harness = readyOnly(receiver.url);
  harness.create(HAPPY_NO_PARTNERS);
  await harness.mock.drain();
  const [record] = harness.records();
  expect(record!.status).toBe('succeeded');
  expect(record!.attempts.map((attempt) => attempt.response_code)).toEqual(succeeds ? [status] : [status, 200]);
  expect(receiver.received).toHaveLength(succeeds ? 1 : 2);
});

test.each<{ error: string; answer: ReceiverAnswer; timeoutMs?: number }>([
  { error: 'timeout', answer: { status: 200, delayMs: 1000 }, timeoutMs: 200 },
  { error: 'connection_reset', answer: 'drop' },
])('a receiver that does not answer gives an attempt with error $error, then the retry succeeds', async ({ error, answer, timeoutMs }) => {
  receiver = await receiverAnswering([answer]);
  harness = readyOnly(receiver.url, timeoutMs === undefined ? {} : { deliveryTimeoutMs: timeoutMs });
  harness.create(HAPPY_NO_PARTNERS);
  await harness.mock.drain();
  const [record] = harness.records();
  expectDeliveryRecord(record);
  expect(record!.attempts.map((attempt) => [attempt.trigger, attempt.response_code, attempt.error])).toEqual([
    ['first', null, error],
    ['retry', 200, null],
  ]);
  expect(record!.status).toBe('succeeded');
  // The attempt ended at the timeout, not at the receiver's late answer: that answer (200) is not recorded.
  if (timeoutMs !== undefined) expect(record!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(timeoutMs * 0.9);
});

test('a refused connection gives 21 attempts with error connection_refused and a failed record', async () => {
  const port = await closedPort();
  harness = readyOnly(`http://127.0.0.1:${port}/hooks`);
  harness.create(HAPPY_NO_PARTNERS);
  await harness.mock.drain();
  const [record] = harness.records();
  expectDeliveryRecord(record);
  expect(record!.status).toBe('failed');
  expect(record!.attempts.map((attempt) => attempt.error)).toEqual(Array<string>(21).fill('connection_refused'));
  expect(record!.attempts.every((attempt) => attempt.response_code === null)).toBe(true);
  expect(gapsInSeconds(record!.attempts.map((attempt) => attempt.at))).toEqual(FULL_SCHEDULE);
});

test.each([
  { change: 'disabling', method: 'PATCH', body: { enabled: false } },
  { change: 'deleting', method: 'DELETE', body: undefined },
])('$change the endpoint while a retry waits expires the record, and no further attempt is made', async ({ method, body }) => {
  receiver = await startWebhookReceiver({ respond: () => 500 });
  harness = startDeliveryHarness({ clock: 'manual', config: defaultOrganizationWith([{ id: 'whe_flaky', url: receiver.url, subscribed_events: [READY] }]) });
  harness.create(HAPPY_NO_PARTNERS);
  for (const ms of [55_000, 15_000]) {
    // Manual clock: an attempt ends after the clock moved, so its retry is scheduled only then.
    mockParts(harness.mock).world.clock.advance(ms);
    await mockParts(harness.mock).world.deliveries.settled();
  }
  let [record] = harness.records();
  expect(record).toMatchObject({ status: 'pending', attempts: [{ trigger: 'first' }, { trigger: 'retry' }] });
  expect(record!.next_attempt_at).not.toBeNull();

  const answer = await harness.call(method, '/_mock/webhook_endpoints/whe_flaky', body);
  expect(answer.status).toBe(method === 'DELETE' ? 204 : 200);
  [record] = harness.records();
  expect(record).toMatchObject({ status: 'expired', next_attempt_at: null });

  mockParts(harness.mock).world.clock.advance(24 * 3600_000);
  await harness.mock.drain();
  [record] = harness.records();
  expect(record!.status).toBe('expired');
  expect(record!.attempts).toHaveLength(2);
  expect(receiver.received).toHaveLength(2);
  expect((await harness.call('GET', `/_mock/events/${record!.id}`)).json()).toEqual(record);
});

test.each([
  {
    change: 'disabling',
    withdraw: (h: DeliveryHarness) =>
      mockParts(h.mock).world.endpoints.update(mockParts(h.mock).world.endpoints.get(mockParts(h.mock).world.registry.defaultId, 'whe_flaky')!, {
        enabled: false,
      }),
  },
  {
    change: 'deleting',
    withdraw: (h: DeliveryHarness) => mockParts(h.mock).world.endpoints.remove(mockParts(h.mock).world.registry.defaultId, 'whe_flaky'),
  },
])('$change the endpoint in the endpoint store itself, not through a route, expires the waiting retry', async ({ withdraw }) => {
  receiver = await startWebhookReceiver({ respond: () => 500 });
  harness = startDeliveryHarness({ clock: 'manual', config: defaultOrganizationWith([{ id: 'whe_flaky', url: receiver.url, subscribed_events: [READY] }]) });
  harness.create(HAPPY_NO_PARTNERS);
  mockParts(harness.mock).world.clock.advance(55_000);
  await mockParts(harness.mock).world.deliveries.settled();
  expect(harness.records()[0]!.next_attempt_at).not.toBeNull();

  withdraw(harness);
  expect(harness.records()[0]).toMatchObject({ status: 'expired', next_attempt_at: null });
  mockParts(harness.mock).world.clock.advance(24 * 3600_000);
  await harness.mock.drain();
  expect(receiver.received).toHaveLength(1);
});

test('a delivery queued behind a slow one still leaves at its own turn, and the queue keeps the engine order', async () => {
  receiver = await startWebhookReceiver({ respond: (_hook, index) => (index === 0 ? { status: 200, delayMs: 150 } : 200) });
  harness = startDeliveryHarness({ clock: 'manual', webhookUrl: receiver.url });
  harness.create(HAPPY_NO_PARTNERS);
  await harness.mock.drain();
  expect(receiver.received.map((hook) => hook.raw)).toEqual(harness.emitted.map((event) => JSON.stringify(event.body)));
});

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
