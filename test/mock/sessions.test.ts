import { EntityValidation, SessionAnswer, SessionList } from '../../src/schemas';
import { bearer, expectApiError, DEFAULT_API_KEY, type TestServer } from '../support/api-test-server';
import { HAPPY_NO_PARTNERS, HAPPY_PARTNERS } from '../support/built-in-tins';
import { startSilentPort } from '../support/silent-port';
import { openEventStream } from '../support/event-stream';
import { makeSession, serversClosedAfterEach } from '../support/sessions';

// Sessions: one server, many isolated worlds (docs/design.md "Sessions", docs/fidelity.md rows 114 to 118).
// Requests reach a session by their credentials (API key, OAuth client, its tokens, pre-signed and recipient
// URLs) or by the session's control prefix; today's /_mock/... is the default session, unchanged.

const { serve } = serversClosedAfterEach();

const session = makeSession;

const keyOf = (made: SessionAnswer) => made.organizations[0]!.api_keys[0]!;

async function total(t: TestServer, base: string): Promise<number> {
  return (await t.call(`${base}/entity_validations`)).json<{ total: number }>().total;
}

test('a session answers its id, credentials, control base and idle expiry, and its API key creates validations only it sees', async () => {
  const t = await serve();
  const made = await session(t, { label: 'test/one.test.ts', clock: { mode: 'manual', start_time: '2026-03-01T09:00:00Z' }, seed: 42 });
  expect(made).toMatchObject({ label: 'test/one.test.ts', default: false, seed: 42, control_base: `/_mock/sessions/${made.id}` });
  expect(made.id).toMatch(/^ses_[0-9a-f]{20}$/);
  expect(made.clock).toMatchObject({ mode: 'manual', now: '2026-03-01T09:00:00.000Z' });
  expect(Date.parse(made.expires_at!) - Date.parse(made.last_used_at)).toBe(1800 * 1000);
  const [organization] = made.organizations;
  expect(organization).toMatchObject({
    id: 'default',
    api_keys: [expect.stringMatching(/^bvs_key_/)],
    legacy_webhook_token: expect.stringMatching(/^tok_legacy_/),
  });
  expect(organization!.oauth_clients[0]).toMatchObject({
    client_id: expect.stringMatching(/^bvs_client_/),
    scopes: ['validations:read', 'validations:write', 'webhook_endpoints:read'],
  });

  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(made) });
  expect(created.created_at).toBe('2026-03-01T09:00:00.000Z');
  expect(await total(t, made.control_base)).toBe(1);
  expect(await total(t, '/_mock')).toBe(0);
  // Each world has its own ids: the default organization of the default session has no such validation.
  expectApiError(await t.get(`/api/v2/entity_validations/${created.id}`, DEFAULT_API_KEY), 404, 'not_found');
  expect((await t.get(`/api/v2/entity_validations/${created.id}`, keyOf(made))).status).toBe(200);
  // The same seed gives the same ids in another session, as in another process.
  const twin = await session(t, { clock: { mode: 'manual', start_time: '2026-03-01T09:00:00Z' }, seed: 42 });
  expect((await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(twin) })).id).toBe(created.id);
});

test("a session's OAuth client gets tokens, by the form and by HTTP Basic, that reach that session and expire on its clock", async () => {
  const t = await serve();
  const made = await session(t, { clock: { mode: 'manual' } });
  const client = made.organizations[0]!.oauth_clients[0]!;
  const form = await t.token({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret });
  expect(form.status).toBe(200);
  const token = form.json<{ access_token: string }>().access_token;
  const basic = await t.call('/oauth/token', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  expect(basic.status).toBe(200);
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: token });
  expect(await total(t, made.control_base)).toBe(1);
  expect(await total(t, '/_mock')).toBe(0);
  // Two hours of the session's clock expire it; the default session's clock did not move.
  await t.json('POST', `${made.control_base}/clock/advance`, { seconds: 7200 });
  expectApiError(await t.get(`/api/v2/entity_validations/${created.id}`, basic.json<{ access_token: string }>().access_token), 401, 'token_expired');
  expect((await t.call('/_mock/clock')).json<{ now: string }>().now).not.toBe((await t.call(`${made.control_base}/clock`)).json<{ now: string }>().now);
  // The default session's client still gets the default session's tokens.
  const own = await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret' });
  await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: own.json<{ access_token: string }>().access_token });
  expect(await total(t, '/_mock')).toBe(1);
});

