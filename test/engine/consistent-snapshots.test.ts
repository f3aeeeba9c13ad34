import { ScenarioLibrary } from '../../src/engine/scenarios';
import type { DataSourceRunBatch, EntityValidation } from '../../src/schemas';
import { startEngine } from '../support/engine-harness';
import { PARTNER_DEFINITIVE_ERROR } from '../support/built-in-tins';

// Every payload shows one instant (docs/fidelity.md row 76). In partner-definitive-error at 0:45,
// stakeholder.created used to show the main batch with both runs succeeded but runs_succeeded false (the
// ready right after said true), and every stakeholder.created showed the partners' batches with
// data_source_runs: [] although their runs were created at that same instant.

const library = ScenarioLibrary.builtIn();

/** Every batch in a payload: the resource itself when it is a batch, and each batch of a validation, with their child batches. */
function batchesIn(body: Record<string, unknown>): DataSourceRunBatch[] {
  const all: DataSourceRunBatch[] = [];
  const walk = (batch: DataSourceRunBatch) => {
    all.push(batch);
    batch.child_batches.forEach(walk);
  };
  for (const resource of Object.values(body)) {
    if (typeof resource !== 'object' || resource === null) continue;
    if ('runs_succeeded' in resource) walk(resource as DataSourceRunBatch);
    if ('data_source_run_batches' in resource) (resource as EntityValidation).data_source_run_batches.forEach(walk);
    if ('data_source_run_batch' in resource && resource.data_source_run_batch) walk(resource.data_source_run_batch as DataSourceRunBatch);
  }
  return all;
}

function play(tin: string, country = 'CL') {
  const harness = startEngine({ source: library });
  const start = harness.clock.now();
  harness.create({ tin, country });
  harness.runAll();
  return { harness, start };
}

test('stakeholder.created never shows runs_succeeded false beside only succeeded runs (partner-definitive-error at 0:45)', () => {
  const { harness, start } = play(PARTNER_DEFINITIVE_ERROR);
  const created = harness.events.find((event) => event.type === 'entity_validation.stakeholder.created')!;
  expect(Date.parse(created.emittedAt) - start).toBe(45_000);
  const main = (created.body as { stakeholder: EntityValidation }).stakeholder.data_source_run_batches[0]!;
  expect(main.data_source_runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded']);
  expect(main.runs_succeeded).toBe(true);
  const ready = harness.events.find((event) => event.type === 'data_source_run_batch.ready')!;
  expect(ready.emittedAt).toBe(created.emittedAt);
  expect((ready.body as { data_source_run_batch: DataSourceRunBatch }).data_source_run_batch.runs_succeeded).toBe(true);
});

test("stakeholder.created lists the child batches' runs created at the same instant", () => {
  const { harness } = play(PARTNER_DEFINITIVE_ERROR);
  const created = harness.events.find((event) => event.type === 'entity_validation.stakeholder.created')!;
  const children = (created.body as { stakeholder: EntityValidation }).stakeholder.data_source_run_batches[0]!.child_batches;
  expect(children.length).toBeGreaterThan(0);
  for (const child of children) {
    expect(child.data_source_runs.length).toBeGreaterThan(0);
    for (const run of child.data_source_runs) expect(run.created_at).toBe(created.emittedAt);
  }
});

test.each(library.list().map((summary) => [summary.name, summary.tins[0]!] as const))(
  '%s: in every payload, runs_succeeded is true exactly when every run shown succeeded, and no batch shows an empty run list',
  (_name, tin) => {
    const { harness } = play(tin);
    let batches = 0;
    for (const event of harness.events) {
      for (const batch of batchesIn(event.body as Record<string, unknown>)) {
        batches += 1;
        const where = `${event.type} at ${event.emittedAt}, batch ${batch.id}`;
        expect({ where, runs: batch.data_source_runs.length > 0 }).toEqual({ where, runs: true });
        const allSucceeded = batch.data_source_runs.every((run) => run.status === 'succeeded');
        expect({ where, runs_succeeded: batch.runs_succeeded }).toEqual({ where, runs_succeeded: allSucceeded });
      }
    }
    expect(batches).toBeGreaterThan(0);
  },
);
