import { parse as parseYaml } from 'yaml';
import { allRoutes } from '../../src/http';
import { EntityValidation } from '../../src/schemas';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { BUILT_IN_SCENARIO_NAMES, HAPPY_PARTNERS } from '../support/built-in-tins';

// The control API (docs/design.md, Control API): health, reset, the clock, scenarios, organization
// settings, organization_id, and the OpenAPI document.

interface ClockView {
  mode: string;
  now: string;
  started_at: string;
  pending: number;
  next_at: string | null;
  fired?: number;
}

const t = useTestServer();
const events = t.events;

const clock = async () => (await t.call('/_mock/clock')).json<ClockView>();
const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

test('GET /_mock/health answers 200 with status ok and the clock', async () => {
  const answer = await t.call('/_mock/health');
  expect(answer.status).toBe(200);
  expect(answer.json()).toEqual({
    status: 'ok',
    version: expect.any(String),
    imitates: { service: 'Business Validation Service', api: '/api/v2' },
    seed: expect.any(Number),
    clock: expect.objectContaining({ mode: 'manual' }),
    retention: { validations: 0, max_validations: 2_500, evicted_validations: 0, journal: { entries: 0, max_entries: 5_000 } },
    deliveries: {
      records: 0,
      max_records: 20_000,
      evicted_records: 0,
      max_pending_per_receiver: 10_000,
      slow_receivers: 0,
      suspended_receivers: 0,
      counts: { pending: 0, succeeded: 0, failed: 0, expired: 0 },
    },
  });
  // Started without a seed: the one drawn is a whole number --seed accepts.
  const { seed } = answer.json<{ seed: number }>();
  expect(Number.isInteger(seed) && seed >= 0 && seed <= 2 ** 31 - 1).toBe(true);
});

test('GET /_mock/clock shows the manual clock at its start with nothing scheduled', async () => {
  const view = await clock();
  expect(view).toEqual({
    mode: 'manual',
    speed: 1,
    now: view.started_at,
    started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    pending: 0,
    next_at: null,
  });
});

test('POST /_mock/clock/advance moves the clock by the seconds given and fires what fell due', async () => {
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  const answer = await t.json('POST', '/_mock/clock/advance', { seconds: 30 });
  expect(answer.status).toBe(200);
  const view = answer.json<ClockView>();
  expect(seconds(view.started_at, view.now)).toBe(30);
  expect(view.fired).toBeGreaterThan(0);
  expect(view.pending).toBeGreaterThan(0);
  expect(events.map((event) => event.type)).toContain('entity_validation.stakeholder.created');
});

test('POST /_mock/clock/run runs until nothing is scheduled', async () => {
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  const view = (await t.call('/_mock/clock/run', { method: 'POST' })).json<ClockView>();
  expect(view).toMatchObject({ pending: 0, next_at: null });
  expect(seconds(view.started_at, view.now)).toBe(90);
  expect(events.at(-1)!.type).toBe('data_source_run_batch.consolidated_report_ready');
});

test.each([
  ['negative seconds', { seconds: -1 }, '$.seconds'],
  ['seconds as a string', { seconds: '30' }, '$.seconds'],
  ['no seconds', {}, '$.seconds'],
])('POST /_mock/clock/advance with %s answers 422 at its path', async (_label, body, path) => {
  const error = expectApiError(await t.json('POST', '/_mock/clock/advance', body), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path)).toContain(path);
});

test('POST /_mock/reset empties the state and moves the clock back to its start', async () => {
  const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.advance(40);
  const answer = await t.call('/_mock/reset', { method: 'POST' });
  expect(answer.json()).toMatchObject({ status: 'reset' });
  const view = await clock();
  expect(view).toMatchObject({ now: view.started_at, pending: 0, next_at: null });
  expect((await t.call('/_mock/requests')).json()).toEqual({ requests: [], next_cursor: null, cut_by_size: false });
  expectApiError(await t.get(`/api/v2/entity_validations/${created.id}`), 404, 'not_found');
});

