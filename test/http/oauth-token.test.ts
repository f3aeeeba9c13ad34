import { BvsMockConfig, OAuthError, OAuthTokenResponse, type OAuthErrorCode } from '../../src/schemas';
import type { HttpAnswer } from '../support/https-client';
import { bearer, expectApiError, startTestServer, useTestServer } from '../support/api-test-server';

// POST /oauth/token over HTTPS (spec §4, §5.4; RFC 6749 §2.3.1, §5.1, §5.2; docs/fidelity.md rows 19, 20 and 69).

const t = useTestServer();

/** Checks a token endpoint error: RFC 6749 §5.2's `{ error, error_description }`, its status, never cached. */
function expectOAuthError(answer: HttpAnswer, status: number, error: OAuthErrorCode): string {
  const body = OAuthError.parse(answer.json());
  expect({ status: answer.status, error: body.error }).toEqual({ status, error });
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers.pragma).toBe('no-cache');
  return body.error_description;
}

/** `Authorization: Basic` of a client, each part form-encoded first (RFC 6749 §2.3.1). */
function basic(id: string, secret: string): Record<string, string> {
  const encode = (part: string) => encodeURIComponent(part).replace(/%20/g, '+');
  return { authorization: `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}` };
}

/** A form POST to the token endpoint with extra headers. */
function tokenWith(fields: Record<string, string>, headers: Record<string, string>): Promise<HttpAnswer> {
  return t.call('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const CLIENT = { grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret' };

test('issues a Bearer token of 7200 seconds with every scope of the client, created_at in Unix seconds on the simulated clock', async () => {
  await t.advance(90);
  const answer = await t.token(CLIENT);
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers.pragma).toBe('no-cache');
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

test('an unknown scope or one the client lacks is 400 invalid_scope (RFC 6749 §5.2), not 403 insufficient_scope', async () => {
  const description = expectOAuthError(await t.token({ ...CLIENT, scope: 'validations:read admin' }), 400, 'invalid_scope');
  expect(description).toContain('admin');
});

test.each([
  ['an unknown client_id', { ...CLIENT, client_id: 'nobody' }],
  ['a wrong client_secret', { ...CLIENT, client_secret: 'wrong' }],
])('%s answers 401 invalid_client with WWW-Authenticate: Basic', async (_label, fields) => {
  const answer = await t.token(fields);
  expectOAuthError(answer, 401, 'invalid_client');
  expect(answer.headers['www-authenticate']).toBe('Basic realm="bvs-mock"');
});

test('client_secret_basic (HTTP Basic client authentication) is accepted, not refused with 422', async () => {
  const answer = await tokenWith({ grant_type: 'client_credentials' }, basic('default_client', 'default_secret'));
  expect(answer.status).toBe(200);
  const { access_token } = OAuthTokenResponse.parse(answer.json());
  expect((await t.get('/api/v2/webhook_endpoints', access_token)).status).toBe(200);
});

test('under the reading token-client-auth=form-only, HTTP Basic alone is no client authentication (401 naming the reading) and the form still is', async () => {
  const formOnly = await startTestServer({ readings: { 'token-client-auth': 'form-only' } });
  try {
    const call = (body: string, headers: Record<string, string> = {}) =>
      formOnly.call('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    const refused = await call('grant_type=client_credentials', basic('default_client', 'default_secret'));
    expectOAuthError(refused, 401, 'invalid_client');
    expect(refused.json<{ error_description: string }>().error_description).toContain('token-client-auth=form-only');
    expect((await call('grant_type=client_credentials&client_id=default_client&client_secret=default_secret')).status).toBe(200);
    // The Basic header is not read at all: with the form's credentials beside it, it is not "two authentications".
    expect((await call('grant_type=client_credentials&client_id=default_client&client_secret=default_secret', basic('x', 'y'))).status).toBe(200);
  } finally {
    await formOnly.close();
  }
});

test('HTTP Basic decodes form-encoded parts, so a client id with a space and a secret with ":" work', async () => {
  const config = { organizations: [{ id: 'acme', api_keys: ['k'], oauth_clients: [{ client_id: 'acme client', client_secret: 's:e c+r%t' }] }] };
  const other = await startTestServer({ config: BvsMockConfig.parse(config) });
  try {
    const call = (headers: Record<string, string>) =>
      other.call('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: 'grant_type=client_credentials',
      });
    expect((await call(basic('acme client', 's:e c+r%t'))).status).toBe(200);
    expect((await call(basic('acme client', 's:e c+r'))).status).toBe(401);
  } finally {
    await other.close();
  }
});

test.each([
  ['a wrong secret', basic('default_client', 'wrong')],
  ['a value that is not base64 of id:secret', { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` }],
])('HTTP Basic with %s answers 401 invalid_client', async (_label, headers) => {
  const answer = await tokenWith({ grant_type: 'client_credentials' }, headers);
  expectOAuthError(answer, 401, 'invalid_client');
  expect(answer.headers['www-authenticate']).toBe('Basic realm="bvs-mock"');
});

test('another scheme in Authorization is not client authentication: the form credentials are read, and without them it is 401', async () => {
  expect((await tokenWith(CLIENT, { authorization: 'Bearer test_key_default' })).status).toBe(200);
  expectOAuthError(await tokenWith({ grant_type: 'client_credentials' }, { authorization: 'Bearer test_key_default' }), 401, 'invalid_client');
});

test('authenticating twice (HTTP Basic and client_id in the form) is 400 invalid_request', async () => {
  const description = expectOAuthError(await tokenWith(CLIENT, basic('default_client', 'default_secret')), 400, 'invalid_request');
  expect(description).toContain('one method');
});

test('token errors are RFC 6749 §5.2 {error, error_description}, not the API error object: grant_type password is unsupported_grant_type', async () => {
  const answer = await t.token({ ...CLIENT, grant_type: 'password' });
  const description = expectOAuthError(answer, 400, 'unsupported_grant_type');
  expect(description).toContain('client_credentials');
  expect(answer.json()).not.toHaveProperty('error.code');
});

test('a token request sent as JSON is 400 invalid_request saying which content type to send', async () => {
  expect(expectOAuthError(await t.json('POST', '/oauth/token', CLIENT), 400, 'invalid_request')).toContain('application/x-www-form-urlencoded');
});

test('a token request without grant_type is 400 invalid_request naming the parameter', async () => {
  expect(expectOAuthError(await t.token({ client_id: 'default_client', client_secret: 'default_secret' }), 400, 'invalid_request')).toContain('$.grant_type');
});

test('a token request without any client authentication is 401 invalid_client saying both ways to authenticate', async () => {
  const description = expectOAuthError(await t.token({ grant_type: 'client_credentials' }), 401, 'invalid_client');
  expect(description).toMatch(/client_id and client_secret.*Basic/);
});

test('unknown parameters are ignored, as RFC 6749 §3.2 requires', async () => {
  expect((await t.token({ ...CLIENT, audience: 'https://api.example.com', resource: 'x' })).status).toBe(200);
  const journal = (await t.call('/_mock/requests')).json<{ requests: Array<{ operation: string; violations: unknown[] }> }>();
  expect(journal.requests.filter((entry) => entry.operation === 'createOAuthToken').flatMap((entry) => entry.violations)).toEqual([]);
});

test('a token request with a field given twice answers 400 invalid_request naming the field', async () => {
  const answer = await t.call('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=default_client&client_id=other&client_secret=default_secret',
  });
  expect(expectOAuthError(answer, 400, 'invalid_request')).toContain('$.client_id');
});

test('a fault injected on the token endpoint is answered in the RFC form too (503 temporarily_unavailable)', async () => {
  expect((await t.json('POST', '/_mock/faults', { kind: 'api_error', path: '/oauth/token', count: 1 })).status).toBe(201);
  expectOAuthError(await t.token(CLIENT), 503, 'temporarily_unavailable');
  expect((await t.token(CLIENT)).status).toBe(200);
});

test('tokens are forgotten by POST /_mock/reset', async () => {
  const { access_token } = OAuthTokenResponse.parse((await t.token(CLIENT)).json());
  await t.call('/_mock/reset', { method: 'POST' });
  expectApiError(await t.get('/api/v2/webhook_endpoints', access_token), 401, 'invalid_token');
});
