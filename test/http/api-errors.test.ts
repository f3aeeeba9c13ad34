import { OAuthTokenResponse } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, expectApiError, useTestServer } from '../support/api-test-server';
import { concreteRoutes, seedResources, type ConcreteRoute, type ResourceIds } from '../support/route-fixtures';

// Error paths of the API: each with its status, its code and the one error shape (docs/fidelity.md row 25).

const t = useTestServer({}, { reset: false });
let ids: ResourceIds;
let apiRoutes: ConcreteRoute[];
const BAD_IDS = { validation: 'evl_missing', batch: 'dsrb_missing', run: 'dsr_missing', informationRequest: 'irq_missing' };

beforeAll(async () => {
  ids = await seedResources(t);
  apiRoutes = concreteRoutes(ids).filter((route) => route.access === 'api');
});

const CREATE = '/api/v2/entity_validations';
const auth = bearer(DEFAULT_API_KEY);

/** Sends a body that passes the route's own checks where it has any, so only the credential is in question. */
function callApi(route: ConcreteRoute, headers: Record<string, string | undefined>) {
  const body =
    route.method === 'POST'
      ? route.operation === 'addStakeholders'
        ? { stakeholders: [{ tin: '1-9', category: 'person', name: 'A' }] }
        : { tin: '76920415-6', country: 'CL' }
      : undefined;
  return route.method === 'POST' ? t.json('POST', route.path, body, headers) : t.call(route.path, { method: route.method, headers });
}

const CREDENTIAL_CASES: Array<[string, number, 'unauthorized' | 'invalid_token', Record<string, string>]> = [
  ['no Authorization header', 401, 'unauthorized', {}],
  ['an empty Authorization header', 401, 'unauthorized', { authorization: '' }],
  ['"Token abc"', 401, 'invalid_token', { authorization: 'Token abc' }],
  ['"Bearer" alone', 401, 'invalid_token', { authorization: 'Bearer' }],
  ['"Bearer a b"', 401, 'invalid_token', { authorization: 'Bearer a b' }],
  ['Basic credentials', 401, 'invalid_token', { authorization: `Basic ${Buffer.from('default_client:default_secret').toString('base64')}` }],
  ['an unknown token', 401, 'invalid_token', { authorization: 'Bearer not_a_key_of_this_server' }],
];

test.each(CREDENTIAL_CASES)('%s answers %i %s on every API operation', async (_label, status, code, headers) => {
  for (const route of apiRoutes) {
    const answer = await callApi(route, headers);
    expectApiError(answer, status, code);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="bvs-mock"/);
  }
});

test('a token without the scope an operation needs answers 403 insufficient_scope on every operation that needs it', async () => {
  const { access_token } = OAuthTokenResponse.parse(
    (await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret', scope: 'webhook_endpoints:read' })).json(),
  );
  for (const route of apiRoutes.filter((candidate) => candidate.operation !== 'listWebhookEndpoints')) {
    expectApiError(await callApi(route, bearer(access_token)), 403, 'insufficient_scope');
  }
});

test.each([
  ['getEntityValidation', `/api/v2/entity_validations/${BAD_IDS.validation}`],
  ['getDataSourceRunRecords', `/api/v2/data_source_runs/${BAD_IDS.run}/records`],
  ['getDataSourceRunBatch', `/api/v2/data_source_run_batches/${BAD_IDS.batch}`],
  ['getFormation', `/api/v2/entity_validations/${BAD_IDS.validation}/formation`],
  ['getInformationRequest', `/api/v2/information_requests/${BAD_IDS.informationRequest}`],
])('%s of an unknown id answers 404 not_found naming the id', async (_operation, path) => {
  const error = expectApiError(await t.get(path), 404, 'not_found');
  expect(error.message).toMatch(/_missing/);
});

test.each([
  ['generateConsolidatedReport', `/api/v2/data_source_run_batches/${BAD_IDS.batch}/consolidated_report`, undefined],
  ['addStakeholders', `/api/v2/entity_validations/${BAD_IDS.validation}/stakeholders`, { stakeholders: [{ tin: '1-9', category: 'person', name: 'A' }] }],
])('%s on an unknown id answers 404 not_found', async (_operation, path, body) => {
  expectApiError(await t.json('POST', path, body, auth), 404, 'not_found');
});

test.each([
  ['no Content-Type', undefined],
  ['text/plain', 'text/plain'],
  ['form encoding', 'application/x-www-form-urlencoded'],
])('POST entity_validations with %s answers 415 unsupported_media_type', async (_label, type) => {
  const answer = await t.call(CREATE, {
    method: 'POST',
    headers: { ...auth, 'content-type': type },
    body: JSON.stringify({ tin: '76920415-6', country: 'CL' }),
  });
  const error = expectApiError(answer, 415, 'unsupported_media_type');
  expect(error.message).toContain('application/json');
});

test('POST entity_validations accepts application/json with a charset parameter', async () => {
  const answer = await t.call(CREATE, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ tin: '76920415-6', country: 'CL' }),
  });
  expect(answer.status).toBe(201);
});

