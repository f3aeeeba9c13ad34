import { ScenarioLibrary } from '../engine/scenarios';

/** The built-in scenarios by a name a test can write without quotes. */
const BUILT_IN = {
  clFormation: 'cl-formation',
  happyNoPartners: 'happy-no-partners',
  happyPartners: 'happy-partners',
  informationRequest: 'information-request',
  largeTree: 'large-tree',
  legacyWebhook: 'legacy-webhook',
  mainDefinitiveError: 'main-definitive-error',
  missingInputData: 'missing-input-data',
  partnerDefinitiveError: 'partner-definitive-error',
  partnerTemporaryError: 'partner-temporary-error',
} as const;

/** A built-in scenario: its name (for `X-Mock-Scenario`), the TIN that selects it, and its country. */
export interface BuiltInScenario<N extends string = string> {
  readonly name: N;
  readonly tin: string;
  readonly country: string;
}

type BuiltInScenarios = { readonly [K in keyof typeof BUILT_IN]: BuiltInScenario<(typeof BUILT_IN)[K]> };

/**
 * The built-in scenarios (docs/scenarios.md), read from the scenario files themselves, so a test never
 * copies a TIN.
 *
 * @example
 * await api.createValidation({ tin: SCENARIOS.happyPartners.tin, country: SCENARIOS.happyPartners.country });
 */
export const SCENARIOS: BuiltInScenarios = (() => {
  const library = ScenarioLibrary.builtIn();
  const entries = Object.entries(BUILT_IN).map(([key, name]) => {
    const scenario = library.byName(name);
    if (!scenario) throw new Error(`bvs-mock: the built-in scenario ${name} is missing from the package's scenarios/ folder`);
    return [key, Object.freeze({ name, tin: scenario.tins?.[0] ?? scenario.entity.tin, country: scenario.entity.country })];
  });
  return Object.freeze(Object.fromEntries(entries)) as BuiltInScenarios;
})();
