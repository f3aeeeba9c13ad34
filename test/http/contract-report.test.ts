import { EVENT_TYPES } from '../../src/schemas';
import { useTestServer } from '../support/api-test-server';

const t = useTestServer({}, { reset: false });

interface Report {
  operations: { exercised: Record<string, number>; not_exercised: string[]; extensions: { exercised: Record<string, number>; not_exercised: string[] } };
  events: { emitted: Record<string, number>; not_emitted: string[]; deliveries: Record<string, Record<string, number>> };
  violations: {
    violating_requests: number;
    issues: number;
    requests: Array<{ path: string; status: number; violations: Array<{ path: string; code: string }> }>;
  };
}

test('the contract report lists operations and events exercised and not, and the violations found', async () => {
  await t.json('POST', '/api/v2/entity_validations', { tin: '76920415-6', country: 'CL', nickname: 'x' }, { authorization: 'Bearer test_key_default' });
  await t.get('/api/v2/entity_valdations');
  await t.get('/api/v2/webhook_endpoints');
  await t.runClock();
  const report = (await t.call('/_mock/report')).json<Report>();
  expect(report.operations.exercised).toEqual({ createEntityValidation: 1, listWebhookEndpoints: 1 });
  expect(report.operations.not_exercised).toEqual(expect.arrayContaining(['getEntityValidation', 'createOAuthToken']));
  expect(report.operations.not_exercised).not.toContain('createEntityValidation');
  // The paths of bvs-mock's choosing (x-bvs-mock-extension) are counted apart, never as a gap of the spec's operations.
  expect(report.operations.not_exercised).not.toContain('getFormation');
  expect(report.operations.extensions.not_exercised).toContain('getFormation');
  expect(report.events.emitted).toMatchObject({
    'data_source_run_batch.ready': 1,
    'data_source_run_batch.child_batches_ready': 1,
    'data_source_run_batch.data_source_run.ready': 8,
  });
  expect(report.events.not_emitted).toEqual(
    EVENT_TYPES.filter((type) => type.startsWith('information_request.') || type === 'entity_validation.formation.ready'),
  );
  expect([report.violations.violating_requests, report.violations.issues]).toEqual([2, 2]);
  expect(report.violations.requests.map((request) => [request.path, request.status, request.violations.map((violation) => violation.code)])).toEqual([
    ['/api/v2/entity_validations', 201, ['unknown_field']],
    ['/api/v2/entity_valdations', 404, ['route_not_found']],
  ]);
});

test("a call of an extension path is counted among the extensions, in JSON and Markdown, and not among the spec's operations", async () => {
  await t.call('/_mock/reset', { method: 'POST' });
  const created = await t.create({ tin: '76920415-6', country: 'CL' });
  await t.runClock();
  expect((await t.get(`/api/v2/data_source_run_batches/${created.data_source_run_batches[0]!.id}`)).status).toBe(200);
  const report = (await t.call('/_mock/report')).json<Report>();
  expect(report.operations.extensions.exercised).toEqual({ getDataSourceRunBatch: 1 });
  expect(Object.keys(report.operations.exercised)).toEqual(['createEntityValidation']);
  const markdown = (await t.call('/_mock/report?format=markdown')).text();
  expect(markdown).toMatch(/## Extension operations called \(paths of bvs-mock's choosing: the real service may not have them\)\n\n- getDataSourceRunBatch\n/);
});

test('the report starts empty again after a reset', async () => {
  await t.call('/_mock/reset', { method: 'POST' });
  const report = (await t.call('/_mock/report')).json<Report>();
  expect(report.operations.exercised).toEqual({});
  expect(report.events.emitted).toEqual({});
  expect(report.violations).toEqual({ violating_requests: 0, issues: 0, requests: [] });
});

test('the journal records a request under the organization of its credential, and a refused token request under none', async () => {
  await t.call('/_mock/reset', { method: 'POST' });
  await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret' });
  await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'wrong' });
  await t.get('/api/v2/webhook_endpoints');
  const { requests } = (await t.call('/_mock/requests')).json<{ requests: Array<{ operation: string; status: number; organization_id: string | null }> }>();
  expect(requests.map((request) => [request.operation, request.status, request.organization_id])).toEqual([
    ['createOAuthToken', 200, 'default'],
    ['createOAuthToken', 401, null],
    ['listWebhookEndpoints', 200, 'default'],
  ]);
});
