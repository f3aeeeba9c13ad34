import { mockParts } from '../../src/mock/create-mock';
import nock from 'nock';
import { selfSignedCertificate } from '../../src/http/self-signed-certificate';
import { BvsMockConfig, type EventType } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { startDeliveryHarness, typeOf, type DeliveryHarness } from '../support/delivery-harness';
import { HAPPY_NO_PARTNERS, HAPPY_PARTNERS } from '../support/built-in-tins';

// Outbound webhook authentication, one type per endpoint (spec §5.5): none sends no Authorization
// header, secret sends the endpoint's secret, oauth a token fetched from the organization's own
// provider (nocked here) and cached on the simulated clock (spec §8: expires_in).

const IDP = 'https://idp.example.test';
const OAUTH = { token_url: `${IDP}/oauth/token`, client_id: 'bvs_webhooks', client_secret: 'idp_secret', scope: 'webhooks:write' };

let receiver: WebhookReceiver | undefined;
let harness: DeliveryHarness | undefined;

beforeAll(() => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});

afterEach(async () => {
  harness?.mock.dispose();
  harness = undefined;
  await receiver?.close();
  receiver = undefined;
  nock.cleanAll();
});

afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});

/** One organization with one endpoint to `url`, every event subscribed. */
function config(endpoint: Record<string, unknown>, settings: Record<string, unknown> = {}): BvsMockConfig {
  return BvsMockConfig.parse({
    organizations: [
      { id: 'acme', api_keys: ['test_key_acme'], settings: { child_batches_ready: true, ...settings }, webhook_endpoints: [{ name: 'hooks', ...endpoint }] },
    ],
  });
}

/** Intercepts the provider's token URL: each call answers the next token of `tokens`, checking the client-credentials form. */
function provider(tokens: Array<{ status: number; body: Record<string, unknown> }>): {
  calls: () => number;
  forms: URLSearchParams[];
  contentTypes: unknown[];
} {
  const forms: URLSearchParams[] = [];
  const contentTypes: unknown[] = [];
  let calls = 0;
  const scope = nock(IDP);
  for (const token of tokens) {
    scope.post('/oauth/token').reply(function reply(_uri, body) {
      calls += 1;
      forms.push(new URLSearchParams(String(body)));
      contentTypes.push(this.req.headers['content-type']);
      return [token.status, token.body];
    });
  }
  return { calls: () => calls, forms, contentTypes };
}

const authorizations = (hooks: WebhookReceiver['received']) => [...new Set(hooks.map((hook) => hook.headers.authorization))];

test.each([
  { auth: 'none', endpoint: { auth_type: 'none' }, header: undefined, sends: 'no Authorization header' },
  {
    auth: 'secret',
    endpoint: { auth_type: 'secret', secret: 'whsec_configured' },
    header: 'Bearer whsec_configured',
    sends: 'Authorization: Bearer <its secret>',
  },
])('an endpoint with auth_type $auth sends $sends on every delivery', async ({ endpoint, header }) => {
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ config: config({ url: receiver.url, ...endpoint }) });
  mockParts(harness.mock).world.engine.createValidation({ organizationId: 'acme', request: { tin: HAPPY_PARTNERS, country: 'CL' } });
  await harness.mock.drain();
  expect(receiver.received).toHaveLength(harness.emitted.length);
  expect(authorizations(receiver.received)).toEqual([header]);
});

test('a rotated secret replaces the old one from the next delivery on, and is shown only by the rotation', async () => {
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ clock: 'manual', config: config({ id: 'whe_rotating', url: receiver.url, auth_type: 'secret', secret: 'whsec_old' }) });
  mockParts(harness.mock).world.engine.createValidation({ organizationId: 'acme', request: { tin: HAPPY_NO_PARTNERS, country: 'CL' } });
  mockParts(harness.mock).world.clock.advance(40_000);
  await mockParts(harness.mock).world.deliveries.settled();
  const before = receiver.received.length;
  expect(before).toBe(2);

  const rotated = await harness.call('POST', '/_mock/webhook_endpoints/whe_rotating/secret?organization_id=acme');
  expect(rotated.status).toBe(201);
  const { secret } = rotated.json<{ secret: string }>();
  expect(secret).toMatch(/^whsec_/);
  expect(secret).not.toBe('whsec_old');
  const listed = await harness.call('GET', '/_mock/webhook_endpoints?organization_id=acme');
  expect(listed.text).not.toContain(secret);

  await harness.mock.drain();
  expect(receiver.received.slice(0, before).map((hook) => hook.headers.authorization)).toEqual(['Bearer whsec_old', 'Bearer whsec_old']);
  expect(authorizations(receiver.received.slice(before))).toEqual([`Bearer ${secret}`]);
  expect(receiver.received.length).toBe(harness.emitted.length);
});

