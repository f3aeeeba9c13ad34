import type { SimulatedClock } from '../clock';
import type { UrlSigner } from '../reports/url-signer';
import { DEFAULT_READINGS, type EntityValidationCreateFields, type Readings, type Scenario } from '../schemas';
import type { PlaySettings } from './engine-context';
import type { IdSource } from './id-source';

/** Where the engine finds scenarios: by name (the `X-Mock-Scenario` header) and by TIN. */
export interface ScenarioLookup {
  byName(name: string): Scenario | undefined;
  forTin(tin: string): Scenario | undefined;
  /** Every name, for the "did you mean" of an unknown one (none offered when absent). */
  scenarioNames?(): Iterable<string>;
}

/** Options of an {@link Engine}. */
export interface EngineOptions {
  clock: SimulatedClock;
  /** Seed of ids; the same seed, scenarios and calls give byte-identical payloads. Default 1. */
  seed?: number;
  /** The id source, when other parts (webhook endpoints, deliveries) share it; default: one made from `seed`. */
  ids?: IdSource;
  scenarios: ScenarioLookup;
  /** The tree played for a TIN no scenario names (docs/design.md, Scenarios). */
  generate: (input: { tin: string; country: string }) => Scenario;
  /** Signs report and document URLs (24 hours, spec §8). */
  signer: UrlSigner;
  /** Organization settings; default: child_batches_ready on. */
  settings?: (organizationId: string) => PlaySettings;
  /** The readings played where the spec contradicts itself; default: bvs-mock's choice for each (`DEFAULT_READINGS`). */
  readings?: Readings;
  /** Main validations kept with their trees; default {@link DEFAULT_MAX_VALIDATIONS} (docs/fidelity.md row 59). */
  maxValidations?: number;
}

/** Main validations a bvs-mock keeps by default; the oldest settled ones are evicted first. */
export const DEFAULT_MAX_VALIDATIONS = 2_500;

/** Input of {@link Engine.createValidation}. */
export interface CreateValidationInput {
  organizationId: string;
  request: EntityValidationCreateFields;
  /** A scenario chosen by name (the `X-Mock-Scenario` header), instead of by TIN. */
  scenarioName?: string;
  /** The label the creating request carried (`x-bvs-mock-label`): the delivery records of its tree show it. */
  label?: string;
}

/** The readings an engine plays: its options', else bvs-mock's default for each. */
export function readingsOf(options: EngineOptions): Readings {
  return options.readings ?? DEFAULT_READINGS;
}
