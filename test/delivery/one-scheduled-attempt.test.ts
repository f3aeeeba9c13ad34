import { mockParts } from '../../src/mock/create-mock';
import { startWebhookReceiver, type Responder, type WebhookReceiver } from '../../src/testing';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';
import { defaultOrganizationWith, startDeliveryHarness, type DeliveryHarness } from '../support/delivery-harness';

// A delivery waits for at most one scheduled attempt (spec §8: one backoff per delivery), and its record
// says when (`next_attempt_at`), so that disabling its endpoint expires it at once (docs/fidelity.md row 15).

let receiver: WebhookReceiver;
let harness: DeliveryHarness;

async function start(respond: Responder, endpoint: Record<string, unknown> = {}): Promise<void> {
  receiver = await startWebhookReceiver({ respond });
  harness = startDeliveryHarness({ clock: 'manual', config: defaultOrganizationWith([{ url: receiver.url, ...endpoint }]) });
}

afterEach(async () => {
  harness.mock.dispose();
  await receiver.close();
});

/** Moves the manual clock one simulated second at a time up to the first deliveries: their retries, 15 s on, have not come yet. */
async function upToFirstDeliveries() {
  harness.create(HAPPY_NO_PARTNERS);
  for (let second = 0; second < 600 && harness.records().length === 0; second += 1) await mockParts(harness.mock).world.advance(1000);
  await mockParts(harness.mock).world.deliveries.settled();
  const records = harness.records();
  expect(records.length).toBeGreaterThan(0);
  return records;
}

async function duplicatedFirstFailures() {
  await start(() => 500);
  expect((await harness.call('POST', '/_mock/faults', { kind: 'duplicate_delivery', share: 1 })).status).toBe(201);
  const records = await upToFirstDeliveries();
  for (const record of records) expect(record.attempts.map((attempt) => attempt.trigger)).toEqual(['first', 'duplicate_fault']);
  return records;
}

test('after a failed first attempt and its duplicate, the record still shows its retry 15 s after the first', async () => {
  for (const record of await duplicatedFirstFailures()) {
    expect(record.status).toBe('pending');
    expect(record.next_attempt_at).toBe(new Date(Date.parse(record.attempts[0]!.at) + 15_000).toISOString());
  }
});

test('disabling the endpoint then expires such a record at once, as it does any record waiting for a retry', async () => {
  const [record] = await duplicatedFirstFailures();
  expect((await harness.call('PATCH', `/_mock/webhook_endpoints/${record!.endpoint_id}`, { enabled: false })).status).toBe(200);
  for (const after of harness.records()) {
    expect({ status: after.status, reason: after.reason, next: after.next_attempt_at }).toEqual({ status: 'expired', reason: 'endpoint_disabled', next: null });
  }
});

test('a redelivery that fails while a retry is under way leaves one retry scheduled, not two', async () => {
  let retryArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (retryArrived = resolve));
  // The first attempt fails at once; the retry is answered late, so a redelivery goes and fails while it runs.
  await start(
    (_hook, index) => {
      if (index !== 1) return 500;
      retryArrived();
      return { status: 500, delayMs: 300 };
    },
    { subscribed_events: ['data_source_run_batch.consolidated_report_ready'] },
  );
  const [first] = await upToFirstDeliveries();
  expect(harness.records()).toHaveLength(1);
  const firstAt = Date.parse(first!.attempts[0]!.at);
  const advancing = mockParts(harness.mock).world.advance(firstAt + 15_000 - mockParts(harness.mock).world.clock.now());
  await arrived;
  const organizationId = mockParts(harness.mock).world.registry.defaultId;
  expect((await mockParts(harness.mock).world.deliveries.redeliver(organizationId, first!.id))!.attempts.map((attempt) => attempt.trigger)).toEqual([
    'first',
    'redelivery',
  ]);
  await advancing;
  await mockParts(harness.mock).world.deliveries.settled();
  const [afterRetry] = harness.records();
  expect(afterRetry!.attempts.map((attempt) => attempt.trigger)).toEqual(['first', 'redelivery', 'retry']);
  // The retry is the spec's second try: the next comes 30 s after it began.
  const retryAt = Date.parse(afterRetry!.attempts[2]!.at);
  expect(retryAt).toBe(firstAt + 15_000);
  expect(afterRetry!.next_attempt_at).toBe(new Date(retryAt + 30_000).toISOString());
  await mockParts(harness.mock).world.advance(retryAt + 30_000 - mockParts(harness.mock).world.clock.now());
  await mockParts(harness.mock).world.deliveries.settled();
  const later = harness.records()[0]!.attempts.slice(3);
  expect(later.map((attempt) => [attempt.trigger, attempt.at])).toEqual([['retry', new Date(retryAt + 30_000).toISOString()]]);
});
