import type { Scenario } from '../../schemas';

/**
 * The TINs that select a scenario on create: its `tins`, or else its main entity's TIN
 * (src/schemas/scenario.ts), without repeats.
 */
export function scenarioTins(scenario: Scenario): string[] {
  const tins = scenario.tins ?? [scenario.entity.tin];
  const seen = new Set<string>();
  return tins.filter((tin) => {
    const key = tinKey(tin);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The form in which TINs are compared when choosing a scenario: without dots and spaces, upper
 * case. Clients write the same Chilean RUT as `76.086.428-5` or `76086428-5`, and the check digit
 * `k` in either case; all of them must select the same scenario.
 *
 * @example tinKey('76.086.428-k') // '76086428-K'
 */
export function tinKey(tin: string): string {
  return tin.replace(/[.\s]/g, '').toUpperCase();
}
