import { describeProblems, type Scenario } from '../schemas';
import { done, refuse, type ActionResult } from './action-result';
import type { EngineOptions } from './engine-options';
import { didYouMean } from './scenarios/closest-names';
import { generateShapedScenario } from './scenarios/generate-shaped-scenario';
import { GENERATED_SHAPE } from './scenarios/scenario-parameters';

/** Where the problems of a create call's scenario parameters are answered. */
const SCENARIO_HEADER_PATH = '$headers["x-mock-scenario"]';

/** What a create call says about its scenario: its TIN and country, and the `X-Mock-Scenario` header. */
export interface ScenarioChoice {
  tin: string;
  country: string;
  scenarioName?: string | undefined;
}

/**
 * The scenario a create call plays: by name when given, else by TIN, else generated from the TIN. The name
 * `generated` plays the tree generated from the TIN even when a scenario claims it; `generated?PARAMETERS`
 * the tree the parameters ask for (docs/scenarios.md "Parameters at create time"), refused with every
 * problem at its path below `$headers["x-mock-scenario"]`.
 */
export function chooseScenario(options: Pick<EngineOptions, 'scenarios' | 'generate'>, input: ScenarioChoice): ActionResult<Scenario> {
  const { tin, country, scenarioName } = input;
  if (scenarioName === undefined) return done(options.scenarios.forTin(tin) ?? options.generate({ tin, country }));
  const question = scenarioName.indexOf('?');
  const name = question === -1 ? scenarioName : scenarioName.slice(0, question);
  if (name === GENERATED_SHAPE && question === -1) return done(options.generate({ tin, country }));
  if (question !== -1) {
    if (name !== GENERATED_SHAPE) {
      const message = `parameters are taken by the generated shape only (generated?partners=5&fail=partner-3:definitive); "${name}" plays as its file is written, so name it without "${scenarioName.slice(question)}"`;
      const issues = [{ path: SCENARIO_HEADER_PATH, code: 'invalid_parameter', message }];
      return refuse('invalid_scenario_parameters', describeProblems(issues, 'X-Mock-Scenario header'), issues);
    }
    const generated = generateShapedScenario({ tin, country, parameters: scenarioName.slice(question + 1), at: SCENARIO_HEADER_PATH });
    if (generated.ok) return generated;
    return refuse('invalid_scenario_parameters', describeProblems(generated.issues, 'X-Mock-Scenario header'), generated.issues);
  }
  const scenario = options.scenarios.byName(scenarioName);
  if (scenario) return done(scenario);
  const hint = didYouMean(scenarioName, options.scenarios.scenarioNames?.() ?? []);
  return refuse('scenario_not_found', `no scenario named "${scenarioName}".${hint} GET /_mock/scenarios lists them`);
}
