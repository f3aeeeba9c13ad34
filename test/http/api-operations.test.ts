import {
  BvsMockConfig,
  DataSourceRunBatch,
  DataSourceRunRecords,
  EntityValidation,
  Formation,
  InformationRequest,
  WebhookEndpointList,
} from '../../src/schemas';
import { DEFAULT_API_KEY, expectApiError, useTestServer } from '../support/api-test-server';
import { CL_FORMATION, HAPPY_NO_PARTNERS, HAPPY_PARTNERS, PARTNER_DEFINITIVE_ERROR } from '../support/built-in-tins';

// The happy path of every operation of the API (spec §4) and of its extensions (docs/fidelity.md row 18), over HTTPS.

const CONFIG = BvsMockConfig.parse({
  organizations: [
    {
      id: 'default',
      api_keys: [DEFAULT_API_KEY],
      webhook_endpoints: [
        // Loopback only, and subscribed to an event these tests never fire: no delivery leaves the machine.
        { name: 'ci', url: 'http://127.0.0.1:9/hooks', auth_type: 'secret', secret: 'whsec_hidden', subscribed_events: ['information_request.evaluated'] },
        { name: 'audit', url: 'https://127.0.0.1:9/audit', enabled: false },
      ],
    },
  ],
});

const t = useTestServer({ config: CONFIG });
const events = t.events;

test('GET /api/v2/webhook_endpoints lists the organization endpoints without their secrets', async () => {
  const answer = await t.get('/api/v2/webhook_endpoints');
  expect(answer.status).toBe(200);
  const { webhook_endpoints } = WebhookEndpointList.parse(answer.json());
  expect(
    webhook_endpoints.map(({ name, url, enabled, auth_type, subscribed_events }) => ({
      name,
      url,
      enabled,
      auth_type,
      subscribed_events: subscribed_events.length,
    })),
  ).toEqual([
    { name: 'ci', url: 'http://127.0.0.1:9/hooks', enabled: true, auth_type: 'secret', subscribed_events: 1 },
    { name: 'audit', url: 'https://127.0.0.1:9/audit', enabled: false, auth_type: 'none', subscribed_events: 12 },
  ]);
  expect(webhook_endpoints.every((endpoint) => endpoint.id.startsWith('whe_'))).toBe(true);
  expect(answer.text()).not.toContain('whsec_hidden');
});

test.each([
  ['at the top level', { tin: HAPPY_PARTNERS, country: 'CL', contact_email: 'ops@client.example.com' }],
  ['wrapped in entity_validation', { entity_validation: { tin: HAPPY_PARTNERS, country: 'CL', contact_email: 'ops@client.example.com' } }],
])('POST /api/v2/entity_validations with the fields %s answers 201 with the validation and a Location that reads it back', async (_form, body) => {
  const answer = await t.json('POST', '/api/v2/entity_validations', body, { authorization: `Bearer ${DEFAULT_API_KEY}` });
  expect(answer.status).toBe(201);
  const created = EntityValidation.parse(answer.json());
  expect(created).toMatchObject({ tin: HAPPY_PARTNERS, country: 'CL', status: 'created', webhook: null, information_requests: [], related_entities: [] });
  expect(created.id).toMatch(/^evl_/);
  expect(created.data_source_run_batches).toHaveLength(1);
  expect(answer.headers.location).toBe(`/api/v2/entity_validations/${created.id}`);
  const read = await t.get(answer.headers.location!);
  expect(read.status).toBe(200);
  expect(read.json()).toEqual(created);
});

test('webhook_url is echoed as a wbh_ webhook object on the validation and its main batch', async () => {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL', webhook_url: 'https://127.0.0.1:9/bvs/hooks' });
  const webhook = { id: expect.stringMatching(/^wbh_/), webhook_url: 'https://127.0.0.1:9/bvs/hooks', created_at: created.created_at };
  expect(created.webhook).toEqual(webhook);
  expect(created.data_source_run_batches[0]!.webhook).toEqual(webhook);
});

