import { SCENARIOS, startBvsMock, type RunningBvsMock } from '../../src/testing';

// What a client does after faults bvs-mock injects into its API answers, graded in the contract report with
// the rule and the evidence (request ids, real times): clients written for the test, well and badly behaved,
// over real HTTPS. The real times are the wall clock's, injected: a client "waits" by moving it, so a busy
// machine cannot stretch a retry "at once" into a wait, nor a wait into a longer one.

/** The wall clock bvs-mock reads request times from; it stands still unless a client waits. */
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

const create = (token = bvs.apiKey) =>
  bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tin: SCENARIOS.happyNoPartners.tin, country: 'CL' }),
  });
const list = (token = bvs.apiKey) => bvs.fetch(`${bvs.url}/api/v2/webhook_endpoints`, { headers: { authorization: `Bearer ${token}` } });
const findings = async () => (await bvs.control.report()).client_behaviour.findings;

test('a client that ignores Retry-After is named in the report with the two request times; one that waits passes', async () => {
  await bvs.control.addFault({ kind: 'api_error', code: 'rate_limited', retry_after: 1, count: 1, path: '/api/v2/entity_validations' });
  const limitedAt = new Date(wall).toISOString();
  const limited = await create();
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('1');
  wait(400);
  expect((await create()).status).toBe(201);
  const [finding] = await findings();
  expect(finding).toMatchObject({ check: 'retry-after', outcome: 'fail' });
  expect(finding!.rule).toContain('Retry-After');
  const [first, second] = finding!.evidence;
  expect([first!.at, second!.at]).toEqual([limitedAt, new Date(Date.parse(limitedAt) + 400).toISOString()]);
  expect(finding!.message).toBe(
    `ignored Retry-After: 1: request ${first!.request_id} at ${first!.at} was answered 429, and request ${second!.request_id} came at ${second!.at}, 0.400 s later`,
  );
  const junit = await bvs.control.report('junit');
  expect(junit).toContain('type="retry-after"');
  expect(junit).toContain(first!.request_id);

  await bvs.control.reset();
  await bvs.control.addFault({ kind: 'api_error', code: 'rate_limited', retry_after: 1, count: 1 });
  expect((await create()).status).toBe(429);
  wait(1_000);
  expect((await create()).status).toBe(201);
  expect(await findings()).toEqual([
    expect.objectContaining({ check: 'retry-after', outcome: 'pass', message: 'waited 1.000 s after a 429 with Retry-After: 1' }),
  ]);
});

test('after 5xx answers, retrying at once fails; retrying with growing gaps passes; not retrying is giving up cleanly', async () => {
  await bvs.control.addFault({ kind: 'api_error', code: 'internal_error', count: 2, path: '/api/v2/webhook_endpoints' });
  expect((await list()).status).toBe(500);
  expect((await list()).status).toBe(500);
  expect((await list()).status).toBe(200);
  expect(await findings()).toEqual([expect.objectContaining({ check: 'backoff', outcome: 'fail', message: expect.stringMatching(/^retried at once/) })]);

  await bvs.control.reset();
  await bvs.control.addFault({ kind: 'api_error', code: 'service_unavailable', count: 2, path: '/api/v2/webhook_endpoints' });
  expect((await list()).status).toBe(503);
  wait(150);
  expect((await list()).status).toBe(503);
  wait(300);
  expect((await list()).status).toBe(200);
  const [graded] = await findings();
  expect(graded).toMatchObject({
    check: 'backoff',
    outcome: 'pass',
    message: expect.stringContaining('/api/v2/webhook_endpoints: 0.150 s, 0.300 s between attempts'),
  });
  expect(graded!.evidence).toHaveLength(3);

  await bvs.control.reset();
  await bvs.control.addFault({ kind: 'api_error', code: 'internal_error', count: 1 });
  expect((await create()).status).toBe(500);
  expect(await findings()).toEqual([expect.objectContaining({ check: 'backoff', outcome: 'pass', message: expect.stringMatching(/^gave up cleanly/) })]);
});

test('a reset connection gets no answer at all; the retry after it is graded like a 5xx', async () => {
  await bvs.control.addFault({ kind: 'api_reset', count: 1, path: '/api/v2/webhook_endpoints' });
  await expect(list()).rejects.toThrow();
  wait(150);
  expect((await list()).status).toBe(200);
  expect(await findings()).toEqual([expect.objectContaining({ check: 'backoff', outcome: 'pass' })]);
});

test('a token revoked before its expiry: renewing passes, sending it again fails; neither is a contract violation', async () => {
  const token = async () => {
    const answer = await bvs.fetch(`${bvs.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: bvs.oauthClient.clientId, client_secret: bvs.oauthClient.clientSecret }),
    });
    return ((await answer.json()) as { access_token: string }).access_token;
  };
  let current = await token();
  await bvs.control.addFault({ kind: 'token_revoked', count: 1 });
  const revoked = await list(current);
  expect(revoked.status).toBe(401);
  expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
  current = await token();
  expect((await list(current)).status).toBe(200);
  expect(await findings()).toEqual([expect.objectContaining({ check: 'token-renewal', outcome: 'pass' })]);
  expect((await bvs.control.report()).violations.issues).toBe(0);

  await bvs.control.reset();
  const looping = await token();
  await bvs.control.addFault({ kind: 'token_revoked', count: 1 });
  expect((await list(looping)).status).toBe(401);
  expect((await list(looping)).status).toBe(401);
  expect(await findings()).toEqual([
    expect.objectContaining({ check: 'token-renewal', outcome: 'fail', message: expect.stringMatching(/^sent the refused token again/) }),
  ]);
});

test('more than the documented rate while faults are on is a finding; the same burst without faults is not graded', async () => {
  for (let index = 0; index < 12; index += 1) await list();
  expect(await findings()).toEqual([]);
  await bvs.control.addFault({ kind: 'api_latency', ms: 1, path: '/api/v2/none' });
  for (let index = 0; index < 12; index += 1) await list();
  const report = await bvs.control.report();
  expect(report.client_behaviour.max_requests_per_second).toBe(10);
  expect(report.client_behaviour.note).toContain('real time');
  expect(report.client_behaviour.findings).toEqual([
    expect.objectContaining({ check: 'rate', outcome: 'fail', message: expect.stringMatching(/^sent 11 requests within one second/) }),
  ]);
});

test('a retry answered by another fault is still a retry: a 503 then a 429 one millisecond later fails backoff (it passed: a retry answered 429 was not counted, so the grade saw one gap of a second, or none and "gave up cleanly")', async () => {
  await bvs.control.addFault({ kind: 'api_error', code: 'service_unavailable', count: 1, path: '/api/v2/entity_validations' });
  await bvs.control.addFault({ kind: 'api_error', code: 'rate_limited', retry_after: 1, count: 1, path: '/api/v2/entity_validations' });
  expect((await create()).status).toBe(503);
  wait(1);
  expect((await create()).status).toBe(429);
  wait(1_000);
  expect((await create()).status).toBe(201);
  const backoff = (await findings()).filter((finding) => finding.check === 'backoff');
  expect(backoff).toEqual([expect.objectContaining({ outcome: 'fail', message: expect.stringMatching(/^retried at once \(0\.001 s after a failure/) })]);
  expect(backoff[0]!.evidence).toHaveLength(2);
});
