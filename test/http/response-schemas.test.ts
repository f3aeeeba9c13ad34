import { allRoutes } from '../../src/http';
import { ScenarioLibrary } from '../../src/engine/scenarios';
import type { DataSourceRunBatch, EntityValidation } from '../../src/schemas';
import { API_RESPONSE_SCHEMAS as SCHEMAS } from '../support/api-response-schemas';
import type { HttpAnswer } from '../support/https-client';
import { DEFAULT_API_KEY, bearer, useTestServer } from '../support/api-test-server';
import { CL_FORMATION } from '../support/built-in-tins';

// Sweep: every JSON body the API answers validates with its zod schema (CONTRIBUTING.md rule 3), for every
// operation, across every built-in scenario, at the start, mid-flight and at the end of the play.

const SCENARIOS = ScenarioLibrary.builtIn()
  .list()
  .map((scenario) => [scenario.name, scenario.tins[0]!] as const);

const t = useTestServer({}, { reset: false });
const checked = new Map<string, number>();

/** Validates a 2xx JSON answer of `operation` with its schema and counts it. */
function check<T>(operation: string, answer: HttpAnswer): T {
  const schema = SCHEMAS[operation];
  if (!schema) throw new Error(`no schema for ${operation}`);
  expect(answer.status).toBeGreaterThanOrEqual(200);
  expect(answer.status).toBeLessThan(300);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const result = schema.safeParse(answer.json());
  if (!result.success) throw new Error(`${operation} answered a body its schema refuses: ${result.error.message}`);
  checked.set(operation, (checked.get(operation) ?? 0) + 1);
  return result.data as T;
}

async function sweepValidation(id: string): Promise<void> {
  const validation = check<EntityValidation>('getEntityValidation', await t.get(`/api/v2/entity_validations/${id}`));
  const batches = (batch: DataSourceRunBatch): DataSourceRunBatch[] => [batch, ...batch.child_batches.flatMap(batches)];
  for (const batch of validation.data_source_run_batches.flatMap(batches)) {
    check('getDataSourceRunBatch', await t.get(`/api/v2/data_source_run_batches/${batch.id}`));
    for (const run of batch.data_source_runs) check('getDataSourceRunRecords', await t.get(`/api/v2/data_source_runs/${run.id}/records`));
  }
  for (const run of validation.latest_data_source_runs) {
    for (const [key, value] of Object.entries(run.data))
      if (key !== 'id') check('getDataSourceRunRecords', await t.get((value as { records_url: string }).records_url));
  }
  for (const request of validation.information_requests) check('getInformationRequest', await t.get(`/api/v2/information_requests/${request.id}`));
  const formation = await t.get(`/api/v2/entity_validations/${id}/formation`);
  if (formation.status !== 404) check('getFormation', formation);
  for (const partner of validation.related_entities) check('getEntityValidation', await t.get(`/api/v2/entity_validations/${partner.id}`));
}

/** Creates a validation of `tin` and checks every body it answers: at creation, mid-flight, at the end, after a report and new stakeholders. */
async function sweepScenario(tin: string): Promise<void> {
  const created = await t.json(
    'POST',
    '/api/v2/entity_validations',
    { tin, country: 'CL', information_request: { template_id: 'irt_sweep' } },
    bearer(DEFAULT_API_KEY),
  );
  const { id, data_source_run_batches } = check<EntityValidation>('createEntityValidation', created);
  await sweepValidation(id);
  await t.advance(40);
  await sweepValidation(id);
  await t.runClock();
  await sweepValidation(id);
  check(
    'generateConsolidatedReport',
    await t.call(`/api/v2/data_source_run_batches/${data_source_run_batches[0]!.id}/consolidated_report`, { method: 'POST', headers: bearer(DEFAULT_API_KEY) }),
  );
  const stakeholder = { stakeholders: [{ tin: `sweep-${tin}`, category: 'business', name: 'Sweep SpA' }] };
  check('addStakeholders', await t.json('POST', `/api/v2/entity_validations/${id}/stakeholders`, stakeholder, bearer(DEFAULT_API_KEY)));
  await t.runClock();
  await sweepValidation(id);
}

/** Checks the bodies that belong to no validation: a token and the endpoint list. */
async function sweepAccount(): Promise<void> {
  check('createOAuthToken', await t.token({ grant_type: 'client_credentials', client_id: 'default_client', client_secret: 'default_secret' }));
  check('listWebhookEndpoints', await t.get('/api/v2/webhook_endpoints'));
}

test.each(SCENARIOS)('every response body of scenario %s validates with its schema', async (_name, tin) => {
  await sweepScenario(tin);
});

test('a generated tree (a TIN no scenario names) answers bodies that validate too', async () => {
  const created = check<EntityValidation>(
    'createEntityValidation',
    await t.json('POST', '/api/v2/entity_validations', { tin: '99999999-9', country: 'CL' }, bearer(DEFAULT_API_KEY)),
  );
  await t.runClock();
  await sweepValidation(created.id);
});

test('bodies carrying the legacy webhook echo validate too', async () => {
  // Checked before the clock moves: the legacy URL (loopback) would otherwise get deliveries and retries.
  try {
    const body = {
      tin: '76920415-6',
      country: 'CL',
      webhook_url: 'https://127.0.0.1:9/hooks',
      information_request: { template_id: 'irt_sweep', webhook_url: 'https://127.0.0.1:9/irq' },
    };
    const created = check<EntityValidation>('createEntityValidation', await t.json('POST', '/api/v2/entity_validations', body, bearer(DEFAULT_API_KEY)));
    expect(created.webhook).not.toBeNull();
    await sweepValidation(created.id);
  } finally {
    await t.call('/_mock/reset', { method: 'POST' });
  }
});

test('token and endpoint list bodies validate with their schemas', async () => {
  await sweepAccount();
});

test('the sweep reaches every JSON operation of the API, run alone or after the others', async () => {
  const apiOperations = allRoutes()
    .filter((route) => route.access.kind === 'api' || route.operation === 'createOAuthToken')
    .map((route) => route.operation)
    .sort();
  expect(apiOperations).toEqual(Object.keys(SCHEMAS).sort());
  // Its own sweep, so the test holds alone (-t) and in any order: one scenario with every kind of resource.
  checked.clear();
  await sweepScenario(CL_FORMATION);
  await sweepAccount();
  expect([...checked.keys()].sort()).toEqual(apiOperations);
});
