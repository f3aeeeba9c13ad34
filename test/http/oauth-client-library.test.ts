import { Agent } from 'node:https';
import { ClientCredentials } from 'simple-oauth2';
import { useTestServer } from '../support/api-test-server';

// The token endpoint as OAuth client libraries speak to it: simple-oauth2, a maintained client from npm,
// with its default client authentication (HTTP Basic, client_secret_basic) and with the form
// (client_secret_post), then the token on the API; a wrong secret surfaces as the RFC's invalid_client.
// (bvs-mock used to refuse HTTP Basic with 422 and to answer errors in the API's own shape.)

const t = useTestServer();

function client(authorizationMethod: 'header' | 'body', secret = 'default_secret'): ClientCredentials {
  return new ClientCredentials({
    client: { id: 'default_client', secret },
    auth: { tokenHost: t.server.url, tokenPath: '/oauth/token' },
    options: { authorizationMethod },
  });
}

const trusting = () => ({ agent: new Agent({ ca: t.server.certificate ?? undefined }) });

test.each(['header', 'body'] as const)('simple-oauth2 with authorizationMethod %s gets a token that works on the API', async (method) => {
  const token = await client(method).getToken({ scope: 'validations:read webhook_endpoints:read' }, trusting());
  expect(token.token).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'validations:read webhook_endpoints:read' });
  expect(token.expired()).toBe(false);
  const answer = await t.get('/api/v2/webhook_endpoints', String(token.token.access_token));
  expect(answer.status).toBe(200);
});

test('simple-oauth2 surfaces a wrong secret as RFC 6749 invalid_client with status 401', async () => {
  const failure = await client('header', 'wrong')
    .getToken({}, trusting())
    .then(
      () => undefined,
      (error: { output?: { statusCode: number }; data?: { payload?: unknown } }) => error,
    );
  expect(failure?.output?.statusCode).toBe(401);
  expect(failure?.data?.payload).toEqual({ error: 'invalid_client', error_description: expect.stringContaining('client_secret') });
});

test('simple-oauth2 surfaces a scope the client lacks as 400 invalid_scope', async () => {
  const failure = await client('body')
    .getToken({ scope: 'admin' }, trusting())
    .then(
      () => undefined,
      (error: { output?: { statusCode: number }; data?: { payload?: unknown } }) => error,
    );
  expect(failure?.output?.statusCode).toBe(400);
  expect(failure?.data?.payload).toMatchObject({ error: 'invalid_scope' });
});
