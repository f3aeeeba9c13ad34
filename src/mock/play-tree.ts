import type { ActionResult } from '../engine';
import type { EntityValidation, Scenario } from '../schemas';
import { mockParts, type Mock } from './create-mock';

/** Options of {@link playTree}. */
export interface PlayTreeOptions {
  /** Called with each run of the tree given input after it waited in `missing_input_data`, at that simulated instant. */
  onInputSupplied?: (runId: string, at: string) => void;
  /** Revalidate the tree at these instants, ms after the create (each once the play before it has ended, time moved on to it). */
  revalidateAt?: readonly number[];
}

/**
 * Plays one validation tree of a scenario to its end in the mock's default organization, as `bvs-mock play` and
 * `bvs-mock drift` do: the validation is created with the scenario's first TIN (and its information request's
 * template), everything due is played, and a run that waits in `missing_input_data` gets its input once the rest
 * has played, until nothing waits; then each revalidation asked for is played the same way. Answers the validation
 * as created.
 */
export async function playTree(mock: Mock, scenario: Scenario, options: PlayTreeOptions = {}): Promise<ActionResult<EntityValidation>> {
  const { engine, registry, clock } = mockParts(mock).world;
  const created = engine.createValidation({
    organizationId: registry.defaultId,
    request: {
      tin: scenario.tins?.[0] ?? scenario.entity.tin,
      country: scenario.entity.country,
      ...(scenario.information_request ? { information_request: { template_id: scenario.information_request.template_id } } : {}),
    },
    scenarioName: scenario.name,
  });
  if (!created.ok) return created;
  const start = Date.parse(created.value.created_at);
  const playToEnd = async () => {
    for (;;) {
      await mock.drain();
      const runs = waitingRuns(mock, created.value.id);
      if (runs.length === 0) break;
      for (const run of runs) {
        options.onInputSupplied?.(run, clock.iso());
        engine.supplyInput(registry.defaultId, run);
      }
    }
  };
  await playToEnd();
  for (const at of options.revalidateAt ?? []) {
    const wait = start + at - mock.now().getTime();
    if (wait > 0) await mock.advance(wait);
    const revalidated = engine.revalidate(registry.defaultId, created.value.id);
    if (!revalidated.ok) return revalidated;
    await playToEnd();
  }
  return created;
}

/** Runs of a validation tree waiting in missing_input_data. */
function waitingRuns(mock: Mock, validationId: string): string[] {
  const { engine, registry } = mockParts(mock).world;
  const state = engine.organization(registry.defaultId);
  return [...state.runs.values()]
    .filter((run) => run.waitingForInput !== null && state.validations.get(run.validationId)?.rootId === validationId)
    .map((run) => run.id);
}
