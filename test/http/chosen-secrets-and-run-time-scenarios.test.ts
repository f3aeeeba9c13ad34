import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS } from '../support/built-in-tins';

// What a client team's trial found missing from the control API (docs/fidelity.md row 84): an endpoint's
// secret could only be generated, never chosen, so a receiver in another process could not know it in
// advance; and a scenario added at run time stayed for good, leaking from one test into the next.

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.received.length = 0;
});

const t = useTestServer({ clock: 'instant' });

test('an endpoint created with a chosen secret sends Authorization: Bearer <that secret>', async () => {
  const created = await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, auth_type: 'secret', secret: 'my_test_secret' });
  expect(created.status).toBe(201);
  expect(created.json<{ secret: string }>().secret).toBe('my_test_secret');
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(receiver.received.length).toBeGreaterThan(0);
  for (const hook of receiver.received) expect(hook.headers.authorization).toBe('Bearer my_test_secret');
});

test('POST /_mock/webhook_endpoints/:id/secret sets a chosen secret, or generates one without a body', async () => {
  const { webhook_endpoint: endpoint } = (await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, auth_type: 'secret' })).json<{
    webhook_endpoint: { id: string };
  }>();
  const chosen = await t.json('POST', `/_mock/webhook_endpoints/${endpoint.id}/secret`, { secret: 'rotated_secret' });
  expect([chosen.status, chosen.json<{ secret: string }>().secret]).toEqual([201, 'rotated_secret']);
  const generated = await t.json('POST', `/_mock/webhook_endpoints/${endpoint.id}/secret`, {});
  expect(generated.json<{ secret: string }>().secret).toMatch(/^whsec_/);
});

test('a chosen secret is refused where it cannot apply: another auth_type, or a value with spaces', async () => {
  const other = expectApiError(await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, secret: 'x' }), 422, 'validation_failed');
  expect(other.issues).toEqual([expect.objectContaining({ path: '$.secret', message: expect.stringContaining('this one has none') })]);
  const spaced = expectApiError(
    await t.json('POST', '/_mock/webhook_endpoints', { name: 'hooks', url: receiver.url, auth_type: 'secret', secret: 'two words' }),
    422,
    'validation_failed',
  );
  expect(spaced.issues[0]!.path).toBe('$.secret');
});

const SCENARIO = `name: run-time-one
description: Added by a test.
tins: ["76999999-3"]
entity: { tin: 76999999-3, country: CL, category: business, name: Temporal SpA, runs: [{ type: cl/sii, outcomes: [{ succeeded: 5s }] }] }
`;

const addScenario = () => t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: SCENARIO });
const names = async () => (await t.call('/_mock/scenarios')).json<{ scenarios: Array<{ name: string }> }>().scenarios.map((scenario) => scenario.name);

test('a scenario added at run time can be removed, and its TIN plays a generated tree again', async () => {
  expect((await addScenario()).status).toBe(201);
  expect(await names()).toContain('run-time-one');
  expect((await t.call('/_mock/scenarios/run-time-one', { method: 'DELETE' })).status).toBe(204);
  expect(await names()).not.toContain('run-time-one');
  expect((await addScenario()).status).toBe(201);
});

test('a reset removes the scenarios added at run time, so one test cannot leak them into the next', async () => {
  expect((await addScenario()).status).toBe(201);
  expect((await t.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
  expect(await names()).not.toContain('run-time-one');
  expect(await names()).toContain('happy-partners');
});

test('a built-in scenario cannot be removed (409), and an unknown name is a 404 with the closest names', async () => {
  expectApiError(await t.call('/_mock/scenarios/happy-partners', { method: 'DELETE' }), 409, 'conflict');
  const error = expectApiError(await t.call('/_mock/scenarios/happy-partner', { method: 'DELETE' }), 404, 'not_found');
  expect(error.message).toContain('Did you mean "happy-partners"');
});
