import { setTimeout as sleep } from 'node:timers/promises';
import { createMock, type MockOptions } from '../../src/http';
import type { DeliveryEvent, Health } from '../../src/schemas';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { startHangingTcpReceiver, type HangingTcpReceiver } from '../support/raw-tcp-receiver';

/**
 * Regression: pending deliveries grew without limit behind one receiver that hangs. With
 * `--max-delivery-records 1000 --max-validations 500` and one endpoint that never answers,
 * continued creation reached 196,291 pending records and 638 MB, creations fell from about 5,000 to
 * 12 a second (retention scanned every record on each event) and health took 2 s. A receiver's
 * backlog is capped (docs/fidelity.md row 99) and one that keeps timing out is suspended (row 100).
 */

const HAPPY_EVENTS = 12;

let server: TestServer | undefined;
let hanging: HangingTcpReceiver | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  await hanging?.close();
  hanging = undefined;
});

async function health(t: TestServer): Promise<Health> {
  const answer = await t.call('/_mock/health');
  expect(answer.status).toBe(200);
  return answer.json<Health>();
}

/** Polls health until `done` holds, for at most `ms` real milliseconds; answers the last health read. */
async function healthUntil(t: TestServer, done: (health: Health) => boolean, ms: number): Promise<Health> {
  const until = performance.now() + ms;
  for (;;) {
    const read = await health(t);
    if (done(read) || performance.now() > until) return read;
    await sleep(50);
  }
}

test('pending deliveries behind a hung receiver stay within its cap under continued creation; the excess fails with reason receiver_backlog, and health answers meanwhile', async () => {
  hanging = await startHangingTcpReceiver();
  // Attempts wait 20 s: nothing times out during the test, so only the cap can bound the backlog. The instant clock
  // stops waiting for the receiver after 50 ms (not a second), so sixty creations play as minutes of creations would.
  const t = (server = await startTestServer({
    clock: 'instant',
    webhookUrl: hanging.url,
    deliveryTimeoutMs: 20_000,
    slowReceiverMs: 50,
    retention: { maxDeliveryRecords: 200, maxPendingPerReceiver: 50 },
  }));
  let peakPending = 0;
  let peakRecords = 0;
  for (let index = 0; index < 60; index += 1) {
    await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
    if (index % 5 === 4) {
      const read = await health(t);
      peakPending = Math.max(peakPending, read.deliveries.counts.pending);
      peakRecords = Math.max(peakRecords, read.deliveries.records);
    }
  }
  expect(peakPending).toBeLessThanOrEqual(50);
  // Every tree played to its end (the run stops waiting for the hung receiver after a second).
  expect((await t.json('POST', '/_mock/clock/run', { max_wait_seconds: 1 })).json<{ pending: number }>().pending).toBe(0);
  const read = await health(t);
  expect(read.deliveries.counts.pending).toBe(50);
  expect(read.deliveries.max_pending_per_receiver).toBe(50);
  // Ended records are forgotten past the limit; pending ones never are, so the records stay within both.
  expect(peakRecords).toBeLessThanOrEqual(200 + 50);
  expect(read.deliveries.evicted_records).toBe(60 * HAPPY_EVENTS - read.deliveries.records);
  const newest = (await t.call('/_mock/events?status=failed&order=newest&limit=1')).json<{ events: DeliveryEvent[] }>().events[0]!;
  expect(newest.reason).toBe('receiver_backlog');
  expect(newest.attempts).toHaveLength(1);
  expect(newest.attempts[0]).toMatchObject({ response_code: null, trigger: 'first' });
  expect(newest.attempts[0]!.error).toMatch(/^receiver_backlog: this receiver already has 50 deliveries pending \(--max-pending-per-receiver 50\)/);
  const waiting = (await t.call('/_mock/events?status=pending&limit=1')).json<{ events: DeliveryEvent[] }>().events[0]!;
  expect(waiting.reason).toBeNull();
});

test('a receiver that keeps timing out is suspended: one probe at a time still goes, the others fail without being sent, and it recovers once a probe is answered', async () => {
  hanging = await startHangingTcpReceiver();
  const t = (server = await startTestServer({ clock: 'instant', webhookUrl: hanging.url, deliveryTimeoutMs: 300 }));
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  // Suspended (or, without suspension, ten attempts have reached it). From now on it sees one probe at a time, at most
  // one per two 300 ms timeouts, where a dozen deliveries retrying side by side would open dozens.
  await healthUntil(t, (read) => read.deliveries.suspended_receivers === 1 || hanging!.connections() >= 10, 20_000);
  const before = hanging.connections();
  await sleep(1_500);
  expect(hanging.connections() - before).toBeLessThanOrEqual(4);
  expect((await health(t)).deliveries.suspended_receivers).toBe(1);
  // Deliveries run through their 21 attempts without waiting on the receiver, and fail as the spec's retries run out.
  await healthUntil(t, (read) => read.deliveries.counts.failed >= 3, 20_000);
  const failed = (await t.call('/_mock/events?status=failed')).json<{ events: DeliveryEvent[] }>().events;
  expect(failed.length).toBeGreaterThanOrEqual(3);
  for (const record of failed) {
    expect(record.reason).toBe('retries_exhausted');
    expect(record.attempts).toHaveLength(21);
  }
  const skipped = failed.flatMap((record) => record.attempts).filter((attempt) => attempt.error?.startsWith('receiver_suspended: '));
  expect(skipped.length).toBeGreaterThan(failed.length);
  expect(skipped[0]).toMatchObject({ response_code: null, duration_ms: 0, response_body: '' });
  // Back: the next probe (one per two 300 ms timeouts at most) is answered, and the receiver is no longer suspended.
  hanging.answerFromNow();
  await healthUntil(t, (read) => read.deliveries.counts.pending === 0, 20_000);
  await sleep(700);
  const probed = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  expect((await t.json('POST', '/_mock/clock/run', {})).json<{ settled: boolean }>().settled).toBe(true);
  expect((await health(t)).deliveries.suspended_receivers).toBe(0);
  const answered = (await t.call(`/_mock/events?entity_validation_id=${probed.id}&status=succeeded`)).json<{ events: DeliveryEvent[] }>().events;
  expect(answered.length).toBeGreaterThan(0);
  // From then on every delivery goes as before.
  const validation = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  expect((await t.json('POST', '/_mock/clock/run', {})).json<{ settled: boolean }>().settled).toBe(true);
  const delivered = (await t.call(`/_mock/events?entity_validation_id=${validation.id}`)).json<{ events: DeliveryEvent[] }>().events;
  expect(delivered.map((record) => record.status)).toEqual(Array(HAPPY_EVENTS).fill('succeeded'));
  expect(delivered.every((record) => record.reason === null && record.attempts.length === 1)).toBe(true);
}, 60_000);

test.each<[MockOptions, RegExp]>([
  [{ retention: { maxPendingPerReceiver: 0 } }, /maxPendingPerReceiver \(--max-pending-per-receiver\) must be a whole number of at least 1, got 0/],
  [{ suspendReceiverAfterTimeouts: 2.5 }, /suspendReceiverAfterTimeouts must be a whole number of at least 1, got 2.5/],
  [{ maxRunWaitMs: 0 }, /maxRunWaitMs \(--max-run-wait, BVS_MOCK_MAX_RUN_WAIT\) must be whole milliseconds from 1 to 86400000/],
])('createMock refuses the limit %p, naming it', (options, message) => {
  expect(() => createMock(options)).toThrow(message);
});