test('an oauth endpoint sends the provider token, fetched once with client credentials and cached across deliveries', async () => {
  const idp = provider([{ status: 200, body: { access_token: 'idp_token_1', token_type: 'Bearer', expires_in: 7200 } }]);
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ config: config({ url: receiver.url, auth_type: 'oauth' }, { oauth: OAUTH }) });
  mockParts(harness.mock).world.engine.createValidation({ organizationId: 'acme', request: { tin: HAPPY_PARTNERS, country: 'CL' } });
  await harness.mock.drain();
  expect(receiver.received).toHaveLength(harness.emitted.length);
  expect(authorizations(receiver.received)).toEqual(['Bearer idp_token_1']);
  expect(idp.calls()).toBe(1);
  expect(mockParts(harness.mock).world.deliveries.oauth.fetches).toBe(1);
  expect(idp.contentTypes).toEqual(['application/x-www-form-urlencoded']);
  expect(Object.fromEntries(idp.forms[0]!)).toEqual({
    grant_type: 'client_credentials',
    client_id: OAUTH.client_id,
    client_secret: OAUTH.client_secret,
    scope: OAUTH.scope,
  });
});

test('an oauth token is fetched anew once its expires_in has passed on the simulated clock, and not before', async () => {
  const idp = provider([
    { status: 200, body: { access_token: 'idp_token_1', token_type: 'Bearer', expires_in: 7200 } },
    { status: 200, body: { access_token: 'idp_token_2', token_type: 'Bearer', expires_in: 7200 } },
  ]);
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ clock: 'manual', config: config({ url: receiver.url, auth_type: 'oauth' }, { oauth: OAUTH }) });
  const play = async () => {
    const from = receiver!.received.length;
    mockParts(harness!.mock).world.engine.createValidation({ organizationId: 'acme', request: { tin: HAPPY_NO_PARTNERS, country: 'CL' } });
    await harness!.mock.drain();
    return authorizations(receiver!.received.slice(from));
  };
  expect(await play()).toEqual(['Bearer idp_token_1']); // fetched at 0:25, valid until 2:00:25
  mockParts(harness.mock).world.clock.advance(7000 * 1000);
  expect(await play()).toEqual(['Bearer idp_token_1']);
  mockParts(harness.mock).world.clock.advance(200 * 1000);
  expect(await play()).toEqual(['Bearer idp_token_2']);
  expect(idp.calls()).toBe(2);
  expect(mockParts(harness.mock).world.deliveries.oauth.fetches).toBe(2);
});

