import { SessionAnswer, SessionList } from '../../src/schemas';
import { expectApiError, startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS, PARTNER_DEFINITIVE_ERROR } from '../support/built-in-tins';

// A session's snapshot (GET /_mock/sessions/{id}/snapshot) restored by POST /_mock/sessions { snapshot } goes on
// exactly where it stood (docs/fidelity.md row 118); the world-level property over every scenario is in
// test/world/snapshot-restore.property.test.ts.

let t: TestServer;
beforeEach(async () => {
  t = await startTestServer();
});
afterEach(async () => {
  await t.close();
});

async function session(body: Record<string, unknown>): Promise<SessionAnswer> {
  const made = await t.json('POST', '/_mock/sessions', body);
  if (made.status !== 201) throw new Error(`POST /_mock/sessions: ${made.status} ${made.text()}`);
  return SessionAnswer.parse(made.json());
}

const keyOf = (made: SessionAnswer) => made.organizations[0]!.api_keys[0]!;
const emitted = async (made: SessionAnswer) => (await t.call(`${made.control_base}/emitted?limit=1000`)).json<{ events: unknown[] }>().events;

test('a session restored from its snapshot beside the original plays on to the same events, with new credentials since the old ones are in use', async () => {
  const original = await session({ label: 'original', clock: { mode: 'manual' }, seed: 5 });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(original) });
  await t.create({ tin: PARTNER_DEFINITIVE_ERROR, country: 'CL' }, { key: keyOf(original) });
  await t.json('POST', `${original.control_base}/clock/advance`, { seconds: 40 });
  const snapshot = (await t.call(`${original.control_base}/snapshot`)).json<{ format: string; version: number; clock: { now_iso: string } }>();
  expect([snapshot.format, snapshot.version]).toEqual(['bvs-mock/world-snapshot', 1]);

  const copy = await session({ label: 'copy', snapshot });
  expect(copy.id).not.toBe(original.id);
  expect(copy.clock.now).toBe(snapshot.clock.now_iso);
  expect(copy.seed).toBe(5);
  expect(keyOf(copy)).not.toBe(keyOf(original));
  for (const made of [original, copy]) expect((await t.json('POST', `${made.control_base}/clock/run`, {})).status).toBe(200);
  const [played, replayed] = [await emitted(original), await emitted(copy)];
  expect(played.length).toBeGreaterThan(10);
  expect(replayed).toEqual(played);
  // The copy's validations answer through its own key, with the original's ids.
  const ids = (await t.call(`${original.control_base}/entity_validations`)).json<{ validations: Array<{ id: string }> }>().validations.map((v) => v.id);
  expect((await t.get(`/api/v2/entity_validations/${ids[0]}`, keyOf(copy))).status).toBe(200);
});

test('once the original has ended, the restored session keeps its API key and OAuth client; access tokens issued before are not carried over', async () => {
  const original = await session({ clock: { mode: 'manual' } });
  const client = original.organizations[0]!.oauth_clients[0]!;
  const token = (await t.token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret })).json<{
    access_token: string;
  }>().access_token;
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(original) });
  const snapshot = (await t.call(`${original.control_base}/snapshot`)).json();
  await t.call(`/_mock/sessions/${original.id}`, { method: 'DELETE' });
  const restored = await session({ snapshot });
  expect(restored.organizations[0]!.api_keys).toEqual(original.organizations[0]!.api_keys);
  expect(restored.organizations[0]!.oauth_clients[0]!.client_id).toBe(client.client_id);
  expect((await t.get(`/api/v2/entity_validations/${created.id}`, keyOf(original))).status).toBe(200);
  expectApiError(await t.get(`/api/v2/entity_validations/${created.id}`, token), 401, 'invalid_token');
  const fresh = await t.token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
  expect((await t.get(`/api/v2/entity_validations/${created.id}`, fresh.json<{ access_token: string }>().access_token)).status).toBe(200);
});

test('a snapshot of a newer format, a broken one, or one given with its own clock is refused whole, and no session is made', async () => {
  const original = await session({ clock: { mode: 'manual' } });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(original) });
  const snapshot = (await t.call(`${original.control_base}/snapshot`)).json<Record<string, unknown>>();
  const newer = expectApiError(await t.json('POST', '/_mock/sessions', { snapshot: { ...snapshot, version: 2 } }), 422, 'validation_failed');
  expect(newer.message).toContain('this snapshot is format version 2, written by a newer bvs-mock; this one reads version 1');
  expect(newer.issues[0]!.path).toBe('$.snapshot');
  const broken = expectApiError(
    await t.json('POST', '/_mock/sessions', { snapshot: { ...snapshot, timers: [{ at: 0, tag: { kind: 'nonsense' } }] } }),
    400,
    'invalid_request',
  );
  expect(broken.message).toMatch(/nothing of it was loaded/);
  const mixed = expectApiError(await t.json('POST', '/_mock/sessions', { snapshot, clock: { mode: 'instant' }, seed: 3 }), 400, 'invalid_request');
  expect(mixed.issues.map((issue) => issue.path)).toEqual(['$.seed', '$.clock']);
  expect(SessionList.parse((await t.call('/_mock/sessions')).json()).sessions.map((listed) => listed.id)).toEqual(['default', original.id]);
});

test('a snapshot larger than the 1 MiB body limit is still taken back by POST /_mock/sessions; other requests keep the limit', async () => {
  const big = await session({ clock: { mode: 'manual' } });
  for (let index = 0; index < 80; index += 1) await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(big) });
  await t.json('POST', `${big.control_base}/clock/run`, {});
  const text = (await t.call(`${big.control_base}/snapshot`)).text();
  expect(Buffer.byteLength(text)).toBeGreaterThan(1024 * 1024);
  const restored = await t.call('/_mock/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"snapshot":${text}}` });
  expect(restored.status).toBe(201);
  expect((await t.call(`${restored.json<SessionAnswer>().control_base}/entity_validations`)).json<{ total: number }>().total).toBe(80);
  const scenario = await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"name":"x","pad":${text}}` });
  expectApiError(scenario, 413, 'payload_too_large');
});

test('the label a validation was created under survives the snapshot: the restored delivery records still show it', async () => {
  const original = await session({ clock: { mode: 'manual' } });
  const endpoint = await t.json('POST', `${original.control_base}/webhook_endpoints`, { name: 'closed', url: 'https://127.0.0.1:9/hooks' });
  expect(endpoint.status).toBe(201);
  const created = await t.json(
    'POST',
    '/api/v2/entity_validations',
    { tin: HAPPY_PARTNERS, country: 'CL' },
    { authorization: `Bearer ${keyOf(original)}`, 'x-bvs-mock-label': 'files - labelled test' },
  );
  expect(created.status).toBe(201);
  const snapshot = (await t.call(`${original.control_base}/snapshot`)).json();
  const restored = await session({ snapshot });
  await t.json('POST', `${restored.control_base}/clock/advance`, { seconds: 30 });
  const events = (await t.call(`${restored.control_base}/events`)).json<{ events: Array<{ label?: string }> }>().events;
  expect(events.length).toBeGreaterThan(0);
  expect(events.every((event) => event.label === 'files - labelled test')).toBe(true);
});
