import { ScenarioLibrary } from '../../src/engine/scenarios';

/**
 * The TIN that selects each built-in scenario, read from the library itself so
 * tests cannot drift from `scenarios/*.yaml`.
 */
const library = ScenarioLibrary.builtIn();

function tinOf(name: string): string {
  const scenario = library.byName(name);
  if (!scenario) throw new Error(`built-in-tins: no built-in scenario named ${name}`);
  return scenario.tins?.[0] ?? scenario.entity.tin;
}

export const HAPPY_PARTNERS = tinOf('happy-partners');
export const HAPPY_NO_PARTNERS = tinOf('happy-no-partners');
export const CL_FORMATION = tinOf('cl-formation');
export const PARTNER_DEFINITIVE_ERROR = tinOf('partner-definitive-error');
export const MISSING_INPUT_DATA = tinOf('missing-input-data');
export const INFORMATION_REQUEST = tinOf('information-request');

/** The ten built-in scenarios docs/design.md lists, in name order: what the library must hold, written once. */
export const BUILT_IN_SCENARIO_NAMES: readonly string[] = [
  'cl-formation',
  'happy-no-partners',
  'happy-partners',
  'information-request',
  'large-tree',
  'legacy-webhook',
  'main-definitive-error',
  'missing-input-data',
  'partner-definitive-error',
  'partner-temporary-error',
];
