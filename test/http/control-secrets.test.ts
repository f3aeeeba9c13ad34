import { mockParts } from '../../src/mock/create-mock';
import { BvsMockConfig } from '../../src/schemas';
import { REDACTED_SECRET } from '../../src/api/routes/control-routes';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { concreteRoutes, seedResources } from '../support/route-fixtures';
import { openEventStream } from '../support/event-stream';

// Regression: PATCH /_mock/organizations/:id/settings with {} answered the legacy webhook token and the
// outbound OAuth client_secret in clear. Stored secrets now show as "<set>" in every control answer.

const LEGACY_TOKEN = 'tok_legacy_f00dfeed';
const IDP_SECRET = 'idp_secret_c0ffee42';
const ENDPOINT_SECRET = 'whsec_config_5ca1ab1e';
const CLIENT_SECRET = 'client_secret_decafbad';

const CONFIG = BvsMockConfig.parse({
  organizations: [
    {
      id: 'default',
      api_keys: ['test_key_default'],
      oauth_clients: [{ client_id: 'default_client', client_secret: CLIENT_SECRET }],
      settings: {
        child_batches_ready: true,
        legacy_webhook_token: LEGACY_TOKEN,
        oauth: { token_url: 'https://idp.example.test/token', client_id: 'bvs', client_secret: IDP_SECRET, scope: 'webhooks' },
      },
      webhook_endpoints: [{ name: 'configured', url: 'https://127.0.0.1:9/hooks', enabled: false, auth_type: 'secret', secret: ENDPOINT_SECRET }],
    },
    { id: 'bare', api_keys: ['test_key_bare'] },
  ],
});

const SECRETS = [LEGACY_TOKEN, IDP_SECRET, ENDPOINT_SECRET, CLIENT_SECRET];

const t = useTestServer({ config: CONFIG });

test('PATCH settings with {} answers "<set>" for the legacy token and the OAuth client secret, never their values', async () => {
  const answer = await t.json('PATCH', '/_mock/organizations/default/settings', {});
  expect(answer.status).toBe(200);
  expect(answer.json()).toEqual({
    organization_id: 'default',
    settings: {
      child_batches_ready: true,
      legacy_webhook_token: REDACTED_SECRET,
      oauth: { token_url: 'https://idp.example.test/token', client_id: 'bvs', client_secret: REDACTED_SECRET, scope: 'webhooks' },
    },
  });
  for (const secret of SECRETS) expect(answer.text()).not.toContain(secret);
});

test('the stored secrets are kept as they were: redaction is only in the answer', async () => {
  await t.json('PATCH', '/_mock/organizations/default/settings', { child_batches_ready: false });
  const settings = mockParts(t.server).world.registry.settings('default');
  expect(settings.legacy_webhook_token).toBe(LEGACY_TOKEN);
  expect(settings.oauth?.client_secret).toBe(IDP_SECRET);
});

test('a secret set through PATCH is answered as "<set>" too', async () => {
  const answer = await t.json('PATCH', '/_mock/organizations/bare/settings', { legacy_webhook_token: 'tok_new_9b8a7c6d' });
  expect(answer.json()).toMatchObject({ settings: { legacy_webhook_token: REDACTED_SECRET } });
  expect(answer.text()).not.toContain('tok_new_9b8a7c6d');
  expect(mockParts(t.server).world.registry.settings('bare').legacy_webhook_token).toBe('tok_new_9b8a7c6d');
});

test('an organization without secrets answers no secret fields at all', async () => {
  const answer = await t.json('PATCH', '/_mock/organizations/bare/settings', {});
  expect(answer.json()).toEqual({ organization_id: 'bare', settings: { child_batches_ready: true } });
});

test.each([
  ['legacy_webhook_token', { legacy_webhook_token: REDACTED_SECRET }, '$.legacy_webhook_token'],
  [
    'oauth.client_secret',
    { oauth: { token_url: 'https://idp.example.test/token', client_id: 'bvs', client_secret: REDACTED_SECRET } },
    '$.oauth.client_secret',
  ],
])('sending "<set>" back as %s answers 422 at its JSON path and keeps the stored secret', async (_label, body, path) => {
  const error = expectApiError(await t.json('PATCH', '/_mock/organizations/default/settings', body), 422, 'validation_failed');
  expect(error.issues).toEqual([expect.objectContaining({ path, code: 'redacted_value' })]);
  expect(error.message).toMatch(/leave the setting out to keep the current one/);
  const settings = mockParts(t.server).world.registry.settings('default');
  expect([settings.legacy_webhook_token, settings.oauth?.client_secret]).toEqual([LEGACY_TOKEN, IDP_SECRET]);
});

test('GET /_mock/webhook_endpoints lists endpoints without their secrets, configured or created', async () => {
  const created = await t.json('POST', '/_mock/webhook_endpoints', { name: 'made', url: 'https://127.0.0.1:9/made', enabled: false, auth_type: 'secret' });
  const secret = created.json<{ secret: string }>().secret;
  expect(secret).toMatch(/^whsec_/);
  const listed = await t.call('/_mock/webhook_endpoints');
  expect(listed.status).toBe(200);
  expect(listed.json<{ webhook_endpoints: unknown[] }>().webhook_endpoints).toHaveLength(2);
  expect(listed.text()).not.toContain(secret);
  expect(listed.text()).not.toContain(ENDPOINT_SECRET);
});

test('no GET of the control API answers a stored secret (sweep over every control GET route)', async () => {
  const ids = await seedResources(t);
  // A snapshot is the one exception, made on purpose: it is the whole session to restore elsewhere, secrets
  // included, as a backup is (docs/fidelity.md row 118); the next test holds it to that and nothing more.
  const routes = concreteRoutes(ids).filter((route) => route.access === 'control' && route.method === 'GET' && route.pattern !== '/_mock/snapshot');
  expect(routes.length).toBeGreaterThan(5);
  for (const route of routes) {
    const text = route.pattern === '/_mock/stream' ? await streamStart(route.path) : (await t.call(route.path)).text();
    for (const secret of SECRETS) {
      if (text.includes(secret)) throw new Error(`GET ${route.pattern} answered the secret ${secret}`);
    }
  }
});

test("the snapshot, and only it, holds the secrets a restored session needs: the endpoint's, the legacy token, the OAuth clients'", async () => {
  await seedResources(t);
  const snapshot = (await t.call('/_mock/snapshot')).text();
  expect(snapshot).toContain(ENDPOINT_SECRET);
  expect(SECRETS.every((secret) => snapshot.includes(secret))).toBe(true);
});

/** What the change stream sends first: it never ends, so it is read up to its first event and hung up. */
async function streamStart(path: string): Promise<string> {
  const stream = await openEventStream(t.server.url, path, { ca: t.server.certificate });
  await stream.waitFor(/event: ready/);
  stream.close();
  return stream.received();
}
