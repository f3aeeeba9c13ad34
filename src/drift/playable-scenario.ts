import { Scenario, type ScenarioInput } from '../schemas';

/** Rounds of replacing values: one per nesting of the values replaced is plenty. */
const MAX_ROUNDS = 8;

/**
 * The scenario written from a recording, with every value the scenario format does not take replaced by the first it
 * does (a `category` or an alert `severity` the spec does not list, which the recording's contract check names as an
 * `unseen_value`), so the tree still plays and its events can be compared. Answers the scenario and the values replaced.
 */
export function playableScenario(input: ScenarioInput): { scenario: ScenarioInput; replaced: string[] } {
  const scenario = structuredClone(input);
  const replaced: string[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const parsed = Scenario.safeParse(scenario);
    if (parsed.success) break;
    let changed = false;
    for (const issue of parsed.error.issues) {
      if (issue.code !== 'invalid_value' || issue.values.length === 0 || issue.path.length === 0) continue;
      let parent: Record<PropertyKey, unknown> = scenario as unknown as Record<PropertyKey, unknown>;
      for (const key of issue.path.slice(0, -1)) parent = parent[key as PropertyKey] as Record<PropertyKey, unknown>;
      const key = issue.path.at(-1) as PropertyKey;
      replaced.push(
        `$${issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}: ${JSON.stringify(parent[key])} played as ${JSON.stringify(issue.values[0])}`,
      );
      parent[key] = issue.values[0];
      changed = true;
    }
    if (!changed) break;
  }
  return { scenario, replaced };
}
