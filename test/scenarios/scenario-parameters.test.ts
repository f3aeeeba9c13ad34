import { mockParts } from '../../src/mock/create-mock';
import { EntityValidation } from '../../src/schemas';
import { DEFAULT_API_KEY, bearer, expectApiError, useTestServer } from '../support/api-test-server';

// X-Mock-Scenario: generated?PARAMETERS plays a generated tree of the shape asked for (docs/scenarios.md
// "Parameters at create time"); a bad parameter is a 400 naming it, its value and what is allowed.

const t = useTestServer();

/** A TIN no built-in scenario claims. */
const TIN = '76543210-3';

async function createWith(scenario: string, body: Record<string, unknown> = { tin: TIN, country: 'CL' }) {
  return t.json('POST', '/api/v2/entity_validations', body, { ...bearer(DEFAULT_API_KEY), 'x-mock-scenario': scenario });
}

async function read(id: string): Promise<EntityValidation> {
  return EntityValidation.parse((await t.get(`/api/v2/entity_validations/${id}`)).json());
}

test('generated?partners=5&fail=partner-3:definitive plays 5 partners, the third failing for good, and no child_batches_ready', async () => {
  const created = await t.create({ tin: TIN, country: 'CL' }, { scenario: 'generated?partners=5&fail=partner-3:definitive' });
  await t.runClock();

  const validation = await read(created.id);
  expect(validation.related_entities).toHaveLength(5);
  const main = validation.data_source_run_batches[0]!;
  expect(main.runs_succeeded).toBe(true);
  expect(main.child_batches.map((child) => child.tin)).toEqual(validation.related_entities.map((entity) => entity.tin));
  expect(main.child_batches.map((child) => child.runs_succeeded)).toEqual([true, true, false, true, true]);
  const third = main.child_batches[2]!;
  expect(third.data_source_runs.map((run) => run.status)).toContain('definitive_error');

  const types = t.events.map((event) => event.type);
  expect(types.filter((type) => type === 'entity_validation.stakeholder.created')).toHaveLength(1);
  // spec §6 rule 4: a partner's definitive failure suppresses child_batches_ready (and the automatic report).
  expect(types).not.toContain('data_source_run_batch.child_batches_ready');
  expect(types).not.toContain('data_source_run_batch.consolidated_report_ready');
});

test('without a fail, the same shape completes: child_batches_ready lists the 5 partners, all succeeded', async () => {
  await t.create({ tin: TIN, country: 'CL' }, { scenario: 'generated?partners=5' });
  await t.runClock();
  const ready = t.events.find((event) => event.type === 'data_source_run_batch.child_batches_ready');
  const batch = (ready?.body as { data_source_run_batch?: { child_batches: Array<{ runs_succeeded: boolean }> } } | undefined)?.data_source_run_batch;
  expect(batch?.child_batches.map((child) => child.runs_succeeded)).toEqual([true, true, true, true, true]);
});

test('the same parameters and TIN give the same tree; a fail changes only what it names', async () => {
  const first = await t.create({ tin: TIN, country: 'CL' }, { scenario: 'generated?partners=5' });
  const second = await t.create({ tin: '76543211-1', country: 'CL' }, { scenario: 'generated?partners=5&seed=76543210-3' });
  const third = await t.create({ tin: TIN, country: 'CL' }, { scenario: 'generated?partners=5&fail=partner-3:definitive&alerts=main:high' });
  await t.runClock();
  const names = async (id: string) => (await read(id)).related_entities.map((entity) => `${entity.tin} ${entity.display_name}`);
  const expected = await names(first.id);
  expect(new Set(expected).size).toBe(5);
  expect(await names(second.id)).toEqual(expected);
  expect(await names(third.id)).toEqual(expected);
  expect((await read(third.id)).latest_raised_alerts.map((alert) => alert.severity)).toEqual(['high']);
});

test('fail=main:temporary fails the main entity once, then it succeeds; formation=cl plays a formation', async () => {
  const created = await t.create({ tin: TIN, country: 'CL' }, { scenario: 'generated?partners=2&fail=main:temporary&formation=cl' });
  await t.runClock();
  const validation = await read(created.id);
  expect(validation.data_source_run_batches[0]!.runs_succeeded).toBe(true);
  const types = t.events.map((event) => event.type);
  expect(types).toContain('entity_validation.formation.ready');
  expect(types).toContain('data_source_run_batch.child_batches_ready');
});

test('X-Mock-Scenario: generated plays the tree generated from the TIN', async () => {
  const created = await t.create({ tin: TIN, country: 'CL' }, { scenario: 'generated' });
  expect(created.tin).toBe(TIN);
  expect(mockParts(t.server).world.engine.scenarioFor(created.id)?.name).toBe('generated-76543210-3');
});

