import { DOCUMENTED_API_OPERATIONS, apiOperations } from '../../src/api/routes/api-operations';
import { buildOpenApiDocument } from '../../src/openapi';
import { documentPath, errorsOf } from '../../src/openapi/register-routes';
import { API_ERROR_STATUS, ApiError, OAuthError } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, useTestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

// The document is built from the routes: each route declares its body, answer and errors beside its
// handler. These tests provoke the errors a client meets on every operation and check that each one
// answered is one the document lists for that operation (the two tables used to drift: the create call
// answered 400 invalid_request, which its documented 400 did not list, and service_unavailable, the
// default injected fault, was on no operation).

const document = buildOpenApiDocument();
const t = useTestServer();

it('the operations the contract report counts are exactly the documented ones, in the document order', () => {
  const documented = Object.values(document.paths ?? {}).flatMap((item) =>
    Object.values(item as Record<string, { operationId?: string }>).map((operation) => operation.operationId),
  );
  expect(DOCUMENTED_API_OPERATIONS).toEqual(documented);
});

/** The error codes the document lists for an operation, read from its response descriptions ("Error: a, b."). */
function documentedCodes(method: string, pattern: string): Map<string, string> {
  const operation = (document.paths?.[documentPath(pattern)] as Record<string, { responses: Record<string, { description: string }> }>)[method.toLowerCase()];
  const codes = new Map<string, string>();
  for (const [status, response] of Object.entries(operation!.responses)) {
    // "Error: a, b." or, on the token endpoint, "Error: a, b. RFC 6749 error: x, y."
    const listed = /^Error: ([^.]*)\.(?: RFC 6749 error: ([^.]*)\.)?$/.exec(response.description);
    for (const code of listed?.[1]?.split(', ') ?? []) codes.set(code, status);
    for (const error of listed?.[2]?.split(', ') ?? []) codes.set(`rfc6749:${error}`, status);
  }
  return codes;
}

/** A concrete path for a route pattern, with an id of the right prefix that does not exist. */
function concrete(pattern: string): string {
  const prefix = /\/entity_validations\/:id/.test(pattern) ? 'evl' : /batches\/:id/.test(pattern) ? 'dsrb' : /runs\/:id/.test(pattern) ? 'dsr' : 'irq';
  return pattern.replace(':id', `${prefix}_doesnotexist`);
}

const documented = apiOperations.filter((route) => route.document !== undefined);

test('every operation of the API declares its document beside its handler', () => {
  expect(documented.map((route) => route.operation)).toEqual(apiOperations.map((route) => route.operation));
});

test('the create call documents the 400 invalid_request it answers for an empty body or an unknown scenario', async () => {
  const empty = await t.call('/api/v2/entity_validations', { method: 'POST', headers: { ...bearer(DEFAULT_API_KEY), 'content-type': 'application/json' } });
  expect([empty.status, ApiError.parse(empty.json()).error.code]).toEqual([400, 'invalid_request']);
  const unknown = await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' }, { ...bearer(DEFAULT_API_KEY), 'x-mock-scenario': 'nope' });
  expect([unknown.status, ApiError.parse(unknown.json()).error.code]).toEqual([400, 'invalid_request']);
  expect(documentedCodes('POST', '/api/v2/entity_validations').get('invalid_request')).toBe('400');
});

test.each(documented.map((route) => [`${route.method} ${route.pattern}`, route] as const))(
  '%s: the errors it answers (no credential, injected fault, unknown id, bad body) are the ones its document lists',
  async (_name, route) => {
    const path = concrete(route.pattern);
    const body = route.document?.body?.contentType === 'application/x-www-form-urlencoded' ? 'grant_type=client_credentials' : '{"unexpected": true}';
    const contentType = route.document?.body?.contentType ?? 'application/json';
    const answered = new Set<string>();
    const ask = async (headers: Record<string, string>) => {
      const answer = await t.call(path, { method: route.method, headers: { 'content-type': contentType, ...headers }, body: route.method === 'GET' ? undefined : body });
      if (answer.status >= 400) {
        if (route.errorForm === 'oauth2') answered.add(`rfc6749:${OAuthError.parse(answer.json()).error}`);
        else answered.add(ApiError.parse(answer.json()).error.code);
      }
      return answer;
    };
    await ask({});
    await ask(bearer(DEFAULT_API_KEY));
    await ask({ ...bearer(DEFAULT_API_KEY), 'content-type': 'text/plain' });
    expect((await t.json('POST', '/_mock/faults', { kind: 'api_error', count: 1 })).status).toBe(201);
    expect((await ask(bearer(DEFAULT_API_KEY))).status).toBe(503);
    const listed = documentedCodes(route.method, route.pattern);
    for (const code of answered) {
      expect({ code, listed: listed.has(code) }).toEqual({ code, listed: true });
      if (!code.startsWith('rfc6749:')) expect(listed.get(code)).toBe(String(API_ERROR_STATUS[code as keyof typeof API_ERROR_STATUS]));
    }
    expect(answered).toContain(route.errorForm === 'oauth2' ? 'rfc6749:temporarily_unavailable' : 'service_unavailable');
    expect(new Set([...listed.keys()].filter((code) => !code.startsWith('rfc6749:')))).toEqual(new Set(errorsOf(route)));
  },
);
