import { EVENT_SCHEMAS, parseWith, type DataSourceRunBatch } from '../../src/schemas';
import { scenario, startEngine } from '../support/engine-harness';

const TWO_PARTNERS = scenario({
  name: 'two-partners',
  description: 'Main entity with two partners, one of them failing for good.',
  tins: ['76086428-5'],
  entity: {
    tin: '76086428-5',
    country: 'CL',
    category: 'business',
    name: 'Comercial Andes SpA',
    runs: [
      { type: 'cl/sii', outcomes: [{ succeeded: '20s' }], records: [{ activity: 'wholesale' }] },
      { type: 'cl/registry', outcomes: [{ temporary_error: '15s' }, { succeeded: '30s' }] },
    ],
    alerts: [{ name: 'Tax debt', severity: 'medium', raised_by: 'cl/sii' }],
    partners: [
      {
        tin: '12345678-5',
        category: 'person',
        name: 'Ana',
        surname: 'Rojas',
        runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '40s' }] }],
        alerts: [{ name: 'PEP', severity: 'high' }],
      },
      { tin: '77123456-9', category: 'business', name: 'Inversiones Sur Ltda', runs: [{ type: 'cl/registry', outcomes: [{ definitive_error: '25s' }] }] },
    ],
  },
});

const HAPPY = scenario({
  name: 'happy',
  description: 'One partner, every run succeeds, with a formation.',
  tins: ['76543210-3'],
  entity: {
    tin: '76543210-3',
    country: 'CL',
    category: 'business',
    name: 'Andes Foods SpA',
    runs: [
      { type: 'cl/sii', outcomes: [{ succeeded: '10s' }] },
      { type: 'cl/registry', outcomes: [{ succeeded: '20s' }] },
    ],
    partners: [
      {
        tin: '11111111-1',
        category: 'person',
        name: 'Luis',
        surname: 'Soto',
        runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '30s' }] }],
        alerts: [{ name: 'PEP', severity: 'high' }],
      },
    ],
    formation: {
      company_type: 'Sociedad por Acciones',
      constitution_date: '2019-03-04',
      activity_description: 'Food wholesale',
      administration: { administration_type: 'general_manager', simple_signature: true },
      equity: { total_amount: 1000000, total_shares: 100 },
      stakeholders: [{ tin: '11111111-1', roles: ['shareholder', 'general_manager'], ubo: true, participation: 1, shares: 100, amount: 1000000 }],
      documents: [{ name: 'constitution.pdf', label: 'Constitution deed', cve: 'CVE-1' }],
    },
  },
});

const WAITING = scenario({
  name: 'waiting',
  description: 'A run waits for input.',
  tins: ['70000000-7'],
  entity: {
    tin: '70000000-7',
    country: 'CL',
    category: 'business',
    name: 'Espera SpA',
    runs: [{ type: 'cl/sii', outcomes: [{ missing_input_data: '5s' }, { succeeded: '10s' }] }],
  },
});

test('every emitted body validates against its event schema', () => {
  const harness = startEngine({ scenarios: [TWO_PARTNERS, HAPPY] });
  harness.create({ tin: '76086428-5', country: 'CL' });
  harness.create({ tin: '76543210-3', country: 'CL' });
  harness.runAll();
  expect(harness.events.length).toBeGreaterThan(10);
  for (const event of harness.events) {
    const result = parseWith(EVENT_SCHEMAS[event.type], event.body);
    expect(result.ok ? [] : result.issues).toEqual([]);
  }
});

test('an event keeps the tree as it stood when it fired', () => {
  const harness = startEngine({ scenarios: [TWO_PARTNERS] });
  const frozen: string[] = [];
  harness.engine.subscribe((event) => frozen.push(JSON.stringify(event.body)));
  harness.create({ tin: '76086428-5', country: 'CL' });
  harness.runAll();
  expect(harness.events.map((event) => JSON.stringify(event.body))).toEqual(frozen);
  const ready = harness.events.find((event) => event.type === 'data_source_run_batch.ready')!.body as { data_source_run_batch: DataSourceRunBatch };
  expect(ready.data_source_run_batch.child_batches.map((child) => child.runs_succeeded)).toEqual([false, false]);
});

test('a partner definitive failure suppresses child_batches_ready and the automatic report, and the report can be asked for', () => {
  const harness = startEngine({ scenarios: [TWO_PARTNERS] });
  const id = harness.create({ tin: '76086428-5', country: 'CL' });
  harness.runAll();
  expect(harness.types()).not.toContain('data_source_run_batch.child_batches_ready');
  expect(harness.types()).not.toContain('data_source_run_batch.consolidated_report_ready');
  const batchId = harness.engine.getValidation('acme', id)!.data_source_run_batches[0]!.id;
  expect(harness.engine.generateConsolidatedReport('acme', batchId)).toEqual({ ok: true, value: undefined });
  expect(harness.types().at(-1)).toBe('data_source_run_batch.consolidated_report_ready');
  expect(harness.engine.getValidation('acme', id)!.data_source_run_batches[0]!.consolidated_report_url).toMatch(
    /^https:\/\/127\.0\.0\.1:4010\/_mock\/files\/acme\/reports\/dsrb_.+\.pdf\?expires=\d+&signature=[0-9a-f]+$/,
  );
});

