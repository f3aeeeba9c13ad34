import { OAuthTokenResponse } from '../../src/schemas';
import { bearer, expectApiError, startTestServer, type TestServer } from '../support/api-test-server';

// POST /oauth/token over HTTPS (spec §4, §5.4; docs/fidelity.md rows 19 and 20).

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});

afterAll(async () => {
  await t.close();
});

beforeEach(async () => {
  expect((await t.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
});

const CLIENT = { grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret' };

test('issues a Bearer token of 7200 seconds with every scope of the client, created_at in Unix seconds on the simulated clock', async () => {
  await t.advance(90);
  const answer = await t.token(CLIENT);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  const body = OAuthTokenResponse.parse(answer.json());
  const clock = (await t.call('/_mock/clock')).json<{ now: string }>();
  expect(body).toEqual({
    access_token: expect.any(String),
    token_type: 'Bearer',
    expires_in: 7200,
    scope: 'validations:read validations:write webhook_endpoints:read',
    created_at: Date.parse(clock.now) / 1000,
  });
  expect(Number.isInteger(body.created_at)).toBe(true);
});

test('grants only the scopes asked for, space-separated', async () => {
  const body = OAuthTokenResponse.parse((await t.token({ ...CLIENT, scope: 'validations:read webhook_endpoints:read' })).json());
  expect(body.scope).toBe('validations:read webhook_endpoints:read');
});

test('an access token works as a bearer credential on the API', async () => {
  const { access_token } = OAuthTokenResponse.parse((await t.token(CLIENT)).json());
  const answer = await t.get('/api/v2/webhook_endpoints', access_token);
  expect(answer.status).toBe(200);
  expect(answer.json()).toEqual({ webhook_endpoints: [] });
});

test('an access token still works 7199 simulated seconds after issue and answers 401 token_expired at 7200', async () => {
  const { access_token } = OAuthTokenResponse.parse((await t.token(CLIENT)).json());
  await t.advance(7199);
  expect((await t.get('/api/v2/webhook_endpoints', access_token)).status).toBe(200);
  await t.advance(1);
  const error = expectApiError(await t.get('/api/v2/webhook_endpoints', access_token), 401, 'token_expired');
  expect(error.message).toContain('POST /oauth/token');
});

test('a token with validations:read only is refused with 403 insufficient_scope on POST entity_validations', async () => {
  const { access_token } = OAuthTokenResponse.parse((await t.token({ ...CLIENT, scope: 'validations:read' })).json());
  const answer = await t.json('POST', '/api/v2/entity_validations', { tin: '76920415-6', country: 'CL' }, bearer(access_token));
  const error = expectApiError(answer, 403, 'insufficient_scope');
  expect(error.message).toContain('validations:write');
  expect(answer.headers['www-authenticate']).toContain('insufficient_scope');
  expect((await t.get('/api/v2/webhook_endpoints', access_token)).status).toBe(403);
});

test('a scope the client lacks or that does not exist is refused with 403 insufficient_scope', async () => {
  expectApiError(await t.token({ ...CLIENT, scope: 'validations:read admin' }), 403, 'insufficient_scope');
});

test.each([
  ['an unknown client_id', { ...CLIENT, client_id: 'nobody' }],
  ['a wrong client_secret', { ...CLIENT, client_secret: 'wrong' }],
])('%s answers 401 invalid_client', async (_label, fields) => {
  expectApiError(await t.token(fields), 401, 'invalid_client');
});

test('grant_type password answers 400 unsupported_grant_type with the path of the field', async () => {
  const error = expectApiError(await t.token({ ...CLIENT, grant_type: 'password' }), 400, 'unsupported_grant_type');
  expect(error.issues.map((issue) => issue.path)).toEqual(['$.grant_type']);
});

test('a token request sent as JSON answers 415 unsupported_media_type', async () => {
  expectApiError(await t.json('POST', '/oauth/token', CLIENT), 415, 'unsupported_media_type');
});

test('a token request without client credentials answers 422 with one issue per missing field', async () => {
  const error = expectApiError(await t.token({ grant_type: 'client_credentials' }), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path).sort()).toEqual(['$.client_id', '$.client_secret']);
});

test('a token request with a field given twice answers 400 invalid_request', async () => {
  const answer = await t.call('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=default_client&client_id=other&client_secret=default_secret',
  });
  const error = expectApiError(answer, 400, 'invalid_request');
  expect(error.issues).toEqual([expect.objectContaining({ path: '$.client_id', code: 'repeated_field' })]);
});

test('tokens are forgotten by POST /_mock/reset', async () => {
  const { access_token } = OAuthTokenResponse.parse((await t.token(CLIENT)).json());
  await t.call('/_mock/reset', { method: 'POST' });
  expectApiError(await t.get('/api/v2/webhook_endpoints', access_token), 401, 'invalid_token');
});