test('information_request creates a request, listed on the validation and readable at GET /api/v2/information_requests/:id', async () => {
  const created = await t.create({
    tin: HAPPY_PARTNERS,
    country: 'CL',
    information_request: { template_id: 'irt_onboarding', webhook_url: 'https://127.0.0.1:9/irq' },
  });
  expect(created.information_requests).toEqual([
    {
      id: expect.stringMatching(/^irq_/),
      name: expect.any(String),
      created_at: created.created_at,
      recipient_url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+\//),
    },
  ]);
  const requestId = created.information_requests[0]!.id;
  expect(created.data_source_run_batches[0]!.information_request_id).toBe(requestId);
  const answer = await t.get(`/api/v2/information_requests/${requestId}`);
  expect(answer.status).toBe(200);
  const request = InformationRequest.parse(answer.json());
  expect(request).toMatchObject({
    id: requestId,
    status: 'pending',
    entity_validation_id: created.id,
    template_id: 'irt_onboarding',
    responsible_comment: null,
    webhook: { webhook_url: 'https://127.0.0.1:9/irq' },
  });
  expect(request.requestable_items.length).toBeGreaterThan(0);
});

test('after the clock runs, GET the validation lists every partner with full identity, the batches, the latest alerts and runs', async () => {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  expect(
    validation.related_entities.map(({ tin, display_name, category, risk_level, country }) => ({ tin, display_name, category, risk_level, country })),
  ).toEqual([
    { tin: '9876543-3', display_name: 'Carolina Muñoz Pérez', category: 'person', risk_level: 'high', country: 'CL' },
    { tin: '10234567-3', display_name: 'Jorge Soto Valenzuela', category: 'person', risk_level: 'low', country: 'CL' },
    { tin: '77210893-1', display_name: 'Inversiones Maipo Ltda', category: 'business', risk_level: 'low', country: 'CL' },
  ]);
  const main = validation.data_source_run_batches[0]!;
  expect(main).toMatchObject({
    runs_succeeded: true,
    execution_type: 'direct',
    parent_batch_id: null,
    consolidated_report_url: expect.stringContaining('/_mock/files/default/reports/'),
  });
  expect(main.child_batches.map((child) => child.tin).sort()).toEqual(['10234567-3', '77210893-1', '9876543-3']);
  expect(main.child_batches.every((child) => child.parent_batch_id === main.id && child.execution_type === 'related' && child.runs_succeeded)).toBe(true);
  expect(main.child_batches.flatMap((child) => child.raised_alerts.map((alert) => alert.name))).toEqual(['PEP match']);
  expect(validation.latest_data_source_runs.map((run) => [run.type, run.status])).toEqual([
    ['cl/sii', 'succeeded'],
    ['cl/registry', 'succeeded'],
    ['cl/pep', 'succeeded'],
  ]);
});

test('the latest alerts are those of the validation itself', async () => {
  const created = await t.create({ tin: PARTNER_DEFINITIVE_ERROR, country: 'CL' });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  expect(validation.latest_raised_alerts).toEqual([
    expect.objectContaining({
      name: 'Tax debt',
      severity: 'medium',
      entity_validation_id: created.id,
      data_source_run_batch_id: validation.data_source_run_batches[0]!.id,
    }),
  ]);
});

test('each latest run carries data with count and a records_url that answers the same count of records', async () => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  let seen = 0;
  for (const run of validation.latest_data_source_runs) {
    const source = run.type.split('/')[1]!;
    const data = run.data as unknown as Record<string, { count: number; records_url: string }>;
    expect(data).toEqual({ id: run.id, [source]: { count: expect.any(Number), records_url: `/api/v2/data_source_runs/${run.id}/records` } });
    const answer = await t.get(data[source]!.records_url);
    expect(answer.status).toBe(200);
    const records = DataSourceRunRecords.parse(answer.json());
    expect(records).toMatchObject({ data_source_run_id: run.id, type: run.type, count: data[source]!.count });
    expect(records.records).toHaveLength(records.count);
    seen += records.count;
  }
  expect(seen).toBeGreaterThan(0);
});

test('GET /api/v2/data_source_run_batches/:id answers the batch as the validation shows it', async () => {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  const main = validation.data_source_run_batches[0]!;
  const answer = await t.get(`/api/v2/data_source_run_batches/${main.id}`);
  expect(answer.status).toBe(200);
  const batch = DataSourceRunBatch.parse(answer.json());
  expect({ ...batch, consolidated_report_url: null }).toEqual({ ...main, consolidated_report_url: null });
  const child = DataSourceRunBatch.parse((await t.get(`/api/v2/data_source_run_batches/${main.child_batches[0]!.id}`)).json());
  expect(child).toEqual(main.child_batches[0]);
});

