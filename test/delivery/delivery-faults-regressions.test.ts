import { mockParts } from '../../src/mock/create-mock';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMock } from '../../src/http';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { DeliveryEvent } from '../../src/schemas';
import { startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

/**
 * Regression tests of faults found from outside in the delivery layer: a reset
 * during a delivery froze the simulation, a throwing hook crashed the process,
 * a webhook pointed at bvs-mock looped forever, one hanging receiver stalled everyone.
 */

const HAPPY = HAPPY_PARTNERS;
const HAPPY_EVENTS = 12;

let server: TestServer | undefined;
const receivers: WebhookReceiver[] = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(options: Parameters<typeof startWebhookReceiver>[0] = {}): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(options);
  receivers.push(started);
  return started;
}

// A freeze (a clock run that never ends) fails by the test's own timeout; no test here bounds real time.

test('a reset while deliveries are in flight never freezes the instant clock, over 200 create-reset cycles', async () => {
  const hooks = await receiver({ respond: () => ({ status: 200, delayMs: 5 }) });
  server = await startTestServer({ clock: 'instant', webhookUrl: hooks.url });
  for (let cycle = 0; cycle < 200; cycle += 1) {
    await server.create({ tin: HAPPY, country: 'CL' });
    // Let the first deliveries start, then reset under them (the afterEach reset of a client suite).
    if (cycle % 2 === 0) await sleep(1);
    expect((await server.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
  }
  const received = hooks.received.length;
  const validation = await server.create({ tin: HAPPY, country: 'CL' });
  await server.runClock();
  const events = (await server.call(`/_mock/events?entity_validation_id=${validation.id}`)).json<{ events: DeliveryEvent[] }>().events;
  expect(events).toHaveLength(HAPPY_EVENTS);
  expect(events.every((event) => event.status === 'succeeded')).toBe(true);
  expect(hooks.received.length - received).toBe(HAPPY_EVENTS);
});

test('a reset ends the old deliveries: no attempt of the old state reaches the receiver afterwards', async () => {
  // Every answer is a 500 after a while: without the reset, retries would go on for hours of simulated time.
  const hooks = await receiver({ respond: () => ({ status: 500, delayMs: 50 }) });
  server = await startTestServer({ clock: 'instant', webhookUrl: hooks.url });
  await server.create({ tin: HAPPY, country: 'CL' });
  await hooks.waitFor(3, 5_000);
  expect((await server.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
  const afterReset = hooks.received.length;
  // Run the clock until nothing is left: an attempt of the old state still queued would be sent now.
  hooks.respond(() => 200);
  await server.runClock();
  expect(hooks.received.length).toBe(afterReset);
  const listed = (await server.call('/_mock/events')).json<{ events: DeliveryEvent[] }>();
  expect(listed.events).toEqual([]);
});

test('a throwing onDeliveryAttempt hook is reported and every delivery still ends', async () => {
  const hooks = await receiver();
  const errors: string[] = [];
  const mock = createMock({
    clock: 'instant',
    webhookUrl: hooks.url,
    onDeliveryAttempt: () => {
      throw new Error('hook failed on purpose');
    },
    logError: (requestId, error) => errors.push(`${requestId}: ${(error as Error).message}`),
  });
  try {
    const created = mockParts(mock).world.engine.createValidation({
      organizationId: mockParts(mock).world.registry.defaultId,
      request: { tin: HAPPY, country: 'CL' },
    });
    expect(created.ok).toBe(true);
    await mock.drain();
    const records = mockParts(mock).world.deliveries.list();
    expect(records).toHaveLength(HAPPY_EVENTS);
    expect(records.every((record) => record.status === 'succeeded')).toBe(true);
    expect(errors).toHaveLength(HAPPY_EVENTS);
    expect(errors[0]).toBe('delivery: hook failed on purpose');
  } finally {
    mock.dispose();
  }
});

test('a webhook endpoint pointed at bvs-mock itself is refused with 508 delivery_loop instead of looping', async () => {
  const hooks = await receiver();
  server = await startTestServer({ clock: 'instant', http: true, webhookUrl: hooks.url });
  await server.create({ tin: HAPPY, country: 'CL' });
  await server.runClock();
  const first = (await server.call('/_mock/events?limit=1')).json<{ events: DeliveryEvent[] }>().events[0]!;
  // The trap of the report: an endpoint whose URL redelivers an event of bvs-mock's own.
  const looping = await server.json('POST', '/_mock/webhook_endpoints', {
    name: 'loop',
    url: `${server.server.url}/_mock/events/${first.id}/redeliver`,
    auth_type: 'none',
    subscribed_events: ['data_source_run_batch.ready'],
  });
  expect(looping.status).toBe(201);
  const endpointId = looping.json<{ webhook_endpoint: { id: string } }>().webhook_endpoint.id;
  const before = hooks.received.length;
  await server.create({ tin: HAPPY, country: 'CL' });
  await server.runClock();
  const events = (await server.call(`/_mock/events?endpoint_id=${endpointId}`)).json<{ events: DeliveryEvent[] }>().events;
  expect(events).toHaveLength(1);
  const [record] = events;
  // Retried as any failing receiver is, then failed: 21 attempts, each answered 508, and no redelivery happened.
  expect(record!.status).toBe('failed');
  expect(record!.attempts).toHaveLength(21);
  expect(new Set(record!.attempts.map((attempt) => attempt.response_code))).toEqual(new Set([508]));
  expect(record!.attempts[0]!.response_body).toContain('delivery_loop');
  expect(hooks.received.length - before).toBe(HAPPY_EVENTS);
});

test('one hanging receiver does not hold back another receiver on the instant clock', async () => {
  const hanging = await receiver({ respond: () => ({ status: 200, delayMs: 30_000 }) });
  const healthy = await receiver();
  server = await startTestServer({ clock: 'instant', webhookUrl: healthy.url, deliveryTimeoutMs: 20_000 });
  const added = await server.json('POST', '/_mock/webhook_endpoints', { name: 'hanging', url: hanging.url, auth_type: 'none' });
  expect(added.status).toBe(201);
  await server.create({ tin: HAPPY, country: 'CL' });
  // With every attempt to the hanging receiver waited for, the twelve events would take minutes.
  const received = await healthy.waitFor(HAPPY_EVENTS, 6_000);
  expect(received).toHaveLength(HAPPY_EVENTS);
  const health = (await server.call('/_mock/health')).json<{ deliveries: { slow_receivers: number } }>();
  expect(health.deliveries.slow_receivers).toBe(1);
});