test('POST /_mock/reset returns every part to its start at once: report, events, faults, endpoints, journal', async () => {
  const fresh = { report: (await t.call('/_mock/report')).json(), endpoints: (await t.call('/_mock/webhook_endpoints')).json() };
  await t.json('POST', '/_mock/webhook_endpoints', { name: 'extra', url: 'https://127.0.0.1:9/hooks', subscribed_events: ['data_source_run_batch.ready'] });
  await t.json('POST', '/_mock/faults', { kind: 'api_error', path: '/api/v2/entity_validations', count: 1 });
  await t.json('POST', '/api/v2/entity_validations', { tin: HAPPY_PARTNERS, country: 'CL' });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  await t.json('POST', '/_mock/faults', { kind: 'api_error', path: '/api/v2/entity_validations', count: 1 });

  expect((await t.call('/_mock/reset', { method: 'POST' })).status).toBe(200);
  expect((await t.call('/_mock/faults')).json()).toEqual({ faults: [] });
  expect((await t.call('/_mock/events')).json()).toMatchObject({ events: [] });
  expect((await t.call('/_mock/webhook_endpoints')).json()).toEqual(fresh.endpoints);
  // The report reads the journal, which the calls above fill again: compare what the reset emptied.
  const report = (await t.call('/_mock/report')).json<{ events: unknown; violations: unknown }>();
  expect(report.events).toEqual((fresh.report as typeof report).events);
  expect(report.violations).toEqual((fresh.report as typeof report).violations);
  expect((await t.call('/_mock/health')).json()).toMatchObject({ retention: { validations: 0 }, deliveries: { records: 0 } });
});

test('GET /_mock/scenarios lists every built-in scenario with its TINs', async () => {
  const { scenarios } = (await t.call('/_mock/scenarios')).json<{ scenarios: Array<{ name: string; tins: string[] }> }>();
  const byName = Object.fromEntries(scenarios.map((scenario) => [scenario.name, scenario.tins]));
  expect(byName).toMatchObject({
    'happy-partners': ['76920415-6'],
    'partner-definitive-error': ['76086428-5'],
    'cl-formation': ['76265310-9'],
    'missing-input-data': ['77049576-8'],
    'information-request': ['76842059-9'],
  });
  expect(Object.keys(byName).sort()).toEqual([...BUILT_IN_SCENARIO_NAMES]);
});

const ADDED = `name: added-at-run-time
description: A scenario posted to the control API.
tins: ["76000111-2"]
entity:
  tin: 76000111-2
  country: CL
  category: business
  name: Añadida en Ejecución SpA
  runs:
    - { type: cl/sii, outcomes: [{ succeeded: 10s }] }
  partners:
    - { tin: 15111222-3, category: person, name: Pía, surname: Lagos, runs: [{ type: cl/pep, outcomes: [{ succeeded: 5s }] }] }
`;

test('POST /_mock/scenarios adds a YAML scenario that a create call with its TIN then plays; the same name again answers 409', async () => {
  const answer = await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: ADDED });
  expect(answer.status).toBe(201);
  expect(answer.json()).toMatchObject({ name: 'added-at-run-time', tins: ['76000111-2'] });
  const created = await t.create({ tin: '76000111-2', country: 'CL' });
  expect(created.display_name).toBe('Añadida en Ejecución SpA');
  await t.runClock();
  const validation = EntityValidation.parse((await t.get(`/api/v2/entity_validations/${created.id}`)).json());
  expect(validation.related_entities.map((entity) => entity.display_name)).toEqual(['Pía Lagos']);
  const again = await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: ADDED });
  expect(expectApiError(again, 409, 'conflict').issues.map((issue) => issue.code)).toContain('duplicate_scenario_name');
});

test('POST /_mock/scenarios refuses a TIN another scenario claims with 409', async () => {
  const body = ADDED.replace('added-at-run-time', 'steals-a-tin').replaceAll('76000111-2', HAPPY_PARTNERS);
  const error = expectApiError(await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body }), 409, 'conflict');
  expect(error.message).toContain('happy-partners');
});

test('POST /_mock/scenarios answers 422 with one issue per problem at its JSON path', async () => {
  const body = ADDED.replace('name: added-at-run-time\n', 'name: broken\n')
    .replace('category: business', 'category: boat')
    .replace('country: CL', 'country: cl');
  const error = expectApiError(
    await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body }),
    422,
    'validation_failed',
  );
  expect(error.issues.map((issue) => issue.path).sort()).toEqual(['$.entity.category', '$.entity.country']);
});

// Finding: the loader knows the line of each issue (ScenarioFileIssue.line) but scenario-routes.ts drops it.
test('POST /_mock/scenarios reports the line of a YAML syntax error and of each schema issue', async () => {
  const syntax = expectApiError(
    await t.call('/_mock/scenarios', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: 'name: x\ndescription: y\nentity:\n  runs: [}\n',
    }),
    422,
    'validation_failed',
  );
  expect(syntax.issues[0]!.message).toMatch(/line 4/);
  const schema = expectApiError(
    await t.call('/_mock/scenarios', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: ADDED.replace('category: business', 'category: boat'),
    }),
    422,
    'validation_failed',
  );
  expect(schema.issues[0]!.message).toMatch(/line 7/);
});

