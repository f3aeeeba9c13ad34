import { mockParts } from '../../src/mock/create-mock';
import { allRoutes } from '../../src/http';
import { EntityValidation, Formation } from '../../src/schemas';
import { bearer, expectApiError, startTestServer, useTestServer } from '../support/api-test-server';
import { CL_FORMATION, HAPPY_PARTNERS } from '../support/built-in-tins';

// Regression: the control API (/_mock/*) answered anyone who reached the port, so a container on
// 0.0.0.0 let any neighbour reset it, move its clock or read its journal. `--control-token` locks it
// (like WireMock's --admin-api-basic-auth); health, pre-signed files and the recipient page stay open.

const TOKEN = 'ctl_7f3a9c2e5b1d4f60';

const t = useTestServer({ controlToken: TOKEN }, { reset: false });

/** A control call with the right token. */
const control = (method: string, path: string, body?: unknown) => t.json(method, path, body, bearer(TOKEN));

/** Control routes that must stay reachable without the token: readiness probes, the control API's document and the certificate (no secret in them). */
const OPEN = new Set(['control.health', 'control.document.json', 'control.document.yaml', 'control.certificate']);

const lockedRoutes = allRoutes().filter((route) => route.access.kind === 'control' && !OPEN.has(route.operation));

test.each([
  ['no Authorization header', {}],
  ['a wrong token of the same length', bearer(TOKEN.replace(/.$/, TOKEN.endsWith('0') ? '1' : '0'))],
  ['a wrong token of another length', bearer('nope')],
  ['the default API key', bearer('test_key_default')],
  ['a Basic credential', { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }],
])('every locked control route answers 401 unauthorized to %s', async (_label, headers: Record<string, string>) => {
  expect(lockedRoutes.length).toBeGreaterThan(10);
  for (const route of lockedRoutes) {
    const path = route.pattern.replace(/:\w+/g, 'x');
    const answer = await t.call(path, {
      method: route.method,
      headers: { 'content-type': 'application/json', ...headers },
      body: route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}',
    });
    if (answer.status !== 401) throw new Error(`${route.method} ${route.pattern}: expected 401, got ${answer.status} ${answer.text().slice(0, 200)}`);
    expectApiError(answer, 401, 'unauthorized');
  }
});

test('the 401 names the header and the flag, and never echoes the token', async () => {
  const answer = await t.json('POST', '/_mock/reset', undefined, bearer('wrong_token'));
  const error = expectApiError(answer, 401, 'unauthorized');
  expect(error.message).toContain('Authorization: Bearer <token>');
  expect(error.message).toContain('--control-token');
  expect(error.message).toContain('BVS_MOCK_CONTROL_TOKEN');
  expect(answer.text()).not.toContain(TOKEN);
  expect(answer.headers['www-authenticate']).toMatch(/^Bearer /);
});

test('control calls without, with a wrong and with the right token answer 401, 401 and 200', async () => {
  const statuses = [
    await t.call('/_mock/clock'),
    await t.call('/_mock/clock', { headers: bearer(`${TOKEN}x`) }),
    await t.call('/_mock/clock', { headers: bearer(TOKEN) }),
  ].map((answer) => answer.status);
  expect(statuses).toEqual([401, 401, 200]);
  expect((await control('POST', '/_mock/reset')).status).toBe(200);
  expect((await control('PATCH', '/_mock/organizations/default/settings', { child_batches_ready: true })).status).toBe(200);
});

test('a refused control call changes nothing: the clock stays where it was', async () => {
  const before = (await control('GET', '/_mock/clock')).json<{ now: string }>().now;
  expect((await t.json('POST', '/_mock/clock/advance', { seconds: 3600 })).status).toBe(401);
  expect((await control('GET', '/_mock/clock')).json<{ now: string }>().now).toBe(before);
});

test('a wrong organization_id without the token answers 401, so organization names do not leak', async () => {
  expectApiError(await t.call('/_mock/requests?organization_id=no_such_organization'), 401, 'unauthorized');
});

test('GET /_mock/health answers 200 without the token', async () => {
  const answer = await t.call('/_mock/health');
  expect(answer.status).toBe(200);
  expect(answer.json()).toMatchObject({ status: 'ok' });
});

test('the API answers with its own credentials, unaffected by the lock', async () => {
  const created = await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' }, bearer('test_key_default'));
  expect(created.status).toBe(201);
  expect((await t.get('/api/v2/webhook_endpoints')).status).toBe(200);
  expectApiError(await t.get('/api/v2/webhook_endpoints', TOKEN), 401, 'invalid_token');
});

test('OpenAPI documents stay open (they are not under /_mock)', async () => {
  expect((await t.call('/openapi.json')).status).toBe(200);
  expect((await t.call('/openapi.yaml')).status).toBe(200);
});

test('a pre-signed file URL and the recipient page work without the token', async () => {
  const created = await t.create({ tin: CL_FORMATION, country: 'CL', information_request: { template_id: 'irt_locked' } });
  expect((await control('POST', '/_mock/clock/run')).status).toBe(200);
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  const formation = Formation.parse((await t.get(`/api/v2/entity_validations/${created.id}/formation`)).json());
  const report = await t.call(validation.data_source_run_batches[0]!.consolidated_report_url!);
  expect(report.status).toBe(200);
  expect(report.headers['content-type']).toBe('application/pdf');
  expect((await t.call(formation.legal_report_url)).status).toBe(200);
  const page = await t.call(`/_mock/recipient/${validation.information_requests[0]!.id}`);
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
});

test('without a control token the control API needs no header', async () => {
  const open = await startTestServer();
  try {
    expect((await open.call('/_mock/clock')).status).toBe(200);
    expect((await open.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
    expect(mockParts(open.server).server.controlToken).toBeNull();
  } finally {
    await open.close();
  }
});

test.each([[''], ['two words'], ['tab\there']])('a control token %j stops start-up with a message naming the flag', async (token) => {
  await expect(startTestServer({ controlToken: token })).rejects.toThrow(
    /--control-token, BVS_MOCK_CONTROL_TOKEN\) must be printable characters without spaces/,
  );
});
