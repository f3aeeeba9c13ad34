import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import type { DeliveryEvent } from '../../src/schemas';
import { useTestServer } from '../support/api-test-server';
import { defaultOrganizationWith, expectedBackoffSeconds, gapsInSeconds } from '../support/delivery-harness';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// Retry gaps are the documented 15 s doubling however the manual clock is moved (docs/fidelity.md rows 27
// and 76). The next retry used to be scheduled from the simulated time at which the answer arrived, and
// the manual clock moved on without waiting for it: the gaps were 25 s (clock/run), 6 min (one advance
// of 400 s) or 121 s (1 s steps).

let receiver: WebhookReceiver;
beforeAll(async () => {
  // Failing after 60 real ms: long enough that a clock moved on without waiting would be far past the attempt's start.
  receiver = await startWebhookReceiver({ respond: () => ({ status: 500, delayMs: 60 }) });
});
afterAll(async () => {
  await receiver.close();
});

const t = useTestServer(() => ({ config: defaultOrganizationWith([{ url: receiver.url, subscribed_events: ['data_source_run_batch.ready'] }]) }));

async function attemptTimes(): Promise<string[]> {
  const { events } = (await t.call('/_mock/events')).json<{ events: DeliveryEvent[] }>();
  expect(events).toHaveLength(1);
  return events[0]!.attempts.map((attempt) => attempt.at);
}

test('one advance of 400 s: the gaps are 15, 30, 60, 120 s, not one of six minutes', async () => {
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.advance(400);
  const gaps = gapsInSeconds(await attemptTimes());
  expect(gaps.length).toBeGreaterThanOrEqual(3);
  expect(gaps).toEqual(expectedBackoffSeconds(gaps.length));
});

test('400 advances of 1 s: the same gaps, not 121 s', async () => {
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  // Steps sent one after the other, as a test loop does: each answers once its instant's deliveries ended.
  for (let second = 0; second < 400; second += 1) await t.advance(1);
  const gaps = gapsInSeconds(await attemptTimes());
  expect(gaps.length).toBeGreaterThanOrEqual(3);
  expect(gaps).toEqual(expectedBackoffSeconds(gaps.length));
});

test('a run to the end: all twenty retries at the documented gaps, not 25 s apart', async () => {
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(gapsInSeconds(await attemptTimes())).toEqual(expectedBackoffSeconds(20));
});
