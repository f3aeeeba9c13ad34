import { EVENT_TYPES, type DeliveryEvent, type EventType, type WebhookEndpoint } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { expectDeliveryRecord, typeOf } from '../support/delivery-harness';
import { CL_FORMATION, HAPPY_PARTNERS, INFORMATION_REQUEST } from '../support/built-in-tins';

// Subscriptions and the endpoint's status, managed through the control API over real HTTPS as the
// dashboard would (spec §6 Subscription and delivery; §3 and §7 items 3 and 4; docs/design.md Control API).

const t = useTestServer({ clock: 'instant' });
const emitted = t.events;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver.close();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.respond(() => 200);
});

async function addEndpoint(body: Record<string, unknown>): Promise<{ webhook_endpoint: WebhookEndpoint; secret?: string }> {
  const answer = await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, ...body });
  if (answer.status !== 201) throw new Error(`create endpoint: ${answer.status} ${answer.text()}`);
  return answer.json();
}

async function events(query = ''): Promise<DeliveryEvent[]> {
  const answer = await t.call(`/_mock/events${query}`);
  expect(answer.status).toBe(200);
  return answer.json<{ events: DeliveryEvent[] }>().events.map(expectDeliveryRecord);
}

test('an endpoint subscribed to two event types receives only those, in the engine order', async () => {
  const { webhook_endpoint: endpoint } = await addEndpoint({
    subscribed_events: ['data_source_run_batch.ready', 'data_source_run_batch.consolidated_report_ready'],
  });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(receiver.received.map(typeOf)).toEqual(['data_source_run_batch.ready', 'data_source_run_batch.consolidated_report_ready']);
  expect(emitted.length).toBeGreaterThan(2);
  expect((await events()).map((record) => [record.endpoint_id, record.type, record.status])).toEqual([
    [endpoint.id, 'data_source_run_batch.ready', 'succeeded'],
    [endpoint.id, 'data_source_run_batch.consolidated_report_ready', 'succeeded'],
  ]);
});

test('an endpoint per event type receives exactly the emitted events of its type, for all twelve types', async () => {
  const base = receiver.url.replace(/\/hooks$/, '');
  const idOfType = new Map<string, EventType>();
  for (const type of EVENT_TYPES) {
    const { webhook_endpoint: endpoint } = await addEndpoint({ name: type, url: `${base}/by-type/${type}`, subscribed_events: [type] });
    idOfType.set(endpoint.id, type);
  }
  for (const tin of [HAPPY_PARTNERS, CL_FORMATION, INFORMATION_REQUEST]) await t.create({ tin, country: 'CL' });
  await t.runClock();
  for (const type of EVENT_TYPES) {
    const arrived = receiver.received.filter((hook) => hook.path === `/by-type/${type}`);
    expect({ type, arrived: arrived.map((hook) => hook.raw) }).toEqual({
      type,
      arrived: emitted.filter((event) => event.type === type).map((event) => JSON.stringify(event.body)),
    });
    expect(arrived.length).toBeGreaterThan(0);
  }
  const records = await events();
  expect(records).toHaveLength(emitted.length);
  expect(records.every((record) => idOfType.get(record.endpoint_id!) === record.type && record.status === 'succeeded')).toBe(true);
});

test('a disabled endpoint receives nothing: each delivery fails at once with one endpoint_disabled attempt', async () => {
  const { webhook_endpoint: endpoint } = await addEndpoint({ enabled: false });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(receiver.received).toHaveLength(0);
  const records = await events(`?endpoint_id=${endpoint.id}`);
  expect(records).toHaveLength(emitted.length);
  for (const record of records) {
    expect(record).toMatchObject({
      status: 'failed',
      next_attempt_at: null,
      attempts: [{ number: 1, trigger: 'first', response_code: null, error: 'endpoint_disabled', at: record.created_at }],
    });
  }
  expect(records.map((record) => record.created_at)).toEqual(emitted.map((event) => event.emittedAt));
});

test('enabling a disabled endpoint delivers the events that follow, not the ones it missed', async () => {
  const { webhook_endpoint: endpoint } = await addEndpoint({ enabled: false });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const enabled = await t.json('PATCH', `/_mock/webhook_endpoints/${endpoint.id}`, { enabled: true });
  expect(enabled.status).toBe(200);
  expect(enabled.json<{ webhook_endpoint: WebhookEndpoint }>().webhook_endpoint.enabled).toBe(true);
  const missed = emitted.length;
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(receiver.received.map((hook) => hook.raw)).toEqual(emitted.slice(missed).map((event) => JSON.stringify(event.body)));
});

test.each([
  { how: 'created enabled', call: async () => t.json('POST', '/_mock/webhook_endpoints', { name: 'oauth', url: receiver.url, auth_type: 'oauth' }) },
  {
    how: 'enabled later',
    call: async () => {
      const { webhook_endpoint: endpoint } = await addEndpoint({ auth_type: 'oauth', enabled: false });
      return t.json('PATCH', `/_mock/webhook_endpoints/${endpoint.id}`, { enabled: true });
    },
  },
  {
    how: 'switched to oauth while enabled',
    call: async () => {
      const { webhook_endpoint: endpoint } = await addEndpoint({ auth_type: 'none' });
      return t.json('PATCH', `/_mock/webhook_endpoints/${endpoint.id}`, { auth_type: 'oauth' });
    },
  },
])('an oauth endpoint $how without organization oauth is refused with 409 conflict', async ({ call }) => {
  const error = expectApiError(await call(), 409, 'conflict');
  expect(error.message).toContain('settings.oauth');
  const listed = (await t.call('/_mock/webhook_endpoints')).json<{ webhook_endpoints: WebhookEndpoint[] }>().webhook_endpoints;
  expect(listed.filter((endpoint) => endpoint.auth_type === 'oauth' && endpoint.enabled)).toEqual([]);
});

test('an oauth endpoint can be enabled once the organization has oauth settings', async () => {
  const { webhook_endpoint: endpoint } = await addEndpoint({ auth_type: 'oauth', enabled: false });
  const settings = await t.json('PATCH', '/_mock/organizations/default/settings', {
    oauth: { token_url: 'https://idp.example.test/oauth/token', client_id: 'c', client_secret: 's' },
  });
  expect(settings.status).toBe(200);
  const enabled = await t.json('PATCH', `/_mock/webhook_endpoints/${endpoint.id}`, { enabled: true });
  expect(enabled.status).toBe(200);
  expect(enabled.json<{ webhook_endpoint: WebhookEndpoint }>().webhook_endpoint).toMatchObject({ auth_type: 'oauth', enabled: true });
});

test('a secret endpoint created through the control API shows its secret once and sends it', async () => {
  const created = await addEndpoint({ auth_type: 'secret', subscribed_events: ['data_source_run_batch.ready'] });
  expect(created.secret).toMatch(/^whsec_/);
  const listed = await t.call('/_mock/webhook_endpoints');
  expect(listed.text()).not.toContain(created.secret!);
  const api = await t.get('/api/v2/webhook_endpoints');
  expect(api.status).toBe(200);
  expect(api.text()).not.toContain(created.secret!);
  expect(api.json<{ webhook_endpoints: WebhookEndpoint[] }>().webhook_endpoints.map((endpoint) => endpoint.id)).toEqual([created.webhook_endpoint.id]);
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(receiver.received.map((hook) => hook.headers.authorization)).toEqual([`Bearer ${created.secret}`]);
});
