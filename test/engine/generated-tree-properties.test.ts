import fc from 'fast-check';
import { generateScenario } from '../../src/engine/scenarios';
import { EVENT_SCHEMAS, parseWith, type DataSourceRunBatch, type Scenario, type ScenarioPartner } from '../../src/schemas';
import { startEngine } from '../support/engine-harness';

const tinAndCountry = fc.record({
  tin: fc.stringMatching(/^[0-9]{7,8}-[0-9K]$/),
  country: fc.constantFrom('CL', 'MX', 'CO', 'PE', 'AR', 'US', 'ES'),
});

function play(input: { tin: string; country: string }, seed = 1) {
  const scenario = generateScenario(input);
  const harness = startEngine({ scenarios: [scenario], seed });
  const id = harness.create({ tin: input.tin, country: input.country });
  harness.runAll();
  return { scenario, harness, id };
}

function countRuns(entity: { runs: unknown[]; partners?: ScenarioPartner[] | undefined }): number {
  return entity.runs.length + (entity.partners ?? []).reduce((sum, partner) => sum + countRuns(partner), 0);
}

function countAlerts(entity: { alerts: unknown[]; partners?: ScenarioPartner[] | undefined }): number {
  return entity.alerts.length + (entity.partners ?? []).reduce((sum, partner) => sum + countAlerts(partner), 0);
}

function allAlerts(batch: DataSourceRunBatch): string[] {
  return [...batch.raised_alerts.map((alert) => alert.id), ...batch.child_batches.flatMap(allAlerts)];
}

const mainRunIds = (scenario: Scenario, batch: DataSourceRunBatch) => {
  expect(batch.data_source_runs).toHaveLength(scenario.entity.runs.length);
  return batch.data_source_runs.map((run) => run.id);
};

test('every run of the main entity is ready before its batch is ready', () => {
  fc.assert(
    fc.property(tinAndCountry, (input) => {
      const { scenario, harness } = play(input);
      const types = harness.types();
      const readyAt = types.indexOf('data_source_run_batch.ready');
      expect(readyAt).toBeGreaterThan(-1);
      const ready = harness.events[readyAt]!.body as { data_source_run_batch: DataSourceRunBatch };
      for (const runId of mainRunIds(scenario, ready.data_source_run_batch)) {
        const runReadyAt = harness.events.findIndex((event) => event.type === 'data_source_run_batch.data_source_run.ready' && event.resourceId === runId);
        expect(runReadyAt).toBeGreaterThan(-1);
        expect(runReadyAt).toBeLessThan(readyAt);
      }
    }),
    { numRuns: 60 },
  );
});

test('child_batches_ready fires exactly once, after every run of the tree, then the report', () => {
  fc.assert(
    fc.property(tinAndCountry, (input) => {
      const { scenario, harness } = play(input);
      const types = harness.types();
      expect(types.filter((type) => type === 'data_source_run_batch.child_batches_ready')).toHaveLength(1);
      expect(types.filter((type) => type === 'data_source_run_batch.consolidated_report_ready')).toHaveLength(1);
      const childBatchesReadyAt = types.indexOf('data_source_run_batch.child_batches_ready');
      const runReadies = types.flatMap((type, index) => (type === 'data_source_run_batch.data_source_run.ready' ? [index] : []));
      expect(runReadies).toHaveLength(countRuns(scenario.entity));
      expect(Math.max(...runReadies)).toBeLessThan(childBatchesReadyAt);
      expect(types.indexOf('data_source_run_batch.consolidated_report_ready')).toBeGreaterThan(childBatchesReadyAt);
      const batch = (harness.events[childBatchesReadyAt]!.body as { data_source_run_batch: DataSourceRunBatch }).data_source_run_batch;
      const everyChild = (b: DataSourceRunBatch): DataSourceRunBatch[] => b.child_batches.flatMap((child) => [child, ...everyChild(child)]);
      for (const child of everyChild(batch)) {
        expect(child).toMatchObject({ runs_succeeded: true, execution_type: 'related' });
      }
      // All alerts of a validation: the main batch's plus every child's (spec §6 rule 4).
      expect(allAlerts(batch)).toHaveLength(countAlerts(scenario.entity));
    }),
    { numRuns: 60 },
  );
});

test('every event of a generated tree validates against its schema', () => {
  fc.assert(
    fc.property(tinAndCountry, (input) => {
      for (const event of play(input).harness.events) {
        const result = parseWith(EVENT_SCHEMAS[event.type], event.body);
        expect(result.ok ? [] : result.issues).toEqual([]);
      }
    }),
    { numRuns: 40 },
  );
});

test('the same seed and TIN give byte-identical payloads and ids', () => {
  fc.assert(
    fc.property(tinAndCountry, fc.integer({ min: 0, max: 2 ** 31 - 1 }), (input, seed) => {
      const first = JSON.stringify(play(input, seed).harness.events);
      const second = JSON.stringify(play(input, seed).harness.events);
      expect(second).toBe(first);
    }),
    { numRuns: 30 },
  );
});