test('a provider refusing the token gives attempts with error oauth_token_refused, retried until it answers', async () => {
  const idp = provider([
    { status: 401, body: { error: 'invalid_client' } },
    { status: 401, body: { error: 'invalid_client' } },
    { status: 200, body: { access_token: 'idp_token_late', token_type: 'Bearer', expires_in: 7200 } },
  ]);
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({
    clock: 'manual',
    config: config({ url: receiver.url, auth_type: 'oauth', subscribed_events: ['data_source_run_batch.ready'] }, { oauth: OAUTH }),
  });
  mockParts(harness.mock).world.engine.createValidation({ organizationId: 'acme', request: { tin: HAPPY_NO_PARTNERS, country: 'CL' } });
  mockParts(harness.mock).world.clock.advance(55_000);
  await mockParts(harness.mock).world.deliveries.settled();
  let [record] = harness.records();
  expect(record).toMatchObject({
    type: 'data_source_run_batch.ready',
    status: 'pending',
    next_attempt_at: new Date(Date.parse(record!.attempts[0]!.at) + 15_000).toISOString(),
  });
  expect(record!.attempts[0]).toMatchObject({ response_code: null, trigger: 'first', error: expect.stringMatching(/^oauth_token_refused/) });
  expect(receiver.received).toHaveLength(0);

  await harness.mock.drain();
  [record] = harness.records();
  expect(record!.attempts.map((attempt) => [attempt.trigger, attempt.response_code, attempt.error?.split(':')[0] ?? null])).toEqual([
    ['first', null, 'oauth_token_refused'],
    ['retry', null, 'oauth_token_refused'],
    ['retry', 200, null],
  ]);
  expect(record!.status).toBe('succeeded');
  expect(idp.calls()).toBe(3);
  expect(receiver.received.map((hook) => hook.headers.authorization)).toEqual(['Bearer idp_token_late']);
});

test('legacy: every event of the validation reaches its webhook_url with the organization token, unfiltered, and the URL is echoed', async () => {
  receiver = await startWebhookReceiver();
  const other = await startWebhookReceiver();
  try {
    // An endpoint subscribed to one type does not filter the legacy URL (spec §6 Legacy model: no subscriptions).
    harness = startDeliveryHarness({
      allowHttpWebhooks: true,
      config: config({ url: other.url, subscribed_events: ['data_source_run_batch.ready'] }, { legacy_webhook_token: 'tok_legacy_acme' }),
    });
    const created = await harness.call(
      'POST',
      '/api/v2/entity_validations',
      { tin: HAPPY_PARTNERS, country: 'CL', webhook_url: receiver.url },
      { authorization: 'Bearer test_key_acme' },
    );
    expect(created.status).toBe(201);
    const validation = created.json<{ id: string; webhook: { id: string; webhook_url: string; created_at: string } | null }>();
    expect(validation.webhook).toEqual({ id: expect.stringMatching(/^wbh_/), webhook_url: receiver.url, created_at: expect.any(String) });
    await harness.mock.drain();

    const emitted = harness.emitted.filter((event) => event.validationId === validation.id);
    expect(receiver.received.map(typeOf)).toEqual(emitted.map((event) => event.type));
    expect(new Set(receiver.received.map(typeOf)).size).toBeGreaterThan(3);
    expect(authorizations(receiver.received)).toEqual(['Bearer tok_legacy_acme']);
    const mainBatch = receiver.received.find((hook) => typeOf(hook) === 'data_source_run_batch.ready')!.body as { data_source_run_batch: { webhook: unknown } };
    expect(mainBatch.data_source_run_batch.webhook).toEqual(validation.webhook);
    const legacyRecords = harness.records().filter((record) => record.model === 'legacy');
    expect(legacyRecords).toHaveLength(emitted.length);
    expect(
      legacyRecords.every(
        (record) => record.endpoint_id === null && record.auth_type === 'legacy_token' && record.url === receiver!.url && record.status === 'succeeded',
      ),
    ).toBe(true);
    // Whether the organization's endpoints also get these events is docs/fidelity.md row 58 and its reading (test/delivery/legacy-url-reading.test.ts).
  } finally {
    await other.close();
  }
});

test('legacy: an organization without legacy_webhook_token gets its deliveries without an Authorization header', async () => {
  receiver = await startWebhookReceiver();
  harness = startDeliveryHarness({ allowHttpWebhooks: true, config: BvsMockConfig.parse({ organizations: [{ id: 'plain', api_keys: ['test_key_plain'] }] }) });
  const created = await harness.call(
    'POST',
    '/api/v2/entity_validations',
    { tin: HAPPY_NO_PARTNERS, country: 'CL', webhook_url: receiver.url },
    { authorization: 'Bearer test_key_plain' },
  );
  expect(created.status).toBe(201);
  await harness.mock.drain();
  expect(receiver.received).toHaveLength(6);
  expect(authorizations(receiver.received)).toEqual([undefined]);
});

