import type { DataSourceRunBatch, EntityValidation, RaisedAlert } from '../../src/schemas';
import { expectApiError, useTestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS, MISSING_INPUT_DATA } from '../support/built-in-tins';
import { scenario, startEngine } from '../support/engine-harness';

// docs/fidelity.md row 79. A revalidation while the previous play still ran used to start a second,
// overlapping play (three revalidations, three trees interleaving their events); a partner's partner
// (possible in custom scenarios) had no written rule for related_entities and the alert union.

describe('revalidation over HTTP', () => {
  const t = useTestServer();
  const revalidate = (id: string) => t.json('POST', `/_mock/entity_validations/${id}/revalidate`, {});

  test('a revalidation while the previous play still runs is refused with 409, and does not start overlapping plays', async () => {
    const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
    const error = expectApiError(await revalidate(created.id), 409, 'conflict');
    expect(error.message).toMatch(/is still running: the steps it has scheduled so far end at \d{4}-\d\d-\d\dT.*POST \/_mock\/clock\/run/);
    expectApiError(await revalidate(created.id), 409, 'conflict');
    await t.runClock();
    expect((await revalidate(created.id)).status).toBe(202);
    expectApiError(await revalidate(created.id), 409, 'conflict');
    await t.runClock();
    const validation = (await t.get(`/api/v2/entity_validations/${created.id}`)).json<EntityValidation>();
    expect(validation.data_source_run_batches).toHaveLength(2);
    expect(t.events.filter((event) => event.type === 'data_source_run_batch.consolidated_report_ready')).toHaveLength(2);
  });

  test('a revalidation refused during a play names no instant it cannot keep: the play grew past "its last step due at T" (retries at T kept getting 409)', async () => {
    const created = await t.create({ tin: HAPPY_PARTNERS, country: 'CL' });
    const named: string[] = [];
    for (let tries = 0; tries < 10; tries += 1) {
      const answer = await revalidate(created.id);
      if (answer.status === 202) break;
      const error = expectApiError(answer, 409, 'conflict');
      // What it names: when the steps scheduled so far end, that the play may go on past it, and what plays it to its end.
      const at = /the steps it has scheduled so far end at (\S+), and it schedules more as it goes/.exec(error.message);
      expect(at).not.toBeNull();
      expect(error.message).toMatch(/POST \/_mock\/clock\/run plays it to its end/);
      named.push(at![1]!);
      const now = (await t.get('/_mock/clock')).json<{ now: string }>().now;
      await t.advance((Date.parse(at![1]!) - Date.parse(now)) / 1000);
    }
    expect(named.length).toBeGreaterThan(1); // the play did grow: a single "last step" instant would have been wrong
    expectApiError(await revalidate(created.id), 409, 'conflict');
    await t.runClock();
    expect((await revalidate(created.id)).status).toBe(202);
  });

  test('a play waiting for input is still running: the refusal names the run and how to give it input', async () => {
    const created = await t.create({ tin: MISSING_INPUT_DATA, country: 'CL' });
    await t.runClock();
    const error = expectApiError(await revalidate(created.id), 409, 'conflict');
    expect(error.message).toMatch(/its run dsr_\w+ waits for input \(POST \/_mock\/data_source_runs\/dsr_\w+\/input\)/);
  });
});

const NESTED = scenario({
  name: 'nested-partners',
  description: 'A holding whose partner company has a partner of its own.',
  tins: ['76333333-3'],
  entity: {
    tin: '76333333-3',
    country: 'CL',
    category: 'business',
    name: 'Holding Tres SpA',
    runs: [{ type: 'cl/registry', outcomes: [{ succeeded: '10s' }] }],
    alerts: [{ name: 'Registry inconsistency', severity: 'medium' }],
    partners: [
      {
        tin: '76444444-4',
        category: 'business',
        name: 'Filial Cuatro SpA',
        runs: [{ type: 'cl/registry', outcomes: [{ succeeded: '10s' }] }],
        partners: [
          {
            tin: '15555555-5',
            category: 'person',
            name: 'Quinta',
            surname: 'Persona',
            runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '30s' }] }],
            alerts: [{ name: 'PEP match', severity: 'high' }],
          },
        ],
      },
    ],
  },
});

test("a partner's partner is announced by its own parent, listed by every validation above it, its batch nests under its parent's, and its alerts are in the union", () => {
  const harness = startEngine({ scenarios: [NESTED] });
  const id = harness.create({ tin: '76333333-3', country: 'CL' });
  harness.runAll();
  const root = harness.engine.getValidation('acme', id)!;
  expect(root.related_entities.map((entity) => entity.tin)).toEqual(['76444444-4', '15555555-5']);
  const partner = harness.engine.getValidation('acme', root.related_entities[0]!.id)!;
  expect(partner.related_entities.map((entity) => entity.tin)).toEqual(['15555555-5']);

  const announced = harness.events
    .filter((event) => event.type === 'entity_validation.stakeholder.created')
    .map((event) => (event.body as { stakeholder: EntityValidation }).stakeholder.tin);
  expect(announced).toEqual(['76333333-3', '76444444-4']);

  const ready = harness.events.filter((event) => event.type === 'data_source_run_batch.child_batches_ready');
  expect(ready).toHaveLength(1);
  const grandchildDone = harness.events.find(
    (event) =>
      event.type === 'data_source_run_batch.data_source_run.ready' && (event.body as { data_source_run: { type: string } }).data_source_run.type === 'cl/pep',
  )!;
  expect(ready[0]!.emittedAt >= grandchildDone.emittedAt).toBe(true);
  const main = (ready[0]!.body as { data_source_run_batch: DataSourceRunBatch }).data_source_run_batch;
  const child = main.child_batches[0]!;
  const grandchild = child.child_batches[0]!;
  expect([child.tin, grandchild.tin, grandchild.parent_batch_id]).toEqual(['76444444-4', '15555555-5', child.id]);
  const union = (batch: DataSourceRunBatch): RaisedAlert[] => [...batch.raised_alerts, ...batch.child_batches.flatMap(union)];
  expect(
    union(main)
      .map((alert) => alert.name)
      .sort(),
  ).toEqual(['PEP match', 'Registry inconsistency']);
});