test('POST /_mock/scenarios with a YAML syntax error answers 422 yaml_syntax', async () => {
  const error = expectApiError(
    await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: 'name: x\nentity:\n  runs: [}\n' }),
    422,
    'validation_failed',
  );
  expect(error.issues).toEqual([expect.objectContaining({ code: 'yaml_syntax' })]);
});

test('POST /_mock/scenarios accepts JSON and refuses other media types with 415', async () => {
  const scenario = parseYaml(ADDED.replace('added-at-run-time', 'added-as-json').replaceAll('76000111-2', '76000222-9')) as unknown;
  expect((await t.json('POST', '/_mock/scenarios', scenario)).status).toBe(201);
  expectApiError(await t.call('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'image/png' }, body: ADDED }), 415, 'unsupported_media_type');
});

test('PATCH organization settings child_batches_ready false suppresses the event; true brings it back', async () => {
  const off = await t.json('PATCH', '/_mock/organizations/default/settings', { child_batches_ready: false });
  expect(off.status).toBe(200);
  expect(off.json()).toMatchObject({ organization_id: 'default', settings: { child_batches_ready: false } });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  const types = events.map((event) => event.type);
  expect(types).not.toContain('data_source_run_batch.child_batches_ready');
  expect(types).toContain('data_source_run_batch.consolidated_report_ready');
  events.length = 0;
  await t.json('PATCH', '/_mock/organizations/default/settings', { child_batches_ready: true });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(events.filter((event) => event.type === 'data_source_run_batch.child_batches_ready')).toHaveLength(1);
});

test('POST /_mock/reset undoes settings changed at run time', async () => {
  await t.json('PATCH', '/_mock/organizations/default/settings', { child_batches_ready: false });
  await t.call('/_mock/reset', { method: 'POST' });
  await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  await t.runClock();
  expect(events.map((event) => event.type)).toContain('data_source_run_batch.child_batches_ready');
});

test.each([
  ['a setting of the wrong type', 422, 'validation_failed', { child_batches_ready: 'no' }],
  ['an unknown setting', 422, 'validation_failed', { rate_limit: 5 }],
  ['a body that is not an object', 400, 'invalid_request', [1]],
] as const)('PATCH organization settings with %s answers %i %s', async (_label, status, code, body) => {
  expectApiError(await t.json('PATCH', '/_mock/organizations/default/settings', body), status, code);
});

test('PATCH settings of an unknown organization answers 404 not_found', async () => {
  expectApiError(await t.json('PATCH', '/_mock/organizations/nope/settings', { child_batches_ready: false }), 404, 'not_found');
});

test.each([
  ['GET', '/_mock/clock?organization_id=nope', undefined],
  ['GET', '/_mock/requests?organization_id=nope', undefined],
  ['POST', '/_mock/clock/advance', { seconds: 1, organization_id: 'nope' }],
  ['POST', '/_mock/entity_validations/evl_x/revalidate?organization_id=nope', {}],
])('%s %s naming an unknown organization_id answers 404 not_found', async (method, path, body) => {
  const error = expectApiError(await t.json(method, path, body), 404, 'not_found');
  expect(error.message).toContain('nope');
});

// Finding: problems.notFound('organization', id) (used by api-core.ts and control-routes.ts) says
// "No organization with id nope in your organization.", which reads as nonsense for an organization.
test('an unknown organization_id is reported as an unknown organization, not "in your organization"', async () => {
  const error = expectApiError(await t.call('/_mock/clock?organization_id=nope'), 404, 'not_found');
  expect(error.message).not.toContain('in your organization');
});

test('GET /openapi.json and /openapi.yaml serve the same OpenAPI 3.1 document, listing every API operation', async () => {
  const json = await t.call('/openapi.json');
  const yaml = await t.call('/openapi.yaml');
  expect(json.status).toBe(200);
  expect(yaml.status).toBe(200);
  expect(yaml.headers['content-type']).toMatch(/yaml/);
  const document = json.json<{ openapi: string; paths: Record<string, Record<string, { operationId: string; 'x-bvs-mock-extension'?: boolean }>> }>();
  expect(parseYaml(yaml.text())).toEqual(document);
  expect(document.openapi).toBe('3.1.0');
  const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(
      ([method, operation]) =>
        `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')} ${operation.operationId} ${operation['x-bvs-mock-extension'] === true}`,
    ),
  );
  const served = allRoutes()
    .filter((route) => route.access.kind === 'api' || route.operation === 'createOAuthToken')
    .map(
      (route) =>
        `${route.method} ${route.pattern} ${route.operation} ${!/^\/(oauth\/token|api\/v2\/(webhook_endpoints|entity_validations(\/:id)?|data_source_runs\/:id\/records))$/.test(route.pattern)}`,
    );
  expect(documented.sort()).toEqual(served.sort());
});
