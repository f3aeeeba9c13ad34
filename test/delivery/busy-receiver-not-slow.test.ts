import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import type { DeliveryEvent } from '../../src/schemas';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { defaultOrganizationWith } from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// A receiver is slow by its own answer time, not by the time its deliveries queue behind one another (docs/fidelity.md row 60): one answering in 200 ms, with five events at one instant, was busy over a
// second and called slow, so the instant clock ran ahead and a consolidated_report_ready created at 12:00:10 was
// first attempted at 13:00:00.

let receiver: WebhookReceiver;
let t: TestServer;
beforeAll(async () => {
  receiver = await startWebhookReceiver({ respond: () => ({ status: 200, delayMs: 600 }) });
  t = await startTestServer({ clock: 'instant', config: defaultOrganizationWith([{ url: receiver.url }]) });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

test("on the instant clock, every first attempt to a receiver answering in 600 ms carries its event's instant, however many events share an instant", async () => {
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.runClock();
  const { events } = (await t.call('/_mock/events?limit=1000')).json<{ events: DeliveryEvent[] }>();
  // Several events at one instant: their deliveries queue over a second behind one another.
  const instants = new Map<string, number>();
  for (const event of events) instants.set(event.created_at, (instants.get(event.created_at) ?? 0) + 1);
  expect(Math.max(...instants.values()) * 600).toBeGreaterThan(1000);
  const late = events
    .filter((event) => event.attempts[0]!.at !== event.created_at)
    .map((event) => `${event.type} created ${event.created_at}, attempted ${event.attempts[0]!.at}`);
  expect(late).toEqual([]);
  expect((await t.call('/_mock/health')).json<{ deliveries: { slow_receivers: number } }>().deliveries.slow_receivers).toBe(0);
}, 60_000);