test.each([
  ['generated?partners=2&fail=main:temporary,partner-1:temporary', 2, 'data_source_run_batch.child_batches_ready'],
  ['generated?partners=3&nested=2&alerts=partner-2.1:critical', 9, 'data_source_run_batch.child_batches_ready'],
  ['generated?partners=4&formation=cl&information-request=evaluated', 4, 'information_request.evaluated'],
])('docs/scenarios.md example %s plays %d related entities and fires %s', async (header, related, type) => {
  const created = await t.create({ tin: TIN, country: 'CL' }, { scenario: header });
  await t.runClock();
  expect((await read(created.id)).related_entities).toHaveLength(related);
  expect(t.events.map((event) => event.type)).toContain(type);
  if (header.includes('alerts=partner-2.1:critical')) {
    const holding = (await read(created.id)).data_source_run_batches[0]!.child_batches[1]!;
    expect(holding.child_batches[0]!.raised_alerts.map((alert) => alert.severity)).toEqual(['critical']);
  }
});

test('fail=main:missing-input waits for input: the main batch is ready only once it is supplied', async () => {
  const created = await t.create({ tin: TIN, country: 'CL' }, { scenario: 'generated?fail=main:missing-input' });
  await t.runClock();
  const run = (await read(created.id)).data_source_run_batches[0]!.data_source_runs.find((candidate) => candidate.type === 'cl/pep');
  expect(run?.status).toBe('missing_input_data');
  expect(t.events.map((event) => event.type)).not.toContain('data_source_run_batch.ready');
  await t.control.call('control.run.input', { params: { id: run!.id } });
  await t.runClock();
  expect(t.events.map((event) => event.type)).toContain('data_source_run_batch.ready');
});

describe('a bad parameter is a 400 invalid_request naming it, the value given and what is allowed', () => {
  test.each([
    [
      'generated?partners=5&colour=red',
      '$headers["x-mock-scenario"].colour',
      'unknown_parameter',
      /"colour" is not a parameter of the generated shape; the parameters are alerts, fail, formation/,
    ],
    ['generated?partners=60', '$headers["x-mock-scenario"].partners', 'invalid_parameter', /partners=60 is not allowed; give a whole number from 0 to 50/],
    [
      'generated?partners=5&fail=partner-7:definitive',
      '$headers["x-mock-scenario"].fail[0]',
      'unknown_target',
      /fail names partner-7, but the tree has partners=5/,
    ],
    [
      'generated?partners=5&fail=main:definitive,partner-2:forever',
      '$headers["x-mock-scenario"].fail[1]',
      'invalid_parameter',
      /fail=partner-2:forever is not allowed; .*HOW one of definitive, temporary, missing-input/,
    ],
    [
      'generated?fail=partner-1.2:definitive&partners=1&nested=1',
      '$headers["x-mock-scenario"].fail[0]',
      'unknown_target',
      /partner-1\.2, but each partner has nested=1/,
    ],
    ['generated?alerts=main:severe', '$headers["x-mock-scenario"].alerts[0]', 'invalid_parameter', /SEVERITY one of low, medium, high, critical/],
    ['generated?partners=2&partners=3', '$headers["x-mock-scenario"].partners', 'duplicate_parameter', /partners is given twice/],
    ['happy-partners?partners=2', '$headers["x-mock-scenario"]', 'invalid_parameter', /parameters are taken by the generated shape only/],
  ])('%s', async (header, path, code, message) => {
    const error = expectApiError(await createWith(header), 400, 'invalid_request');
    expect(error.issues).toEqual([{ path, code, message: expect.stringMatching(message) }]);
    expect(error.message).toContain(path);
    expect(t.events).toEqual([]);
  });

  test('every problem is answered at once', async () => {
    const error = expectApiError(await createWith('generated?partners=x&fail=partner-9:definitive&formation=pe'), 400, 'invalid_request');
    expect(error.issues?.map((issue) => issue.path)).toEqual([
      '$headers["x-mock-scenario"].partners',
      '$headers["x-mock-scenario"].formation',
      '$headers["x-mock-scenario"].fail[0]',
    ]);
  });

  test('formation=cl for a company outside Chile names the country', async () => {
    const error = expectApiError(await createWith('generated?formation=cl', { tin: '20100047218', country: 'PE' }), 400, 'invalid_request');
    expect(error.issues?.[0]).toMatchObject({ path: '$headers["x-mock-scenario"].formation', message: expect.stringMatching(/country must be CL, not PE/) });
  });
});
