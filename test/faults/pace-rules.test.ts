import { ClientObserver, type ObservedRequest } from '../../src/faults/client-observer';
import { SCENARIOS, startBvsMock, type RunningBvsMock } from '../../src/testing';

// The pace the spec implies, graded in the contract report whatever the faults: polling (the same path read again
// and again within a second, where §1 item 6 says results come by webhook) and token reuse (a new OAuth token before
// every call while the one before was still valid, where §5.4 says to renew it when it expires). Clients written for
// the test, over real HTTPS; the wall clock bvs-mock reads request times from is injected and moves only when a client waits.

let wall = Date.parse('2026-01-15T10:00:00.000Z');
const wait = (ms: number) => {
  wall += ms;
};

let bvs: RunningBvsMock;
beforeAll(async () => {
  bvs = await startBvsMock({ clock: 'instant', wallClock: { wallNow: () => wall } });
});
afterAll(() => bvs.stop());
beforeEach(() => bvs.control.reset());

const findings = async () => (await bvs.control.report()).client_behaviour.findings;
const api = (path: string, token: string, init: { method?: string; body?: string } = {}) =>
  bvs.fetch(`${bvs.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
async function createValidation(token = bvs.apiKey): Promise<string> {
  const answer = await api('/api/v2/entity_validations', token, {
    method: 'POST',
    body: JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}
async function newToken(): Promise<string> {
  const answer = await bvs.fetch(`${bvs.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: bvs.oauthClient.clientId, client_secret: bvs.oauthClient.clientSecret }),
  });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { access_token: string }).access_token;
}

test('a client that reads the same validation three times within a second each is polling: one finding, with the rule quoting the spec and the reads as evidence', async () => {
  const id = await createValidation();
  for (let read = 0; read < 5; read += 1) {
    expect((await api(`/api/v2/entity_validations/${id}`, bvs.apiKey)).status).toBe(200);
    wait(300);
  }
  const polling = (await findings()).filter((finding) => finding.check === 'polling');
  expect(polling).toHaveLength(1);
  const [finding] = polling;
  expect(finding!.outcome).toBe('fail');
  expect(finding!.rule).toContain('"The service pushes webhook events (HTTP POST, JSON) to the client instead of requiring polling."');
  expect(finding!.evidence.map((item) => [item.method, item.path])).toEqual(Array.from({ length: 3 }, () => ['GET', `/api/v2/entity_validations/${id}`]));
  expect(finding!.evidence.map((item) => Date.parse(item.at) - Date.parse(finding!.evidence[0]!.at))).toEqual([0, 300, 600]);
  expect(finding!.message).toMatch(new RegExp(`^polled GET /api/v2/entity_validations/${id}: 3 reads in a row, 0\\.300 s, 0\\.300 s apart, from req_\\d+ at `));
});

test('a client that reads once a second or slower, or twice at once (two webhooks), gets no pace finding', async () => {
  const id = await createValidation();
  for (let read = 0; read < 4; read += 1) {
    await api(`/api/v2/entity_validations/${id}`, bvs.apiKey);
    wait(1_000);
  }
  await api(`/api/v2/entity_validations/${id}`, bvs.apiKey);
  await api(`/api/v2/entity_validations/${id}`, bvs.apiKey);
  expect(await findings()).toEqual([]);
});

test('reads with failed attempts between them are retries, not polling: a 503 or a revoked token between two reads ends the run', async () => {
  const id = await createValidation();
  const token = await newToken();
  expect((await api(`/api/v2/entity_validations/${id}`, token)).status).toBe(200);
  await bvs.control.addFault({ kind: 'api_error', code: 'service_unavailable', count: 1 });
  expect((await api(`/api/v2/entity_validations/${id}`, token)).status).toBe(503);
  wait(200);
  expect((await api(`/api/v2/entity_validations/${id}`, token)).status).toBe(200);
  await bvs.control.addFault({ kind: 'token_revoked', count: 1 });
  expect((await api(`/api/v2/entity_validations/${id}`, token)).status).toBe(401);
  const renewed = await newToken();
  expect((await api(`/api/v2/entity_validations/${id}`, renewed)).status).toBe(200);
  expect((await findings()).filter((finding) => finding.check === 'polling' || finding.check === 'token-reuse')).toEqual([]);
});

test('a client that asks for a new token before every call while its token is still valid is named once, with the token requests and calls as evidence', async () => {
  for (let call = 0; call < 5; call += 1) {
    const token = await newToken();
    expect((await api('/api/v2/webhook_endpoints', token)).status).toBe(200);
    wait(200);
  }
  const reuse = (await findings()).filter((finding) => finding.check === 'token-reuse');
  expect(reuse).toHaveLength(1);
  expect(reuse[0]!.rule).toContain('request a new one when it expires');
  expect(reuse[0]!.message).toMatch(
    /^requested a new access token before each of its last 3 calls while the token it had was still valid \(the last one 120 min before its expiry\), up to req_\d+ at /,
  );
  expect(reuse[0]!.evidence.map((item) => `${item.method} ${item.path}`)).toEqual([
    'POST /oauth/token',
    'GET /api/v2/webhook_endpoints',
    'POST /oauth/token',
    'GET /api/v2/webhook_endpoints',
    'POST /oauth/token',
    'GET /api/v2/webhook_endpoints',
    'POST /oauth/token',
  ]);
});

test('a client that keeps its token for many calls, and asks again only after it was refused, gets no pace finding', async () => {
  const token = await newToken();
  for (let call = 0; call < 5; call += 1) expect((await api('/api/v2/webhook_endpoints', token)).status).toBe(200);
  await bvs.control.addFault({ kind: 'token_revoked', count: 1 });
  expect((await api('/api/v2/webhook_endpoints', token)).status).toBe(401);
  const renewed = await newToken();
  wait(500);
  expect((await api('/api/v2/webhook_endpoints', renewed)).status).toBe(200);
  expect((await findings()).filter((finding) => finding.check === 'polling' || finding.check === 'token-reuse')).toEqual([]);
});

const read = (id: number, wallMs: number): ObservedRequest => ({
  id: `req_${id}`,
  wallMs,
  method: 'GET',
  path: '/api/v2/entity_validations/evl_1',
  organizationId: 'org_default',
  credential: null,
  status: 200,
  fault: null,
  retryAfterS: null,
  faultsOn: false,
  tokenRequest: false,
  tokenExpiresAtMs: null,
  tokenClockMs: wallMs,
});

test("the pace rules' state is in the observer's snapshot: a poll begun before it is found after a restore; a snapshot from before them restores", () => {
  const observer = new ClientObserver();
  observer.record(read(1, 0));
  observer.record(read(2, 400));
  const restored = new ClientObserver();
  restored.restore(JSON.parse(JSON.stringify(observer.snapshot())));
  restored.record(read(3, 800));
  expect(restored.list().map((finding) => [finding.check, finding.evidence.map((item) => item.request_id)])).toEqual([
    ['polling', ['req_1', 'req_2', 'req_3']],
  ]);

  const { pace: _pace, ...older } = observer.snapshot();
  const fromOlder = new ClientObserver();
  fromOlder.restore(older);
  fromOlder.record(read(3, 800));
  expect(fromOlder.list()).toEqual([]);
});

test('the reads kept stay bounded: a client reading ever new paths keeps at most 1,000 of them', () => {
  const observer = new ClientObserver();
  for (let index = 0; index < 5_000; index += 1) observer.record({ ...read(index, index), path: `/api/v2/entity_validations/evl_${index}` });
  expect(observer.snapshot().pace!.reads).toHaveLength(1000);
});
