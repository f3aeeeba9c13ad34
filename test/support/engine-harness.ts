import { createClock, type SimulatedClock } from '../../src/clock';
import { Engine, type EngineEvent, type PlaySettings, type ScenarioLookup } from '../../src/engine';
import { UrlSigner } from '../../src/reports/url-signer';
import { Scenario, type EntityValidationCreateFields, type ScenarioInput } from '../../src/schemas';

/** An engine on a manual clock with every event it emits collected. */
export interface EngineHarness {
  clock: SimulatedClock;
  engine: Engine;
  events: EngineEvent[];
  /** Creates a validation in organization `acme` and returns its id (throws if refused). */
  create(request: EntityValidationCreateFields, scenarioName?: string): string;
  /** Runs the clock until nothing is scheduled. */
  runAll(): void;
  /** The event types, in order. */
  types(): string[];
}

/** Options of {@link startEngine}. */
export interface HarnessOptions {
  /** Scenarios by name; the first one also plays for any TIN no scenario names. */
  scenarios?: Scenario[];
  source?: ScenarioLookup;
  seed?: number;
  settings?: PlaySettings;
}

/** Parses a scenario written inline in a test, in the file format. */
export function scenario(input: ScenarioInput): Scenario {
  return Scenario.parse(input);
}

/** Starts an engine for a test; no real timers are involved (manual clock). */
export function startEngine(options: HarnessOptions): EngineHarness {
  const clock = createClock({ mode: 'manual' });
  const list = options.scenarios ?? [];
  const source: ScenarioLookup = options.source ?? {
    byName: (name) => list.find((candidate) => candidate.name === name),
    forTin: (tin) => list.find((candidate) => (candidate.tins ?? [candidate.entity.tin]).includes(tin)),
  };
  const engine = new Engine({
    clock,
    seed: options.seed,
    scenarios: source,
    generate: () => {
      if (!list[0]) throw new Error('no scenario to play');
      return list[0];
    },
    signer: new UrlSigner('test-secret', 'https://127.0.0.1:4010'),
    settings: () => options.settings ?? { child_batches_ready: true },
  });
  const events: EngineEvent[] = [];
  engine.subscribe((event) => events.push(event));
  return {
    clock,
    engine,
    events,
    create(request, scenarioName) {
      const result = engine.createValidation({ organizationId: 'acme', request, scenarioName });
      if (!result.ok) throw new Error(result.message);
      return result.value.id;
    },
    runAll: () => clock.runAll(),
    types: () => events.map((event) => event.type),
  };
}
