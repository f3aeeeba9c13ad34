import { generateScenario } from '../../src/engine/scenarios';
import { ScenarioLibrary } from '../../src/engine/scenarios';
import type { EntityValidation } from '../../src/schemas';
import { scenario, startEngine, type HarnessOptions } from '../support/engine-harness';

// Count, records and alerts agree (docs/fidelity.md row 78). bbs_ (bankruptcy bulletin search result,
// spec §2 Ids) never appeared, and the large tree's cl/bankruptcy_bulletin run reported count: 0 while
// raising a "Bankruptcy record" alert.

const library = ScenarioLibrary.builtIn();

/** Plays a scenario to its end and returns every run of the tree with its records, and for each run whether its script raises an alert. */
function playedRuns(source: HarnessOptions, tin: string) {
  const harness = startEngine(source);
  const id = harness.create({ tin, country: 'CL' });
  harness.runAll();
  const root = harness.engine.getValidation('acme', id)!;
  const script = source.scenarios?.[0] ?? library.forTin(tin)!;
  // The alerts each entity's script raises, by run type (raised_by, else the entity's first run).
  const raisers = new Map<string, Set<string>>();
  const collect = (entity: { tin: string; runs: Array<{ type: string }>; alerts?: Array<{ raised_by?: string }>; partners?: unknown[] }, key: string) => {
    raisers.set(key, new Set((entity.alerts ?? []).map((alert) => alert.raised_by ?? entity.runs[0]!.type)));
    for (const partner of (entity.partners ?? []) as Array<typeof entity>) collect(partner, partner.tin);
  };
  collect({ ...script.entity, alerts: script.entity.alerts }, root.tin);
  const validations = [root, ...root.related_entities.map((related) => harness.engine.getValidation('acme', related.id)!)];
  return validations.flatMap((validation: EntityValidation) =>
    validation.latest_data_source_runs.map((run) => {
      const records = harness.engine.getRecords('acme', run.id)!;
      const source = run.type.slice(run.type.indexOf('/') + 1);
      const raisesAlert = validation.tin === root.tin ? raisers.get(root.tin)!.has(run.type) : (raisers.get(validation.tin)?.has(run.type) ?? false);
      return { run, records, count: (run.data[source] as { count: number }).count, raisesAlert };
    }),
  );
}

test('a bankruptcy bulletin run that raises a Bankruptcy record alert reports its records with bbs_ ids and a count that matches', () => {
  const large = library.byName('large-tree')!;
  const runs = playedRuns({ source: library }, large.tins?.[0] ?? large.entity.tin);
  const bulletin = runs.find(({ run }) => run.type === 'cl/bankruptcy_bulletin')!;
  expect(bulletin.raisesAlert).toBe(true);
  expect(bulletin.count).toBeGreaterThan(0);
  expect(bulletin.records.count).toBe(bulletin.count);
  expect(bulletin.records.records).toHaveLength(bulletin.count);
  for (const record of bulletin.records.records) expect(record.id).toMatch(/^bbs_[A-Za-z0-9_-]+$/);
});

test('records read twice are the same: bbs_ ids are given once, when the run succeeds', () => {
  const large = library.byName('large-tree')!;
  const harness = startEngine({ source: library });
  const id = harness.create({ tin: large.tins?.[0] ?? large.entity.tin, country: 'CL' });
  harness.runAll();
  const run = harness.engine.getValidation('acme', id)!.latest_data_source_runs.find((candidate) => candidate.type === 'cl/bankruptcy_bulletin')!;
  expect(harness.engine.getRecords('acme', run.id)).toEqual(harness.engine.getRecords('acme', run.id));
});

test('a run whose script raises an alert but lists no records reports one record per finding, not count 0', () => {
  const custom = scenario({
    name: 'alert-without-records',
    description: 'A PEP alert with no records in the script.',
    tins: ['76111111-6'],
    entity: {
      tin: '76111111-6',
      country: 'CL',
      category: 'business',
      name: 'Sin Registros SpA',
      runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '5s' }] }],
      alerts: [{ name: 'PEP match', severity: 'high', raised_by: 'cl/pep' }],
    },
  });
  const [pep] = playedRuns({ scenarios: [custom] }, '76111111-6');
  expect(pep!.count).toBe(1);
  expect(pep!.records.records).toEqual([{ finding: 'PEP match', severity: 'high', raised_alert_id: expect.stringMatching(/^rlal_/) }]);
});

const generatedTins = Array.from({ length: 40 }, (_, index) => `76${String(100000 + index * 7919).padStart(6, '0')}-${index % 10}`);

test.each([
  ...library.list().map((summary): [string, HarnessOptions, string] => [summary.name, { source: library }, summary.tins[0]!]),
  ...generatedTins.map((tin): [string, HarnessOptions, string] => [`generated ${tin}`, { scenarios: [generateScenario({ tin, country: 'CL' })] }, tin]),
])('%s: every run that raises an alert has records behind it, count equals the records, and bankruptcy results carry bbs_ ids', (_name, source, tin) => {
  for (const { run, records, count, raisesAlert } of playedRuns(source, tin)) {
    const where = `${run.type} ${run.id}`;
    expect({ where, count }).toEqual({ where, count: records.records.length });
    expect({ where, count: records.count }).toEqual({ where, count });
    if (raisesAlert && run.status === 'succeeded') expect({ where, hasRecords: count > 0 }).toEqual({ where, hasRecords: true });
    if (run.type.endsWith('/bankruptcy_bulletin')) for (const record of records.records) expect(String(record.id)).toMatch(/^bbs_/);
  }
});