test('an on-demand report of a partner batch is refused with the main batch to ask for instead', () => {
  const harness = startEngine({ scenarios: [TWO_PARTNERS] });
  const id = harness.create({ tin: '76086428-5', country: 'CL' });
  harness.runAll();
  const main = harness.engine.getValidation('acme', id)!.data_source_run_batches[0]!;
  const result = harness.engine.generateConsolidatedReport('acme', main.child_batches[0]!.id);
  expect(result).toMatchObject({ ok: false, code: 'conflict', message: expect.stringContaining(main.id) });
});

test('a revalidation adds a batch, fires formation.ready and the report again, but not child_batches_ready nor stakeholder.created', () => {
  const harness = startEngine({ scenarios: [HAPPY] });
  const id = harness.create({ tin: '76543210-3', country: 'CL' });
  harness.runAll();
  const first = harness.types();
  expect(first.filter((type) => type === 'data_source_run_batch.child_batches_ready')).toHaveLength(1);
  harness.events.length = 0;
  expect(harness.engine.revalidate('acme', id).ok).toBe(true);
  harness.runAll();
  const second = harness.types();
  expect(second).toContain('entity_validation.formation.ready');
  expect(second).toContain('data_source_run_batch.consolidated_report_ready');
  expect(second).not.toContain('data_source_run_batch.child_batches_ready');
  expect(second).not.toContain('entity_validation.stakeholder.created');
  const validation = harness.engine.getValidation('acme', id)!;
  expect(validation.data_source_run_batches).toHaveLength(2);
  expect(validation.related_entities).toHaveLength(1);
  expect(validation.data_source_run_batches[1]!.child_batches[0]!.entity_validation_id).toBe(validation.related_entities[0]!.id);
});

test('a related entity cannot be revalidated on its own, and an unknown id is not found', () => {
  const harness = startEngine({ scenarios: [HAPPY] });
  const id = harness.create({ tin: '76543210-3', country: 'CL' });
  harness.runAll();
  const partner = harness.engine.getValidation('acme', id)!.related_entities[0]!.id;
  expect(harness.engine.revalidate('acme', partner)).toMatchObject({ ok: false, code: 'conflict' });
  expect(harness.engine.revalidate('acme', 'evl_nope')).toMatchObject({ ok: false, code: 'not_found' });
});

test('a run in missing_input_data waits until input is supplied, then plays its next outcome', () => {
  const harness = startEngine({ scenarios: [WAITING] });
  const id = harness.create({ tin: '70000000-7', country: 'CL' });
  harness.runAll();
  const run = harness.engine.getValidation('acme', id)!.latest_data_source_runs[0]!;
  expect(run.status).toBe('missing_input_data');
  expect(harness.types()).toEqual([]);
  harness.clock.advance(60_000);
  expect(harness.engine.supplyInput('acme', run.id).ok).toBe(true);
  harness.runAll();
  expect(harness.types()).toEqual([
    'data_source_run_batch.data_source_run.ready',
    'data_source_run_batch.ready',
    'data_source_run_batch.child_batches_ready',
    'data_source_run_batch.consolidated_report_ready',
  ]);
  // Waiting since 10:00:05, input at 10:01:05, the next outcome takes 10 s.
  expect(harness.events[0]!.emittedAt).toBe('2026-01-15T10:01:15.000Z');
  expect(harness.engine.supplyInput('acme', run.id)).toMatchObject({ ok: false, code: 'conflict' });
  expect(harness.engine.supplyInput('acme', 'dsr_nope')).toMatchObject({ ok: false, code: 'not_found' });
});

test('child_batches_ready is not sent when the organization setting is off, and a scenario setting overrides it', () => {
  const off = startEngine({ scenarios: [HAPPY], settings: { child_batches_ready: false } });
  off.create({ tin: '76543210-3', country: 'CL' });
  off.runAll();
  expect(off.types()).not.toContain('data_source_run_batch.child_batches_ready');
  expect(off.types()).toContain('data_source_run_batch.consolidated_report_ready');

  const forced = startEngine({ scenarios: [{ ...HAPPY, settings: { child_batches_ready: true } }], settings: { child_batches_ready: false } });
  forced.create({ tin: '76543210-3', country: 'CL' });
  forced.runAll();
  expect(forced.types()).toContain('data_source_run_batch.child_batches_ready');
});