test("a session's pre-signed report URL and recipient page lead back to it, though its organization id is the default session's too", async () => {
  const t = await serve();
  const made = await session(t, { clock: { mode: 'manual' } });
  const key = keyOf(made);
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL', information_request: { template_id: 'irt_session' } }, { key });
  await t.json('POST', `${made.control_base}/clock/run`, {});
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`, key)).json());
  const url = validation.data_source_run_batches[0]!.consolidated_report_url!;
  expect(url).toMatch(new RegExp(`^${t.server.url}/_mock/sessions/${made.id}/files/default/reports/dsrb_\\w+\\.pdf\\?expires=\\d+&signature=[0-9a-f]+$`));
  const pdf = await t.call(url);
  expect([pdf.status, pdf.body.subarray(0, 5).toString('latin1')]).toEqual([200, '%PDF-']);
  // The same path in the default session is no file of it.
  expect((await t.call(url.replace(`/_mock/sessions/${made.id}`, '/_mock'))).status).toBe(404);

  const request = created.information_requests[0]!;
  expect(request.recipient_url).toBe(`${t.server.url}/_mock/sessions/${made.id}/recipient/${request.id}`);
  const page = (await t.call(request.recipient_url)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  expect(action).toBe(`/_mock/sessions/${made.id}/recipient/${request.id}/submit`);
  const submitted = await t.call(action!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.server.url }, body: '' });
  expect([submitted.status, submitted.headers.location]).toEqual([303, `/_mock/sessions/${made.id}/recipient/${request.id}`]);
  const after = (await t.get(`/api/v2/information_requests/${request.id}`, key)).json<{ requestable_items: Array<{ status: string }> }>();
  expect(after.requestable_items.map((item) => item.status)).toEqual(['submitted']);
});

test('reset, clock moves and faults of one session leave the default session and another session as they were', async () => {
  const t = await serve();
  const one = await session(t, { clock: { mode: 'manual' } });
  const other = await session(t, { clock: { mode: 'manual' } });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(other) });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  const look = async (base: string) => ({
    clock: (await t.call(`${base}/clock`)).json<{ now: string }>().now,
    validations: await total(t, base),
    faults: (await t.call(`${base}/faults`)).json<{ faults: unknown[] }>().faults.length,
  });
  const before = { other: await look(other.control_base), main: await look('/_mock') };
  expect((await t.json('POST', `${one.control_base}/faults`, { kind: 'api_error', code: 'service_unavailable', count: 1 })).status).toBe(201);
  expect((await t.json('POST', `${one.control_base}/clock/advance`, { seconds: 3600 })).status).toBe(200);
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(one) }).catch(() => undefined);
  expect((await t.json('POST', `${one.control_base}/reset`, {})).status).toBe(200);
  expect({ other: await look(other.control_base), main: await look('/_mock') }).toEqual(before);
  // The fault hit only its own session: the other's next create is not refused.
  expect((await t.json('POST', `${one.control_base}/faults`, { kind: 'api_error', code: 'service_unavailable', count: 5 })).status).toBe(201);
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(other) });
  expectApiError(await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' }, bearer(keyOf(one))), 503, 'service_unavailable');
});

test('ending a session cancels and counts its pending deliveries, refuses its credentials and its control path, and the default session cannot be ended', async () => {
  const silent = await startSilentPort('hang');
  try {
    const t = await serve({ allowHttpWebhooks: true, slowReceiverMs: 20 });
    const made = await session(t, { clock: { mode: 'manual' } });
    const endpoint = await t.json('POST', `${made.control_base}/webhook_endpoints`, { name: 'hang', url: silent.url });
    expect([endpoint.status, endpoint.text()]).toEqual([201, endpoint.text()]);
    await t.create({ tin: HAPPY_PARTNERS, country: 'CL' }, { key: keyOf(made) });
    // The first events go to a receiver that never answers: in flight, the next ones queued behind it.
    await t.json('POST', `${made.control_base}/clock/advance`, { seconds: 60 });
    const described = (await t.call(`/_mock/sessions/${made.id}`)).json<SessionAnswer>();
    // Read back, the secrets are `<set>`: only the answer that made the session shows them.
    expect(described.organizations[0]).toMatchObject({ api_keys: ['<set>'], legacy_webhook_token: '<set>', oauth_clients: [{ client_secret: '<set>' }] });
    expect(described.organizations[0]!.oauth_clients[0]!.client_id).toBe(made.organizations[0]!.oauth_clients[0]!.client_id);
    const pending = described.counts.deliveries.pending;
    expect(pending).toBeGreaterThan(0);
    const ended = await t.call(`/_mock/sessions/${made.id}`, { method: 'DELETE' });
    expect(ended.json()).toEqual({ id: made.id, status: 'ended', deliveries_cancelled: pending });
    expectApiError(await t.get('/api/v2/webhook_endpoints', keyOf(made)), 401, 'invalid_token');
    const gone = expectApiError(await t.call(`${made.control_base}/clock`), 404, 'not_found');
    expect(gone.message).toContain(`No session "${made.id}"`);
    expectApiError(await t.call(`/_mock/sessions/${made.id}`, { method: 'DELETE' }), 404, 'not_found');
    const permanent = expectApiError(await t.call('/_mock/sessions/default', { method: 'DELETE' }), 409, 'conflict');
    expect(permanent.message).toMatch(/default session cannot be ended/);
    expect((await t.call('/_mock/sessions/default/health')).status).toBe(200);
  } finally {
    await silent.close();
  }
});

test('--max-sessions bounds the sessions with an error naming the limit, and ending one makes room', async () => {
  const t = await serve({ maxSessions: 2 });
  const first = await session(t);
  await session(t);
  const refused = expectApiError(await t.json('POST', '/_mock/sessions', {}), 409, 'session_limit_reached');
  expect(refused.message).toMatch(/^2 sessions are open, the most this bvs-mock holds at once \(--max-sessions or BVS_MOCK_MAX_SESSIONS\)/);
  await t.call(`/_mock/sessions/${first.id}`, { method: 'DELETE' });
  await session(t);
  const list = SessionList.parse((await t.call('/_mock/sessions')).json());
  expect(list.limits).toEqual({ max_sessions: 2, session_ttl_seconds: 1800 });
  expect(list.sessions.map((listed) => listed.default)).toEqual([true, false, false]);
  expect(JSON.stringify(list)).not.toContain('api_keys');
});

test('a session idle for --session-ttl ends: its credentials and control path are refused and the list leaves it out; a request keeps it alive', async () => {
  let now = Date.parse('2026-05-01T12:00:00Z');
  const t = await serve({ sessionTtlMs: 60_000, wallClock: { wallNow: () => now } });
  const idle = await session(t);
  const busy = await session(t);
  now += 40_000;
  expect((await t.call(`${busy.control_base}/clock`)).status).toBe(200);
  now += 30_000;
  expectApiError(await t.get('/api/v2/webhook_endpoints', keyOf(idle)), 401, 'invalid_token');
  expectApiError(await t.call(`${idle.control_base}/clock`), 404, 'not_found');
  expect((await t.get('/api/v2/webhook_endpoints', keyOf(busy))).status).toBe(200);
  const ids = SessionList.parse((await t.call('/_mock/sessions')).json()).sessions.map((listed) => listed.id);
  expect(ids).toEqual(['default', busy.id]);
});

test("a session's own organizations, scenarios and strictness: given credentials kept, missing ones generated, a credential in use refused with its path", async () => {
  const t = await serve();
  const made = await session(t, {
    organizations: [
      { id: 'acme', api_keys: ['acme_key_1'] },
      { id: 'globex', settings: { child_batches_ready: false } },
    ],
    scenarios: [
      {
        name: 'session-only',
        description: 'one entity',
        tins: ['11111111-1'],
        entity: { tin: '11111111-1', country: 'CL', category: 'business', name: 'Sesion SpA', runs: [{ type: 'cl/sii', outcomes: [{ succeeded: '5s' }] }] },
      },
    ],
    strict: true,
  });
  expect(made.organizations.map((organization) => [organization.id, organization.api_keys[0]!.startsWith('bvs_key_')])).toEqual([
    ['acme', false],
    ['globex', true],
  ]);
  expect(made.organizations[0]!.api_keys).toEqual(['acme_key_1']);
  const created = await t.create({ tin: '11111111-1', country: 'CL' }, { key: 'acme_key_1' });
  expect(created.name).toBe('Sesion SpA');
  // Strict in this session only: an unknown field is refused here and recorded in the default session.
  expectApiError(
    await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL', extra: 1 }, bearer('acme_key_1')),
    422,
    'validation_failed',
  );
  expect((await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL', extra: 1 }, bearer(DEFAULT_API_KEY))).status).toBe(201);
  // The scenario is the session's: a reset keeps it, the default session never had it.
  await t.json('POST', `${made.control_base}/reset`, {});
  const names = async (base: string) =>
    (await t.call(`${base}/scenarios`)).json<{ scenarios: Array<{ name: string }> }>().scenarios.map((scenario) => scenario.name);
  expect(await names(made.control_base)).toContain('session-only');
  expect(await names('/_mock')).not.toContain('session-only');

  const taken = expectApiError(
    await t.json('POST', '/_mock/sessions', { organizations: [{ id: 'x', api_keys: ['acme_key_1', DEFAULT_API_KEY] }] }),
    409,
    'conflict',
  );
  expect(taken.issues.map((issue) => issue.path)).toEqual(['$.organizations[0].api_keys[0]', '$.organizations[0].api_keys[1]']);
});

test('bad session input is refused with where and why, and makes no session', async () => {
  const t = await serve();
  const cases: Array<[unknown, number, string]> = [
    [{ colour: 'red' }, 422, '$.colour'],
    [{ clock: { mode: 'slow' } }, 422, '$.clock.mode'],
    [{ seed: -1 }, 422, '$.seed'],
    [{ scenarios: [{ name: 'broken' }] }, 422, '$.scenarios[0]'],
    [{ organizations: [{ id: 'a b' }] }, 422, '$.organizations[0].id'],
  ];
  for (const [body, status, path] of cases) {
    const answer = await t.json('POST', '/_mock/sessions', body);
    expect([answer.status, JSON.stringify(body)]).toEqual([status, JSON.stringify(body)]);
    expect(
      answer
        .json<{ error: { issues: Array<{ path: string }> } }>()
        .error.issues.map((issue) => issue.path)
        .join(' '),
    ).toContain(path);
  }
  const start = expectApiError(await t.json('POST', '/_mock/sessions', { clock: { start_time: 'yesterday' } }), 400, 'invalid_request');
  expect(start.message).toMatch(/start time/i);
  expect(SessionList.parse((await t.call('/_mock/sessions')).json()).sessions).toHaveLength(1);
  expectApiError(await t.call('/_mock/sessions/ses_00000000000000000000/clock'), 404, 'not_found');
  expectApiError(await t.call('/_mock/sessions/%E0%A4%A/clock'), 404, 'not_found');
});

test('retention limits hold per session: a session evicting its oldest validation leaves the default session and another session whole', async () => {
  const t = await serve({ retention: { maxValidations: 2 } });
  const busy = await session(t, { clock: { mode: 'manual' } });
  const quiet = await session(t, { clock: { mode: 'manual' } });
  const kept = [await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }), await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: keyOf(quiet) })];
  const first = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: keyOf(busy) });
  await t.json('POST', `${busy.control_base}/clock/run`, {});
  for (let i = 0; i < 2; i += 1) await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' }, { key: keyOf(busy) });
  expectApiError(await t.get(`/api/v2/entity_validations/${first.id}`, keyOf(busy)), 404, 'evicted');
  expect((await t.get(`/api/v2/entity_validations/${kept[0]!.id}`)).status).toBe(200);
  expect((await t.get(`/api/v2/entity_validations/${kept[1]!.id}`, keyOf(quiet))).status).toBe(200);
});

test("a session's change stream tells of its own changes only: another session's reset and clock moves stay out of it", async () => {
  const t = await serve();
  const watched = await session(t, { clock: { mode: 'manual' } });
  const busy = await session(t, { clock: { mode: 'manual' } });
  const stream = await openEventStream(t.server.url, `${watched.control_base}/stream`, { ca: t.server.certificate });
  try {
    await stream.waitFor(/event: ready/);
    await t.json('POST', `${busy.control_base}/clock/advance`, { seconds: 60 });
    await t.json('POST', `${busy.control_base}/reset`, {});
    await t.json('POST', '/_mock/reset', {});
    // Then one change of its own: whatever came before it in the stream was the other sessions' doing.
    await t.json('POST', `${watched.control_base}/reset`, {});
    await stream.waitFor(/"reset"/);
    const kinds = stream
      .events()
      .filter((event) => event.event !== 'ready')
      .flatMap((event) => (JSON.parse(event.data) as { kinds: string[] }).kinds);
    // Its own reset is a reset and a request that changed state; nothing of a clock move, which only the others made.
    expect([...new Set(kinds)].sort()).toEqual(['request', 'reset']);
  } finally {
    stream.close();
  }
});

test("ending a session ends its change stream's readers, so none is left holding a connection", async () => {
  const t = await serve();
  const made = await session(t, { clock: { mode: 'manual' } });
  const stream = await openEventStream(t.server.url, `${made.control_base}/stream`, { ca: t.server.certificate });
  try {
    await stream.waitFor(/event: ready/);
    await t.call(`/_mock/sessions/${made.id}`, { method: 'DELETE' });
    await stream.ended;
    expect(stream.received()).not.toMatch(/event: change/);
  } finally {
    stream.close();
  }
});

test('GET /_mock/events?label= keeps the delivery records of the validations one test (label) created', async () => {
  const t = await serve({ clock: 'manual' });
  expect((await t.json('POST', '/_mock/webhook_endpoints', { name: 'closed', url: 'https://127.0.0.1:9/hooks' })).status).toBe(201);
  for (const label of ['suite-a - first', 'suite-b - second'])
    await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_NO_PARTNERS, country: 'CL' }, { ...bearer(DEFAULT_API_KEY), 'x-bvs-mock-label': label });
  await t.json('POST', '/_mock/clock/advance', { seconds: 30 });
  const labels = async (query: string) =>
    (await t.call(`/_mock/events${query}`)).json<{ events: Array<{ label?: string }> }>().events.map((event) => event.label);
  const all = await labels('');
  expect(new Set(all)).toEqual(new Set(['suite-a - first', 'suite-b - second']));
  const first = await labels(`?label=${encodeURIComponent('suite-a - first')}`);
  expect(first.length).toBeGreaterThan(0);
  expect(first.length).toBeLessThan(all.length);
  expect(new Set(first)).toEqual(new Set(['suite-a - first']));
});