test.each([
  { allowHttpWebhooks: false, field: 'webhook_url', status: 422 },
  { allowHttpWebhooks: false, field: 'information_request.webhook_url', status: 422 },
  { allowHttpWebhooks: true, field: 'webhook_url', status: 201 },
  { allowHttpWebhooks: true, field: 'information_request.webhook_url', status: 201 },
])('an http:// $field answers $status with allowHttpWebhooks $allowHttpWebhooks (spec §6: HTTPS only)', async ({ allowHttpWebhooks, field, status }) => {
  harness = startDeliveryHarness({ allowHttpWebhooks });
  const url = 'http://127.0.0.1:9/hooks';
  const body =
    field === 'webhook_url'
      ? { tin: HAPPY_NO_PARTNERS, country: 'CL', webhook_url: url }
      : { tin: HAPPY_NO_PARTNERS, country: 'CL', information_request: { template_id: 'irt_onboarding', webhook_url: url } };
  const answer = await harness.call('POST', '/api/v2/entity_validations', body, { authorization: 'Bearer test_key_default' });
  expect(answer.status).toBe(status);
  if (status === 422)
    expect(answer.json<{ error: { code: string; issues: Array<{ path: string }> } }>().error).toMatchObject({
      code: 'validation_failed',
      issues: [{ path: `$.${field}` }],
    });
});

test('legacy: an https webhook_url with a self-signed certificate is reached with insecureWebhookTls, and fails with tls_error without it', async () => {
  receiver = await startWebhookReceiver({ tls: await selfSignedCertificate(['127.0.0.1']) });
  for (const insecure of [true, false]) {
    harness = startDeliveryHarness({ clock: 'manual', insecureWebhookTls: insecure });
    const created = await harness.call(
      'POST',
      '/api/v2/entity_validations',
      { tin: HAPPY_NO_PARTNERS, country: 'CL', webhook_url: receiver.url },
      { authorization: 'Bearer test_key_default' },
    );
    expect(created.status).toBe(201);
    mockParts(harness.mock).world.clock.advance(25_000);
    await mockParts(harness.mock).world.deliveries.settled();
    const [record] = harness.records();
    if (insecure) expect(record).toMatchObject({ status: 'succeeded', attempts: [{ response_code: 200, error: null }] });
    else
      expect(record).toMatchObject({
        status: 'pending',
        attempts: [{ response_code: null, error: expect.stringMatching(/^tls_error: .*--insecure-webhook-tls/) }],
      });
    harness.mock.dispose();
  }
  expect(receiver.received.map(typeOf)).toEqual(['data_source_run_batch.data_source_run.ready']);
  expect(receiver.received[0]!.headers.authorization).toBe('Bearer tok_legacy_default');
});

test("legacy: the nested information_request's webhook_url receives the request's events, the validation's URL the rest", async () => {
  receiver = await startWebhookReceiver();
  const requestReceiver = await startWebhookReceiver();
  try {
    harness = startDeliveryHarness({ allowHttpWebhooks: true });
    const created = await harness.call(
      'POST',
      '/api/v2/entity_validations',
      {
        tin: '76842059-9',
        country: 'CL',
        webhook_url: receiver.url,
        information_request: { template_id: 'irt_supplier_onboarding', webhook_url: requestReceiver.url },
      },
      { authorization: 'Bearer test_key_default' },
    );
    expect(created.status).toBe(201);
    await harness.mock.drain();
    const isRequestEvent = (type: EventType) => type.startsWith('information_request.');
    expect(requestReceiver.received.map(typeOf)).toEqual(harness.emitted.map((event) => event.type).filter(isRequestEvent));
    expect(receiver.received.map(typeOf)).toEqual(harness.emitted.map((event) => event.type).filter((type) => !isRequestEvent(type)));
    expect(requestReceiver.received.length).toBe(11);
    expect(authorizations(requestReceiver.received)).toEqual(['Bearer tok_legacy_default']);
    const request = requestReceiver.received[0]!.body as { information_request: { webhook: { webhook_url: string } | null } };
    expect(request.information_request.webhook).toMatchObject({ id: expect.stringMatching(/^wbh_/), webhook_url: requestReceiver.url });
  } finally {
    await requestReceiver.close();
  }
});
