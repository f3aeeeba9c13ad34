import type { DeliveryEvent, WebhookEndpoint } from '../../src/schemas';
import { maskSecret } from '../../src/delivery/sent-headers';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { useTestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// What each delivery attempt sent, beside what came back (docs/fidelity.md row 30): with a receiver that answers 401
// on every attempt, the page showed the answers but not the headers, so a secret mismatch was a guess. The secret
// shows its last 4 characters only.

const t = useTestServer({ clock: 'instant' });
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const records = async (): Promise<DeliveryEvent[]> => (await t.call('/_mock/events')).json<{ events: DeliveryEvent[] }>().events;

test('each attempt shows the request headers sent, the secret masked to its last 4 characters, next to the 401 it got', async () => {
  receiver.respond(() => 401);
  const answer = await t.json('POST', '/_mock/webhook_endpoints', {
    name: 'hooks',
    url: receiver.url,
    auth_type: 'secret',
    subscribed_events: ['data_source_run_batch.ready'],
  });
  const { secret } = answer.json<{ webhook_endpoint: WebhookEndpoint; secret: string }>();
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.advance(120);
  const [record] = await records();
  expect(record!.attempts.length).toBeGreaterThan(2);
  for (const attempt of record!.attempts) {
    expect(attempt.response_code).toBe(401);
    expect(attempt.request_headers).toEqual({
      'content-type': 'application/json',
      'user-agent': expect.stringMatching(/^bvs-mock\//),
      'x-bvs-mock-origin': '****',
      authorization: `Bearer ****${secret.slice(-4)}`,
    });
  }
  const one = await t.call(`/_mock/events/${record!.id}`);
  expect(one.json<DeliveryEvent>().attempts[0]!.request_headers!.authorization).toBe(`Bearer ****${secret.slice(-4)}`);
  expect(one.text()).not.toContain(secret);
  expect((await t.call('/_mock/events')).text()).not.toContain(secret);
});

test('an attempt that sent nothing (its endpoint disabled) shows no request headers', async () => {
  receiver.respond(() => 200);
  const { webhook_endpoint: endpoint } = (
    await t.json('POST', '/_mock/webhook_endpoints', { name: 'off', url: receiver.url, subscribed_events: ['data_source_run_batch.ready'], enabled: false })
  ).json<{ webhook_endpoint: WebhookEndpoint }>();
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.advance(120);
  const [record] = (await records()).filter((candidate) => candidate.endpoint_id === endpoint.id);
  expect(record!.attempts).toEqual([expect.objectContaining({ error: expect.stringContaining('endpoint_disabled'), response_code: null })]);
  expect(record!.attempts[0]).not.toHaveProperty('request_headers');
});

test.each([
  ['Bearer whsec_0123456789abcdef', 'Bearer ****cdef'],
  ['Bearer short', 'Bearer ****'],
  ['tok_legacy_abcdefgh', '****efgh'],
])('maskSecret(%j) is %j', (value, masked) => {
  expect(maskSecret(value)).toBe(masked);
});
