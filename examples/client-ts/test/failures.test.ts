import 'bvs-mock/testing/jest';
import { SCENARIOS, expectNoViolations, startBvsMock, type RunningBvsMock } from 'bvs-mock/testing';
import { BvsClient } from '../src/bvs-client';
import { MemoryInbox, startReceiver, type Inbox, type Receiver } from '../src/webhook-receiver';
import type { BvsEvent } from '../src/validation-tracker';

// What goes wrong: a receiver whose store fails first, a token the service expired before our clock did,
// a forged delivery, duplicates, and a wrong request that bvs-mock's report names.

const SECRET = 'whsec_example_client';
let bvs: RunningBvsMock;
let receivers: Receiver[] = [];

beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'manual' });
});
afterAll(() => bvs.stop());
beforeEach(() => bvs.control.reset());
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

async function receiverWith(inbox?: Inbox): Promise<Receiver> {
  const receiver = await startReceiver({ secret: SECRET, inbox });
  receivers.push(receiver);
  await bvs.control.createEndpoint({ name: 'example', url: receiver.url, auth_type: 'secret', secret: SECRET });
  return receiver;
}

const clientFor = (options: { now?: () => number } = {}) =>
  new BvsClient({ baseUrl: bvs.url, clientId: bvs.oauthClient.clientId, clientSecret: bvs.oauthClient.clientSecret, fetch: bvs.fetch, ...options });

test('a receiver whose store fails at first answers 503; bvs-mock retries and every event is processed once', async () => {
  let failures = 2;
  const memory = new MemoryInbox();
  const receiver = await receiverWith({
    add: async (key: string, event: BvsEvent) => {
      if (failures > 0) {
        failures -= 1;
        throw new Error('database unavailable');
      }
      return memory.add(key, event);
    },
  });
  const created = await clientFor().createValidation({ tin: SCENARIOS.happyNoPartners.tin, country: SCENARIOS.happyNoPartners.country });
  await bvs.control.run();
  await receiver.idle();
  expect(receiver.counts.storeFailures).toBe(2);
  const records = await bvs.control.allEvents({ entity_validation_id: created.id });
  expect(records.every((record) => record.status === 'succeeded')).toBe(true);
  expect(records.filter((record) => record.attempts.length > 1).length).toBeGreaterThan(0);
  expect(receiver.counts.accepted).toBe(records.length);
  expect(receiver.tracker.get(created.data_source_run_batches[0]!.id)).toMatchObject({ ready: true, treeComplete: true });
  const report = await bvs.control.report();
  expect(report.receivers.findings[0]).toMatchObject({ not_2xx: 2, retried_deliveries: expect.any(Number) });
});

test('duplicates and redeliveries are acknowledged and processed once', async () => {
  const receiver = await receiverWith();
  await bvs.control.addFault({ kind: 'duplicate_delivery', share: 1 });
  const created = await clientFor().createValidation({ tin: SCENARIOS.happyNoPartners.tin, country: SCENARIOS.happyNoPartners.country });
  await bvs.control.run();
  const [first] = await bvs.control.allEvents({ entity_validation_id: created.id });
  await bvs.control.redeliver(first!.id);
  await receiver.idle();
  expect(receiver.counts.duplicates).toBe(receiver.counts.accepted + 1);
  expect(receiver.tracker.seen.get('data_source_run_batch.ready')).toBe(1);
});

test('a delivery with a forged Authorization header is refused', async () => {
  const receiver = await receiverWith();
  const forged = await fetch(receiver.url, {
    method: 'POST',
    headers: { authorization: 'Bearer not-the-secret', 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'data_source_run_batch.ready', data_source_run_batch: {} }),
  });
  expect(forged.status).toBe(401);
  expect(receiver.counts).toMatchObject({ refused: 1, accepted: 0 });
});

test('a token the service expired before our clock did: one renewal, the call succeeds', async () => {
  await receiverWith();
  const client = clientFor();
  await client.createValidation({ tin: SCENARIOS.happyNoPartners.tin, country: SCENARIOS.happyNoPartners.country });
  // Two simulated hours pass in bvs-mock; our own clock has not moved, so the cached token looks fresh to us.
  await bvs.control.advance(7201);
  const created = await client.createValidation({ tin: SCENARIOS.happyNoPartners.tin, country: SCENARIOS.happyNoPartners.country });
  expect(created.id).toMatch(/^evl_/);
  expect(client.tokensFetched).toBe(2);
  // The expired token is a client mistake bvs-mock records, with its rule.
  const journal = await bvs.control.requests({ violations: true });
  expect(journal.requests.map((entry) => entry.violations.map((violation) => violation.code))).toEqual([['token_expired']]);
});

test('expectNoViolations catches a wrong request and names its JSON path', async () => {
  await receiverWith();
  const client = clientFor();
  await client.createValidation({ tin: SCENARIOS.happyNoPartners.tin, country: SCENARIOS.happyNoPartners.country, nickname: 'x' } as never);
  await expect(expectNoViolations(bvs)).rejects.toThrow(/\$\.nickname/);
});
