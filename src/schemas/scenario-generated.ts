import { CountryCode, Tin } from './primitives';
import { ScenarioName } from './scenario';
import { z } from './zod';

/**
 * A scenario written as a generated shape with parameters (docs/scenarios.md "Parameters at create time"):
 * a file, a `POST /_mock/scenarios` body or `control.addScenario` argument that names its main entity and
 * the parameters, for bvs-mock to write the tree. Told from a scenario file by its `generated` field.
 */
export const GeneratedScenarioSource = z.strictObject({
  name: ScenarioName,
  /** Default: what it was generated from. */
  description: z.string().min(1).optional(),
  /** The main entity's TIN: a create call with it plays the tree. It seeds the tree unless the parameters give a seed. */
  tin: Tin,
  country: CountryCode,
  /** The parameters, as after `X-Mock-Scenario: generated?`: `partners=5&fail=partner-3:definitive`; empty for the defaults. */
  generated: z.string(),
});

export type GeneratedScenarioSource = z.infer<typeof GeneratedScenarioSource>;
