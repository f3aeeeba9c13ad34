import { DEFAULT_API_KEY, bearer, expectApiError, startTestServer, useTestServer } from '../support/api-test-server';

// Unknown fields are the one tolerable contract violation: recorded in GET /_mock/requests without
// --strict, refused with 422 with it (src/api/read-body.ts checkBody; CONTRIBUTING.md rule 3).

interface JournalEntry {
  id: string;
  method: string;
  path: string;
  operation: string | null;
  organization_id: string | null;
  status: number;
  violations: Array<{ path: string; code: string; message: string }>;
}

const t = useTestServer();

async function journal(query = ''): Promise<JournalEntry[]> {
  const answer = await t.call(`/_mock/requests${query}`);
  expect(answer.status).toBe(200);
  return answer.json<{ requests: JournalEntry[] }>().requests;
}

const CREATE = '/api/v2/entity_validations';

test.each([
  [
    'at the top level',
    { tin: '76920415-6', country: 'CL', nickname: 'x', information_request: { template_id: 'irt_1', color: 'blue' } },
    ['$.information_request.color', '$.nickname'],
  ],
  ['wrapped', { entity_validation: { tin: '76920415-6', country: 'CL', nickname: 'x' } }, ['$.entity_validation.nickname']],
  ['beside the wrapper', { entity_validation: { tin: '76920415-6', country: 'CL' }, extra: 1 }, ['$.extra']],
])('unknown fields %s are tolerated (201) and recorded in the journal with their paths', async (_label, body, paths) => {
  const answer = await t.json('POST', CREATE, body, bearer(DEFAULT_API_KEY));
  expect(answer.status).toBe(201);
  const entry = (await journal('?violations=true')).find((candidate) => candidate.id === answer.headers['x-request-id']);
  expect(entry).toMatchObject({ method: 'POST', path: CREATE, operation: 'createEntityValidation', organization_id: 'default', status: 201 });
  expect(entry!.violations.map((violation) => violation.path).sort()).toEqual(paths);
  expect(entry!.violations.every((violation) => violation.code === 'unknown_field')).toBe(true);
});

test('an unknown form field of the token request is ignored, as RFC 6749 §3.2 requires, and recorded as no violation', async () => {
  const answer = await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret', audience: 'bvs' });
  expect(answer.status).toBe(200);
  expect(await journal('?violations=true')).toEqual([]);
});

test('the journal records refused requests with their violations, and not the control API calls', async () => {
  const refused = await t.call(CREATE, { method: 'POST', headers: { ...bearer(DEFAULT_API_KEY), 'content-type': 'text/plain' }, body: '{}' });
  expectApiError(refused, 415, 'unsupported_media_type');
  await t.get('/api/v2/webhook_endpoints');
  const entries = await journal();
  expect(entries.map((entry) => [entry.operation, entry.status, entry.violations.length])).toEqual([
    ['createEntityValidation', 415, 1],
    ['listWebhookEndpoints', 200, 0],
  ]);
  expect((await journal('?violations=true')).map((entry) => entry.id)).toEqual([refused.headers['x-request-id']]);
});

test('with strict: true unknown fields are refused with 422 validation_failed, one issue per field', async () => {
  const strict = await startTestServer({ strict: true });
  try {
    const body = { entity_validation: { tin: '76920415-6', country: 'CL', nickname: 'x', information_request: { template_id: 'irt_1', color: 'blue' } } };
    const error = expectApiError(await strict.json('POST', CREATE, body, bearer(DEFAULT_API_KEY)), 422, 'validation_failed');
    expect(error.issues.map((issue) => [issue.path, issue.code]).sort()).toEqual([
      ['$.entity_validation.information_request.color', 'unknown_field'],
      ['$.entity_validation.nickname', 'unknown_field'],
    ]);
    // The token endpoint ignores unknown parameters even so (RFC 6749 §3.2).
    const token = await strict.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret', audience: 'bvs' });
    expect(token.status).toBe(200);
    expect((await strict.json('POST', CREATE, { tin: '76920415-6', country: 'CL' }, bearer(DEFAULT_API_KEY))).status).toBe(201);
  } finally {
    await strict.close();
  }
});

test('without strict, an unknown field beside a real problem answers 422 with every issue', async () => {
  const error = expectApiError(
    await t.json('POST', CREATE, { tin: '76920415-6', country: 'chile', nickname: 'x' }, bearer(DEFAULT_API_KEY)),
    422,
    'validation_failed',
  );
  expect(error.issues.map((issue) => issue.path).sort()).toEqual(['$.country', '$.nickname']);
});

// Finding: read-body.ts withoutPaths() structuredClones the whole body to drop the unknown fields, and a
// deeply nested value (well under 1 MiB) overflows the stack there: the answer is 500 internal_error.
test('a deeply nested value in an unknown field is answered without a 5xx', async () => {
  const depth = 100_000;
  const body = `{"tin":"76920415-6","country":"CL","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  const answer = await t.call(CREATE, { method: 'POST', headers: { ...bearer(DEFAULT_API_KEY), 'content-type': 'application/json' }, body });
  expect(answer.status).toBeLessThan(500);
});

test('a deeply nested body that is refused anyway answers 422, and the server stays healthy', async () => {
  const depth = 100_000;
  const answer = await t.call(CREATE, {
    method: 'POST',
    headers: { ...bearer(DEFAULT_API_KEY), 'content-type': 'application/json' },
    body: `${'['.repeat(depth)}${']'.repeat(depth)}`,
  });
  expectApiError(answer, 422, 'validation_failed');
  expect((await t.call('/_mock/health')).status).toBe(200);
});

test('unknown fields with names that are not identifiers are stripped and recorded at their quoted paths, __proto__ included', async () => {
  const body =
    '{"tin":"76920415-6","country":"CL","odd.key":1,"quo\\"te":2,"__proto__":{"polluted":true},"ünï":3,"information_request":{"template_id":"irt_1","a b":4}}';
  const answer = await t.call(CREATE, { method: 'POST', headers: { ...bearer(DEFAULT_API_KEY), 'content-type': 'application/json' }, body });
  expect(answer.status).toBe(201);
  expect(answer.json()).toMatchObject({ tin: '76920415-6', country: 'CL' });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const entry = (await journal('?violations=true')).find((candidate) => candidate.id === answer.headers['x-request-id']);
  expect(entry!.violations.map((violation) => violation.path).sort()).toEqual([
    '$.__proto__',
    '$.information_request["a b"]',
    '$["odd.key"]',
    '$["quo\\"te"]',
    '$["ünï"]',
  ]);
});
