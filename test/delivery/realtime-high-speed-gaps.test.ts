import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import type { DeliveryEvent } from '../../src/schemas';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { defaultOrganizationWith, expectedBackoffSeconds, gapsInSeconds } from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// Retry gaps follow the schedule at every speed of the realtime clock (docs/fidelity.md
// rows 27 and 48): at x2000 the first gap was 17 s and at x500 39 s instead of 15 s, because the receiver's real
// answer time (and the real timer's wake-up) counted, multiplied by the speed.

let receiver: WebhookReceiver;
let t: TestServer | undefined;
beforeAll(async () => {
  // Failing after 20 real ms: 40 simulated seconds at x2000, longer than the first retry's 15 s.
  receiver = await startWebhookReceiver({ respond: () => ({ status: 500, delayMs: 20 }) });
});
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  await receiver.close();
});

async function attemptTimes(server: TestServer, count: number): Promise<string[]> {
  for (;;) {
    const { events } = (await server.call('/_mock/events')).json<{ events: DeliveryEvent[] }>();
    if (events.length === 1 && events[0]!.attempts.length >= count) return events[0]!.attempts.slice(0, count).map((attempt) => attempt.at);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test.each([500, 2000])('realtime x%d: the first retries come 15, 30 and 60 s apart, as at every other speed', async (speed) => {
  t = await startTestServer({
    clock: 'realtime',
    speed,
    config: defaultOrganizationWith([{ url: receiver.url, subscribed_events: ['data_source_run_batch.ready'] }]),
  });
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  expect(gapsInSeconds(await attemptTimes(t, 4))).toEqual(expectedBackoffSeconds(3));
});