test('POST consolidated_report generates the report on demand after a partner failed definitively', async () => {
  const created = await t.create({ tin: PARTNER_DEFINITIVE_ERROR, country: 'CL' });
  await t.runClock();
  const mainId = created.data_source_run_batches[0]!.id;
  const before = DataSourceRunBatch.parse((await t.get(`/api/v2/data_source_run_batches/${mainId}`)).json());
  expect(before.consolidated_report_url).toBeNull();
  expect(events.map((event) => event.type)).not.toContain('data_source_run_batch.consolidated_report_ready');
  const answer = await t.call(`/api/v2/data_source_run_batches/${mainId}/consolidated_report`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEFAULT_API_KEY}` },
  });
  expect(answer.status).toBe(202);
  await t.runClock();
  const after = DataSourceRunBatch.parse((await t.get(`/api/v2/data_source_run_batches/${mainId}`)).json());
  expect(after.consolidated_report_url).toMatch(/\/_mock\/files\/default\/reports\/.+\.pdf\?expires=\d+&signature=/);
  expect(events.map((event) => event.type)).toContain('data_source_run_batch.consolidated_report_ready');
});

test('POST consolidated_report on a partner batch answers 409 conflict naming the main batch', async () => {
  const created = await t.create({ tin: PARTNER_DEFINITIVE_ERROR, country: 'CL' });
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  const child = validation.data_source_run_batches[0]!.child_batches[0]!;
  const error = expectApiError(
    await t.call(`/api/v2/data_source_run_batches/${child.id}/consolidated_report`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEFAULT_API_KEY}` },
    }),
    409,
    'conflict',
  );
  expect(error.message).toContain(validation.data_source_run_batches[0]!.id);
});

test('GET /api/v2/entity_validations/:id/formation answers the formation of a cl-formation validation', async () => {
  const created = await t.create({ tin: CL_FORMATION, country: 'CL' });
  await t.runClock();
  const answer = await t.get(`/api/v2/entity_validations/${created.id}/formation`);
  expect(answer.status).toBe(200);
  const formation = Formation.parse(answer.json());
  expect(formation).toMatchObject({
    entity_validation_id: created.id,
    data_source_run_batch_id: created.data_source_run_batches[0]!.id,
    tin: CL_FORMATION,
    source: 'constitution',
    fantasy_name: 'Cordillera Construcciones',
  });
  expect(formation.stakeholders.map((stakeholder) => stakeholder.tin)).toEqual(['14321098-7', '15678234-3', '77318847-5']);
  expect(formation.documents.length).toBeGreaterThan(0);
});

test('GET formation of a validation without one answers 404 not_found', async () => {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const error = expectApiError(await t.get(`/api/v2/entity_validations/${created.id}/formation`), 404, 'not_found');
  expect(error.message).toContain('formation');
});

test('POST /api/v2/entity_validations/:id/stakeholders adds related entities and fires stakeholder.created', async () => {
  const created = await t.create({ tin: HAPPY_NO_PARTNERS, country: 'CL' });
  const body = { stakeholders: [{ tin: '11111111-1', category: 'person', name: 'Rosa', surname: 'Díaz' }] };
  const answer = await t.json('POST', `/api/v2/entity_validations/${created.id}/stakeholders`, body, { authorization: `Bearer ${DEFAULT_API_KEY}` });
  expect(answer.status).toBe(201);
  const validation = EntityValidation.parse(answer.json());
  expect(validation.related_entities).toEqual([
    expect.objectContaining({ tin: '11111111-1', country: 'CL', name: 'Rosa', surname: 'Díaz', category: 'person', risk_level: null }),
  ]);
  expect(events.filter((event) => event.type === 'entity_validation.stakeholder.created')).toHaveLength(1);
  const again = await t.json('POST', `/api/v2/entity_validations/${created.id}/stakeholders`, body, { authorization: `Bearer ${DEFAULT_API_KEY}` });
  expectApiError(again, 409, 'conflict');
});
