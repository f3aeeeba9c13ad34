import { BvsMockConfig, type DeliveryEvent, type EventType } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { startDeliveryHarness, typeOf, type DeliveryHarness } from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS, INFORMATION_REQUEST } from '../support/built-in-tins';

// The reading legacy-url-and-endpoints (docs/fidelity.md row 58), each value played. `both` (the default): a
// resource's webhook_url (legacy model) gets every event of that resource and the organization's subscribed endpoints
// get theirs too (§6 Subscription and delivery 1). `legacy-only`: "No organization endpoints" (§6 Legacy model), so an
// event whose resource has a webhook_url goes there alone; events of a resource without one reach the endpoints.

let harness: DeliveryHarness | undefined;
const receivers: WebhookReceiver[] = [];

afterEach(async () => {
  harness?.mock.dispose();
  harness = undefined;
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

const isRequestEvent = (type: EventType) => type.startsWith('information_request.');

interface Routed {
  /** Event types each target got, per validation: `endpoint`, `validation` (its webhook_url), `request` (the request's). */
  targets: (validationId: string) => Record<'endpoint' | 'validation' | 'request', EventType[]>;
  emitted: (validationId: string) => EventType[];
  ids: { bothUrls: string; validationUrlOnly: string; noUrl: string };
}

/**
 * One organization with an endpoint subscribed to everything; three validations: an information request with a
 * webhook_url on the validation and on the request, one with the validation's alone, and a plain one without any.
 */
async function route(readings: Record<string, string>): Promise<Routed> {
  const [endpoint, validationHooks, requestHooks] = [await receiver(), await receiver(), await receiver()];
  harness = startDeliveryHarness({
    readings,
    config: BvsMockConfig.parse({ organizations: [{ id: 'acme', api_keys: ['test_key_acme'], webhook_endpoints: [{ name: 'hooks', url: endpoint.url }] }] }),
  });
  const ids = {
    bothUrls: harness.create(INFORMATION_REQUEST, {
      webhook_url: validationHooks.url,
      information_request: { template_id: 'irt_onboarding', webhook_url: requestHooks.url },
    }),
    validationUrlOnly: harness.create(INFORMATION_REQUEST, { webhook_url: validationHooks.url }),
    noUrl: harness.create(HAPPY_NO_PARTNERS),
  };
  await harness.playToEnd();
  const records = harness.records();
  const typesTo = (validationId: string, url: string) =>
    records.filter((record: DeliveryEvent) => record.entity_validation_id === validationId && record.url === url).map((record) => record.type);
  // Every record was delivered: what the receivers got is what the records say.
  expect(records.every((record) => record.status === 'succeeded')).toBe(true);
  expect(endpoint.received.length + validationHooks.received.length + requestHooks.received.length).toBe(records.length);
  expect(new Set(requestHooks.received.map(typeOf).filter((type) => !isRequestEvent(type)))).toEqual(new Set());
  const emitted = harness.emitted;
  return {
    targets: (validationId) => ({
      endpoint: typesTo(validationId, endpoint.url),
      validation: typesTo(validationId, validationHooks.url),
      request: typesTo(validationId, requestHooks.url),
    }),
    emitted: (validationId) => emitted.filter((event) => event.validationId === validationId).map((event) => event.type),
    ids,
  };
}

test('both (the default): the endpoint gets every event of every validation, the legacy URLs theirs besides', async () => {
  for (const readings of [{}, { 'legacy-url-and-endpoints': 'both' }] as Array<Record<string, string>>) {
    const { targets, emitted, ids } = await route(readings);
    const all = emitted(ids.bothUrls);
    expect(all.filter(isRequestEvent).length).toBeGreaterThan(0);
    expect(targets(ids.bothUrls)).toEqual({ endpoint: all, validation: all.filter((type) => !isRequestEvent(type)), request: all.filter(isRequestEvent) });
    const noRequestUrl = emitted(ids.validationUrlOnly);
    expect(targets(ids.validationUrlOnly)).toEqual({ endpoint: noRequestUrl, validation: noRequestUrl.filter((type) => !isRequestEvent(type)), request: [] });
    expect(targets(ids.noUrl)).toEqual({ endpoint: emitted(ids.noUrl), validation: [], request: [] });
    harness!.mock.dispose();
    harness = undefined;
  }
});

test('legacy-only: an event of a resource with a webhook_url goes there alone; a request without one, and a validation without one, still reach the endpoint', async () => {
  const { targets, emitted, ids } = await route({ 'legacy-url-and-endpoints': 'legacy-only' });
  const all = emitted(ids.bothUrls);
  expect(targets(ids.bothUrls)).toEqual({ endpoint: [], validation: all.filter((type) => !isRequestEvent(type)), request: all.filter(isRequestEvent) });
  // The request was created without webhook_url: its events are not the validation's URL's, and go to the endpoint.
  const noRequestUrl = emitted(ids.validationUrlOnly);
  expect(targets(ids.validationUrlOnly)).toEqual({
    endpoint: noRequestUrl.filter(isRequestEvent),
    validation: noRequestUrl.filter((type) => !isRequestEvent(type)),
    request: [],
  });
  expect(targets(ids.noUrl)).toEqual({ endpoint: emitted(ids.noUrl), validation: [], request: [] });
});