test('malformed JSON answers 400 malformed_json with the parser position', async () => {
  const answer = await t.call(CREATE, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"tin": "76920415-6", "country": ' });
  const error = expectApiError(answer, 400, 'malformed_json');
  expect(error.message).toMatch(/JSON/);
});

test('an empty body answers 400 invalid_request', async () => {
  expectApiError(await t.call(CREATE, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' } }), 400, 'invalid_request');
});

test.each([
  ['an array', []],
  ['a string', 'tin'],
  ['null', null],
])('a body that is %s answers 422 validation_failed at $', async (_label, body) => {
  const error = expectApiError(await t.json('POST', CREATE, body, auth), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path)).toEqual(['$']);
});

test('validation errors answer 422 with one issue per problem at its JSON path, in the wrapped form', async () => {
  const body = {
    entity_validation: {
      tin: '',
      country: 'cl',
      contact_email: 'nope',
      webhook_url: 'http://127.0.0.1:9/hooks',
      information_request: { template_id: 'tpl_1' },
    },
  };
  const error = expectApiError(await t.json('POST', CREATE, body, auth), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path).sort()).toEqual([
    '$.entity_validation.contact_email',
    '$.entity_validation.country',
    '$.entity_validation.information_request.template_id',
    '$.entity_validation.tin',
    '$.entity_validation.webhook_url',
  ]);
  expect(error.issues.find((issue) => issue.path === '$.entity_validation.webhook_url')!.message).toMatch(/https/);
  expect(error.issues.find((issue) => issue.path === '$.entity_validation.country')!.message).toMatch(/upper-case/);
});

test('missing tin and country answer 422 with both paths at the top level', async () => {
  const error = expectApiError(await t.json('POST', CREATE, { contact_email: 'ops@client.example.com' }, auth), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path).sort()).toEqual(['$.country', '$.tin']);
});

test('an http:// webhook_url is refused with 422 at $.webhook_url (HTTPS only in the legacy model)', async () => {
  const error = expectApiError(
    await t.json('POST', CREATE, { tin: '76920415-6', country: 'CL', webhook_url: 'http://127.0.0.1:9/hooks' }, auth),
    422,
    'validation_failed',
  );
  expect(error.issues).toEqual([expect.objectContaining({ path: '$.webhook_url' })]);
});

test('an unknown X-Mock-Scenario answers 400 invalid_request pointing at the header', async () => {
  const error = expectApiError(
    await t.json('POST', CREATE, { tin: '76920415-6', country: 'CL' }, { ...auth, 'x-mock-scenario': 'no-such-scenario' }),
    400,
    'invalid_request',
  );
  expect(error.message).toContain('no-such-scenario');
  expect(error.issues[0]!.path).toContain('x-mock-scenario');
});

test('X-Mock-Scenario picks a scenario by name whatever the TIN', async () => {
  const created = await t.create({ tin: '11222333-4', country: 'CL' }, { scenario: 'happy-partners' });
  await t.runClock();
  const validation = (await t.get(`/api/v2/entity_validations/${created.id}`)).json<{ related_entities: unknown[] }>();
  expect(validation.related_entities).toHaveLength(3);
});

test.each([
  ['GET', '/api/v2/nothing_here'],
  ['GET', '/api/v1/entity_validations'],
  ['GET', '/api/v2/webhook_endpoints/extra'],
  ['POST', '/'],
])('%s %s answers 404 route_not_found', async (method, path) => {
  const error = expectApiError(await t.call(path, { method, headers: auth }), 404, 'route_not_found');
  expect(error.message).toContain('/openapi.json');
});

test.each([
  ['DELETE', '/api/v2/entity_validations', 'POST'],
  ['GET', '/api/v2/entity_validations', 'POST'],
  ['PUT', `/api/v2/entity_validations/evl_x`, 'GET'],
  ['POST', '/api/v2/webhook_endpoints', 'GET'],
  ['DELETE', '/_mock/clock', 'GET'],
])('%s %s answers 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
  const answer = await t.call(path, { method, headers: auth });
  expectApiError(answer, 405, 'method_not_allowed');
  expect(answer.headers.allow).toBe(allow);
});

test("GET /oauth/token answers 405 with Allow: POST, in the token endpoint's RFC 6749 error form", async () => {
  const answer = await t.call('/oauth/token', { headers: auth });
  expect([answer.status, answer.headers.allow]).toEqual([405, 'POST']);
  expect(answer.json()).toEqual({ error: 'invalid_request', error_description: 'GET is not allowed on /oauth/token; use POST.' });
});
