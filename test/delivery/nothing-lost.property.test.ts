import { mockParts } from '../../src/mock/create-mock';
import fc from 'fast-check';
import { ScenarioLibrary } from '../../src/engine/scenarios';
import { startWebhookReceiver, type ReceiverAnswer } from '../../src/testing';
import { createRandom } from '../../src/engine';
import { defaultOrganizationWith, expectDeliveryRecord, startDeliveryHarness } from '../support/delivery-harness';
import { startRawTcpReceiver } from '../support/raw-tcp-receiver';

// Nothing is lost (spec §6 Subscription and delivery; docs/fidelity.md row 15): whatever a receiver
// answers, once the mock has drained every delivery record has ended succeeded, failed or expired,
// and there is one record per event and target.

const library = ScenarioLibrary.builtIn();
const names = library
  .list()
  .map((summary) => summary.name)
  .filter((name) => name !== 'large-tree');
const SUBSET = ['data_source_run_batch.ready', 'data_source_run_batch.data_source_run.ready', 'information_request.status_updated'] as const;

/** Failures a receiver may answer with; the timeout one costs real time, so it is rare. */
/** Over every run: attempts that failed, so the property is known not to hold vacuously. */
const tally = { attempts: 0, failedAttempts: 0, timeouts: 0, resets: 0 };

const BAD_ANSWERS: ReceiverAnswer[] = [500, 503, 302, 404, 429, 'drop', { status: 500, body: '\u0000\u00ff{not json' }, { status: 200, delayMs: 400 }];

test('after drain every record has ended and there is one per event and target, whatever the receiver answers', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...names),
      fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      fc.double({ min: 0, max: 0.7, noNaN: true }),
      async (name, seed, failureShare) => {
        const draw = createRandom(seed);
        const random = () => draw.next();
        const receiver = await startWebhookReceiver({
          respond: () => {
            if (random() >= failureShare) return random() < 0.5 ? 200 : { status: 200, body: '\u0000garbage\u00ff' };
            const index = Math.floor(random() * BAD_ANSWERS.length);
            // The slow answer only now and then: it waits for the 100 ms timeout in real time.
            return index === BAD_ANSWERS.length - 1 && random() > 0.2 ? 500 : BAD_ANSWERS[index]!;
          },
        });
        const base = receiver.url.replace(/\/hooks$/, '');
        const harness = startDeliveryHarness({
          deliveryTimeoutMs: 100,
          config: defaultOrganizationWith([
            { url: `${base}/all` },
            { url: `${base}/subset`, subscribed_events: [...SUBSET] },
            { url: `${base}/disabled`, enabled: false },
          ]),
        });
        try {
          const scenario = library.byName(name)!;
          harness.create(scenario.tins?.[0] ?? scenario.entity.tin, { webhook_url: `${base}/legacy` });
          await harness.playToEnd();
          const records = harness.records();
          const targets = (event: (typeof harness.emitted)[number]) =>
            2 + ((SUBSET as readonly string[]).includes(event.type) ? 1 : 0) + (event.legacyWebhookUrl === null ? 0 : 1);
          expect(records).toHaveLength(harness.emitted.reduce((sum, event) => sum + targets(event), 0));
          const emittedBodies = new Set(harness.emitted.map((event) => JSON.stringify(event.body)));
          for (const record of records) {
            expectDeliveryRecord(record);
            expect(['succeeded', 'failed']).toContain(record.status);
            expect(record.next_attempt_at).toBeNull();
            const last = record.attempts.at(-1)!;
            if (record.status === 'succeeded') {
              expect(last.response_code).toBeGreaterThanOrEqual(200);
              expect(last.response_code).toBeLessThan(300);
              const path = new URL(record.url).pathname;
              expect(receiver.received.some((hook) => hook.path === path && hook.raw === JSON.stringify(record.payload))).toBe(true);
            } else if (record.url.endsWith('/disabled')) {
              expect(record.attempts).toEqual([expect.objectContaining({ error: 'endpoint_disabled' })]);
            } else {
              expect(record.attempts).toHaveLength(21);
            }
          }
          expect(receiver.received.every((hook) => emittedBodies.has(hook.raw))).toBe(true);
          expect(receiver.received.filter((hook) => hook.path === '/disabled')).toHaveLength(0);
          expect(mockParts(harness.mock).world.deliveries.counts().pending).toBe(0);
          for (const attempt of records.flatMap((record) => record.attempts)) {
            tally.attempts += 1;
            if (attempt.response_code === null || attempt.response_code >= 300) tally.failedAttempts += 1;
            if (attempt.error === 'timeout') tally.timeouts += 1;
            if (attempt.error === 'connection_reset') tally.resets += 1;
          }
        } finally {
          harness.mock.dispose();
          await receiver.close();
        }
      },
    ),
    { seed: 20260115, numRuns: 20 },
  );
  expect(tally.failedAttempts).toBeGreaterThan(tally.attempts / 10);
  expect(tally.timeouts).toBeGreaterThan(0);
  expect(tally.resets).toBeGreaterThan(0);
});

test.each([
  { what: 'text that is not HTTP', answer: 'this is not http\r\n\r\n', succeeds: false },
  { what: 'a status line without a code', answer: 'HTTP/1.1 abc\r\n\r\n', succeeds: false },
  { what: 'nothing before closing', answer: '', succeeds: false },
  { what: 'a bare but valid HTTP 200', answer: 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello', succeeds: true },
])('a receiver answering $what ends the record (succeeded: $succeeds), each failed attempt with an error', async ({ answer, succeeds }) => {
  const raw = await startRawTcpReceiver(answer);
  const harness = startDeliveryHarness({ config: defaultOrganizationWith([{ url: raw.url, subscribed_events: ['data_source_run_batch.ready'] }]) });
  try {
    harness.create('76354771-K');
    await harness.mock.drain();
    const [record] = harness.records();
    expectDeliveryRecord(record);
    expect(record!.status).toBe(succeeds ? 'succeeded' : 'failed');
    expect(record!.attempts).toHaveLength(succeeds ? 1 : 21);
    if (!succeeds)
      expect(record!.attempts.every((attempt) => attempt.response_code === null && typeof attempt.error === 'string' && attempt.error.length > 0)).toBe(true);
    expect(raw.requests()).toBe(record!.attempts.length);
  } finally {
    harness.mock.dispose();
    await raw.close();
  }
});
