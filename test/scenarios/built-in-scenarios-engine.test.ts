import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BUILT_IN_SCENARIOS_DIR, ScenarioLibrary } from '../../src/engine/scenarios';
import { startEngine } from '../support/engine-harness';
import { commentedEvents, formatTime } from './expected-events';

// The sweep that keeps the comment blocks honest against the real engine, not only the reference
// reading in expected-events.ts: each built-in scenario, created by its TIN with the default
// organization settings, emits exactly the events its comment block lists, at the times it lists.
const library = ScenarioLibrary.builtIn();

test.each(library.list().map((summary) => summary.name))('the engine plays %s exactly as its comment block lists', (name) => {
  const scenario = library.byName(name)!;
  const harness = startEngine({ source: library });
  const start = harness.clock.now();
  const id = harness.create({ tin: scenario.entity.tin, country: scenario.entity.country });
  harness.runAll();
  if (name === 'missing-input-data') {
    // As the comment says: input is supplied at 2:00 to the run that waits for it.
    harness.clock.advance(start + 120_000 - harness.clock.now());
    const waiting = harness.engine.getValidation('acme', id)!.latest_data_source_runs.filter((run) => run.status === 'missing_input_data');
    expect(waiting).toHaveLength(1);
    expect(harness.engine.supplyInput('acme', waiting[0]!.id).ok).toBe(true);
    harness.runAll();
  }
  const played = harness.events.map((event) => [formatTime(Date.parse(event.emittedAt) - start), event.type]);
  const text = readFileSync(path.join(BUILT_IN_SCENARIOS_DIR, `${name}.yaml`), 'utf8');
  expect(played).toEqual(commentedEvents(text));
});
