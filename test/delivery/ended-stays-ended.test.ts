import { mockParts } from '../../src/mock/create-mock';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';
import { defaultOrganizationWith, startDeliveryHarness, type DeliveryHarness } from '../support/delivery-harness';

// A delivery that reached its receiver does not expire afterwards (spec §6 Subscription and delivery;
// docs/fidelity.md row 15): an ended record may only still become succeeded (src/delivery/delivery-status.ts).

let receiver: WebhookReceiver;
let harness: DeliveryHarness;

afterEach(async () => {
  harness.mock.dispose();
  await receiver.close();
});

test('a delivery a redelivery carried while its first attempt waited in its queue stays succeeded when its endpoint is then disabled', async () => {
  let slowArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (slowArrived = resolve));
  // At 10:00:55 a run's ready and its batch's ready go to one queue (same receiver, same validation): the
  // first is answered late, so the batch's waits behind it.
  receiver = await startWebhookReceiver({
    respond: (_hook, index) => {
      if (index !== 2) return 200;
      slowArrived();
      return { status: 200, delayMs: 300 };
    },
  });
  harness = startDeliveryHarness({
    clock: 'manual',
    config: defaultOrganizationWith([{ url: receiver.url, subscribed_events: ['data_source_run_batch.data_source_run.ready', 'data_source_run_batch.ready'] }]),
  });
  const { world } = mockParts(harness.mock);
  const organizationId = world.registry.defaultId;
  harness.create(HAPPY_NO_PARTNERS);
  const advancing = world.advance(55_000);
  await arrived;
  const waiting = harness.records().find((record) => record.type === 'data_source_run_batch.ready')!;
  expect(waiting).toMatchObject({ status: 'pending', attempts: [] });
  const redelivered = (await world.deliveries.redeliver(organizationId, waiting.id))!;
  expect(redelivered).toMatchObject({ status: 'succeeded', attempts: [{ trigger: 'redelivery', response_code: 200 }] });
  world.endpoints.update(world.endpoints.get(organizationId, waiting.endpoint_id!)!, { enabled: false });
  await advancing;
  await world.deliveries.settled();
  const after = world.deliveries.get(organizationId, waiting.id)!;
  expect({ status: after.status, reason: after.reason, triggers: after.attempts.map((attempt) => attempt.trigger) }).toEqual({
    status: 'succeeded',
    reason: null,
    triggers: ['redelivery'],
  });
});
