import { OAuthTokenResponse, EntityValidation } from '../../src/schemas';
import { SCENARIOS, startBvsMock, startWebhookReceiver, type RunningBvsMock, type WebhookReceiver } from '../../src/testing';

// startBvsMock: one interface for a real server and for in-process use, with the credentials, a fetch that
// trusts the mock, and the control client.

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function useIt(bvs: RunningBvsMock): Promise<void> {
  const token = await bvs.fetch(`${bvs.url}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: bvs.oauthClient.clientId, client_secret: bvs.oauthClient.clientSecret }),
  });
  expect(token.status).toBe(200);
  const { access_token } = OAuthTokenResponse.parse(await token.json());
  await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url, auth_type: 'secret', secret: 'test_secret' });
  const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' }),
  });
  expect(created.status).toBe(201);
  const { id } = EntityValidation.parse(await created.json());
  await bvs.control.run();
  await bvs.control.waitForSettled(id);
  const validation = EntityValidation.parse(
    await (await bvs.fetch(`${bvs.url}/api/v2/entity_validations/${id}`, { headers: { authorization: `Bearer ${bvs.apiKey}` } })).json(),
  );
  const report = await bvs.fetch(validation.data_source_run_batches[0]!.consolidated_report_url!);
  expect(report.headers.get('content-type')).toBe('application/pdf');
  expect(receiver.received.at(-1)!.headers.authorization).toBe('Bearer test_secret');
  expect((await bvs.control.report()).violations.issues).toBe(0);
}

test('a real server on a free port over HTTPS: credentials, a fetch that trusts its certificate, the control client', async () => {
  receiver.received.length = 0;
  const bvs = await startBvsMock({ clock: 'manual' });
  try {
    expect(bvs.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(bvs.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect([bvs.apiKey, bvs.legacyToken]).toEqual(['test_key_default', 'tok_legacy_default']);
    await useIt(bvs);
  } finally {
    await bvs.stop();
  }
});

test('in-process through msw: the same interface, pre-signed URLs that resolve, and deliveries to a real receiver let through', async () => {
  receiver.received.length = 0;
  const bvs = await startBvsMock({ transport: 'in-process', clock: 'manual' });
  try {
    expect(bvs.url).toBe('https://bvs.test');
    expect(bvs.certificate).toBeNull();
    await useIt(bvs);
    expect(receiver.received.length).toBeGreaterThan(0);
  } finally {
    await bvs.stop();
  }
});