test("one organization never sees another organization's validation", () => {
  const harness = startEngine({ scenarios: [HAPPY] });
  const id = harness.create({ tin: '76543210-3', country: 'CL' });
  expect(harness.engine.getValidation('acme', id)).toBeDefined();
  expect(harness.engine.getValidation('globex', id)).toBeUndefined();
  const runId = harness.engine.getValidation('acme', id)!.latest_data_source_runs[0]!.id;
  expect(harness.engine.getRecords('globex', runId)).toBeUndefined();
  expect(harness.engine.supplyInput('globex', runId)).toMatchObject({ ok: false, code: 'not_found' });
});

test('records are empty until the run succeeded, then hold the scripted records', () => {
  const harness = startEngine({ scenarios: [TWO_PARTNERS] });
  const id = harness.create({ tin: '76086428-5', country: 'CL' });
  const runId = harness.engine.getValidation('acme', id)!.latest_data_source_runs[0]!.id;
  expect(harness.engine.getRecords('acme', runId)).toEqual({ data_source_run_id: runId, type: 'cl/sii', count: 0, records: [] });
  harness.runAll();
  expect(harness.engine.getRecords('acme', runId)).toEqual({ data_source_run_id: runId, type: 'cl/sii', count: 1, records: [{ activity: 'wholesale' }] });
  const latest = harness.engine.getValidation('acme', id)!.latest_data_source_runs[0]!;
  expect(latest.data).toEqual({ id: runId, sii: { count: 1, records_url: `/api/v2/data_source_runs/${runId}/records` } });
});

test('a scenario named by the create call plays for any TIN, with the TIN of the call', () => {
  const harness = startEngine({ scenarios: [HAPPY, TWO_PARTNERS] });
  const id = harness.create({ tin: '99999999-9', country: 'CL' }, 'two-partners');
  const validation = harness.engine.getValidation('acme', id)!;
  expect(validation.tin).toBe('99999999-9');
  expect(validation.name).toBe('Comercial Andes SpA');
  expect(harness.engine.createValidation({ organizationId: 'acme', request: { tin: '1-9', country: 'CL' }, scenarioName: 'nope' })).toMatchObject({
    ok: false,
    code: 'scenario_not_found',
  });
});

test('the same seed gives byte-identical events, and another seed other ids', () => {
  const play = (seed: number) => {
    const harness = startEngine({ scenarios: [TWO_PARTNERS, HAPPY], seed });
    harness.create({ tin: '76086428-5', country: 'CL' });
    harness.create({ tin: '76543210-3', country: 'CL', webhook_url: 'https://client.example.com/hooks' });
    harness.runAll();
    return JSON.stringify(harness.events);
  };
  expect(play(7)).toBe(play(7));
  expect(play(7)).not.toBe(play(8));
});

test('reset forgets every validation and starts ids over', () => {
  const harness = startEngine({ scenarios: [HAPPY] });
  const first = harness.create({ tin: '76543210-3', country: 'CL' });
  harness.engine.reset();
  expect(harness.engine.getValidation('acme', first)).toBeUndefined();
  harness.clock.reset();
  expect(harness.create({ tin: '76543210-3', country: 'CL' })).toBe(first);
});

test('the legacy webhook_url is echoed on the validation and its main batch, and routed with every event', () => {
  const harness = startEngine({ scenarios: [HAPPY] });
  const id = harness.create({ tin: '76543210-3', country: 'CL', webhook_url: 'https://client.example.com/hooks' });
  harness.runAll();
  const validation = harness.engine.getValidation('acme', id)!;
  expect(validation.webhook).toMatchObject({
    id: expect.stringMatching(/^wbh_/),
    webhook_url: 'https://client.example.com/hooks',
    created_at: '2026-01-15T10:00:00.000Z',
  });
  expect(validation.data_source_run_batches[0]!.webhook).toEqual(validation.webhook);
  expect(validation.data_source_run_batches[0]!.child_batches[0]!.webhook).toBeNull();
  expect(new Set(harness.events.map((event) => event.legacyWebhookUrl))).toEqual(new Set(['https://client.example.com/hooks']));
});

test('the formation names partners by their validation ids and carries pre-signed URLs', () => {
  const harness = startEngine({ scenarios: [HAPPY] });
  const id = harness.create({ tin: '76543210-3', country: 'CL' });
  harness.runAll();
  const event = harness.events.find((candidate) => candidate.type === 'entity_validation.formation.ready')!;
  const formation = (
    event.body as { formation: { stakeholders: Array<{ entity_validation_id: string }>; legal_report_url: string; documents: Array<{ url: string }> } }
  ).formation;
  expect(formation.stakeholders[0]!.entity_validation_id).toBe(harness.engine.getValidation('acme', id)!.related_entities[0]!.id);
  expect(formation.legal_report_url).toMatch(/\/_mock\/files\/acme\/legal_reports\/dsrb_.+\.pdf\?expires=\d+&signature=/);
  expect(formation.documents[0]!.url).toMatch(/\/_mock\/files\/acme\/documents\/doc_.+\.pdf\?expires=/);
  expect(event.emittedAt).toBe('2026-01-15T10:00:30.000Z');
});
