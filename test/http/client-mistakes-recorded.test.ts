import { useTestServer } from '../support/api-test-server';

// The mistakes a client makes beyond its bodies are violations too (docs/fidelity.md row 82): no
// credential, another scheme, an unknown or expired token, a missing scope, a wrong content type, plain
// HTTP. They used to be answered but never recorded, so the report said a client that sent no
// Authorization header at all had broken nothing.

const t = useTestServer();

interface Report {
  violations: {
    violating_requests: number;
    issues: number;
    requests: Array<{ path: string; status: number; violations: Array<{ path: string; code: string; message: string }> }>;
  };
}

const report = async () => (await t.call('/_mock/report')).json<Report>().violations;

test('authentication mistakes are recorded as violations, at the Authorization header, naming the rule of the spec', async () => {
  await t.call('/api/v2/webhook_endpoints');
  await t.call('/api/v2/webhook_endpoints', { headers: { authorization: 'Basic dGVzdDp0ZXN0' } });
  await t.call('/api/v2/webhook_endpoints', { headers: { authorization: 'Bearer nobody' } });
  const token = (
    await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret', scope: 'validations:read' })
  ).json<{
    access_token: string;
  }>().access_token;
  await t.call('/api/v2/webhook_endpoints', { headers: { authorization: `Bearer ${token}` } });
  await t.advance(7200);
  await t.call('/api/v2/entity_validations/evl_x', { headers: { authorization: `Bearer ${token}` } });
  const violations = await report();
  expect(violations.requests.map((request) => [request.status, request.violations.map((violation) => [violation.path, violation.code])])).toEqual([
    [401, [['$headers["authorization"]', 'unauthorized']]],
    [401, [['$headers["authorization"]', 'invalid_token']]],
    [401, [['$headers["authorization"]', 'invalid_token']]],
    [403, [['$headers["authorization"]', 'insufficient_scope']]],
    [401, [['$headers["authorization"]', 'token_expired']]],
  ]);
  for (const request of violations.requests) expect(request.violations[0]!.message).toMatch(/spec §5/);
});

test('a wrong content type is recorded at the Content-Type header', async () => {
  await t.call('/api/v2/entity_validations', {
    method: 'POST',
    headers: { authorization: 'Bearer test_key_default', 'content-type': 'text/plain' },
    body: '{}',
  });
  const violations = await report();
  expect(violations.requests.map((request) => request.violations.map((violation) => [violation.path, violation.code]))).toEqual([
    [['$headers["content-type"]', 'unsupported_media_type']],
  ]);
});

test('violations are counted by request and by issue separately: one body with two problems is one request and two issues', async () => {
  await t.json('POST', '/api/v2/entity_validations', { tin: '', country: 'chile' }, { authorization: 'Bearer test_key_default' });
  await t.call('/api/v2/webhook_endpoints');
  const violations = await report();
  expect([violations.violating_requests, violations.issues]).toEqual([2, 3]);
});
