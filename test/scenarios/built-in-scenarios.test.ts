import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { BUILT_IN_SCENARIOS_DIR, ScenarioLibrary, isValidRut, loadScenarioFile, scenarioTins } from '../../src/engine/scenarios';
import type { Scenario, ScenarioPartner } from '../../src/schemas';
import { BUILT_IN_SCENARIO_NAMES } from '../support/built-in-tins';
import { ambiguousTies, commentedEvents, expectedEvents, formatTime, type TimelineOptions } from './expected-events';

const NAMES = BUILT_IN_SCENARIO_NAMES;

/** How each scenario is played for its comment block: missing-input-data gets its input at 2:00, as the comment says. */
const PLAY: Record<string, TimelineOptions> = { 'missing-input-data': { inputAt: 120_000 } };

const files = readdirSync(BUILT_IN_SCENARIOS_DIR)
  .filter((name) => /\.(ya?ml|json)$/.test(name))
  .sort();
const scenarios = files.map((name) => {
  const file = path.join(BUILT_IN_SCENARIOS_DIR, name);
  const result = loadScenarioFile(file);
  if (!result.ok) throw new Error(result.issues.map((issue) => `${issue.file}:${issue.line}: ${issue.path}: ${issue.message}`).join('\n'));
  return { name, file, text: readFileSync(file, 'utf8'), scenario: result.value };
});

function everyEntity(scenario: Scenario): Array<ScenarioPartner | Scenario['entity']> {
  const walk = (entity: ScenarioPartner | Scenario['entity']): Array<ScenarioPartner | Scenario['entity']> => [
    entity,
    ...(entity.partners ?? []).flatMap(walk),
  ];
  return walk(scenario.entity);
}

test('the built-in library holds exactly the ten documented scenarios, one file each named after it', () => {
  const library = ScenarioLibrary.builtIn();
  expect(library.list().map((summary) => summary.name)).toEqual(NAMES);
  expect(files).toEqual(NAMES.map((name) => `${name}.yaml`));
  for (const { name, scenario } of scenarios) expect(`${scenario.name}.yaml`).toBe(name);
  expect(library.list().every((summary) => summary.builtIn)).toBe(true);
});

test("no TIN appears in two built-in scenarios, whether claimed or a partner's", () => {
  const owners = new Map<string, string>();
  for (const { scenario } of scenarios) {
    const tins = new Set([...scenarioTins(scenario), ...everyEntity(scenario).map((entity) => entity.tin)]);
    for (const tin of tins) {
      expect(owners.get(tin) ?? scenario.name).toBe(scenario.name);
      owners.set(tin, scenario.name);
    }
  }
});

test.each(scenarios.map(({ scenario }) => [scenario.name, scenario] as const))('%s uses valid Chilean RUTs for its Chilean entities', (_name, scenario) => {
  for (const entity of everyEntity(scenario)) {
    if ((('country' in entity && entity.country) || scenario.entity.country) === 'CL') expect([entity.tin, isValidRut(entity.tin)]).toEqual([entity.tin, true]);
  }
});

test.each(scenarios.map(({ scenario, text }) => [scenario.name, scenario, text] as const))(
  '%s begins with a comment block naming what it shows, its spec section and its TINs',
  (_name, scenario, text) => {
    const header = text.slice(0, text.indexOf('\nname:'));
    expect(header.split('\n').every((line) => line.startsWith('#'))).toBe(true);
    expect(header).toMatch(/^# Shows: [\s\S]*spec §\d[\s\S]*^# TINs: /m);
    for (const tin of scenarioTins(scenario))
      expect(header).toMatch(new RegExp(`^# TINs: ${tin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} selects this scenario`, 'm'));
  },
);

test.each(scenarios.map(({ scenario, text }) => [scenario.name, scenario, text] as const))(
  '%s lists in its comment block the events it plays, in order, with their times',
  (name, scenario, text) => {
    const events = expectedEvents(scenario, PLAY[name] ?? {});
    expect(commentedEvents(text)).toEqual(events.map((event) => [formatTime(event.at), event.type]));
    // Events that the engine could order either way would make the list a guess.
    expect(ambiguousTies(events)).toEqual([]);
  },
);

test.each(scenarios.map(({ scenario }) => [scenario.name, scenario] as const))(
  '%s completes within 1 to 3 simulated minutes, unless waiting is its point',
  (name, scenario) => {
    const events = expectedEvents(scenario, PLAY[name] ?? {});
    const last = events[events.length - 1]!;
    if (name === 'missing-input-data') {
      // Without input, the tree never completes: no batch ready, no report.
      expect(expectedEvents(scenario).map((event) => event.type)).not.toContain('data_source_run_batch.ready');
      return;
    }
    expect(last.at).toBeGreaterThanOrEqual(60_000);
    expect(last.at).toBeLessThanOrEqual(180_000);
  },
);

test('large-tree has 50 partners, each with one or two runs', () => {
  const large = scenarios.find(({ scenario }) => scenario.name === 'large-tree')!.scenario;
  expect(large.entity.partners).toHaveLength(50);
  for (const partner of large.entity.partners!) expect(partner.runs.length).toBeGreaterThanOrEqual(1);
  for (const partner of large.entity.partners!) expect(partner.runs.length).toBeLessThanOrEqual(2);
  expect(
    new Set(large.entity.partners!.flatMap((partner) => partner.runs.map((run) => run.outcomes.reduce((sum, outcome) => sum + outcome.after, 0)))).size,
  ).toBeGreaterThan(40);
});

test('the scenarios that show failures fail where their names say', () => {
  const byName = new Map(scenarios.map(({ scenario }) => [scenario.name, scenario]));
  const statuses = (entity: ScenarioPartner | Scenario['entity']) => entity.runs.flatMap((run) => run.outcomes.map((outcome) => outcome.status));
  expect(byName.get('main-definitive-error')!.entity.runs.some((run) => run.outcomes.at(-1)!.status === 'definitive_error')).toBe(true);
  expect(byName.get('partner-definitive-error')!.entity.partners!.flatMap(statuses)).toContain('definitive_error');
  expect(byName.get('partner-temporary-error')!.entity.partners!.flatMap(statuses)).toContain('temporary_error');
  expect(statuses(byName.get('missing-input-data')!.entity)).toContain('missing_input_data');
  expect(byName.get('information-request')!.information_request).toMatchObject({ always: true });
  expect(byName.get('cl-formation')!.entity.formation!.stakeholders.some((stakeholder) => stakeholder.faculties.length > 0)).toBe(true);
  for (const name of ['happy-no-partners', 'happy-partners', 'legacy-webhook', 'cl-formation', 'information-request', 'large-tree']) {
    expect([
      name,
      everyEntity(byName.get(name)!)
        .flatMap(statuses)
        .filter((status) => status !== 'succeeded' && status !== 'temporary_error'),
    ]).toEqual([name, []]);
  }
});
