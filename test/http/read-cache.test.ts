import { mockParts } from '../../src/mock/create-mock';
import type { EntityValidation } from '../../src/schemas';
import { startDeliveryHarness } from '../support/delivery-harness';
import { HAPPY_PARTNERS } from '../support/built-in-tins';

/**
 * A validation's answer is kept serialized between changes of state (bench:api):
 * these prove a read never shows a state older than the last change, however it happened.
 */

const key = { authorization: 'Bearer test_key_default' };

test('a read after the clock moves, an API action, or a direct engine call shows the new state', async () => {
  const harness = startDeliveryHarness({ clock: 'manual' });
  try {
    const id = harness.create(HAPPY_PARTNERS);
    const read = async () => (await harness.call('GET', `/api/v2/entity_validations/${id}`, undefined, key)).json<EntityValidation>();
    const first = await read();
    expect(first.latest_data_source_runs.every((run) => run.status === 'created')).toBe(true);
    expect(await read()).toEqual(first);
    // The clock fires the runs' outcomes.
    mockParts(harness.mock).world.clock.advance(600_000);
    const played = await read();
    expect(played.latest_data_source_runs.every((run) => run.status === 'succeeded')).toBe(true);
    // A control API action.
    expect((await harness.call('POST', `/_mock/entity_validations/${id}/revalidate`, {})).status).toBe(202);
    expect((await read()).data_source_run_batches).toHaveLength(2);
    // The second play ends (one play of a tree at a time), and a read keeps that state.
    mockParts(harness.mock).world.clock.advance(600_000);
    expect((await read()).latest_data_source_runs.every((run) => run.status === 'succeeded')).toBe(true);
    // A direct call on the engine, with no request and no timer in between.
    const again = mockParts(harness.mock).world.engine.revalidate(mockParts(harness.mock).world.registry.defaultId, id);
    expect(again.ok).toBe(true);
    expect((await read()).data_source_run_batches).toHaveLength(3);
  } finally {
    harness.mock.dispose();
  }
});

test('two mocks in one process never share kept answers, even with the same ids and versions', async () => {
  const first = startDeliveryHarness({ clock: 'manual', seed: 1 });
  const second = startDeliveryHarness({ clock: 'manual', seed: 1 });
  try {
    const id = first.create(HAPPY_PARTNERS);
    expect(second.create(HAPPY_PARTNERS)).toBe(id);
    // Both trees end (a revalidation waits for the play to end), at the same clock version.
    mockParts(first.mock).world.clock.advance(600_000);
    mockParts(second.mock).world.clock.advance(600_000);
    const organization = mockParts(first.mock).world.registry.defaultId;
    // One action each, so both stand at the same version with different states.
    expect(mockParts(first.mock).world.engine.generateConsolidatedReport(organization, 'dsrb_none').ok).toBe(false);
    expect(mockParts(second.mock).world.engine.revalidate(organization, id).ok).toBe(true);
    const read = async (harness: typeof first) => (await harness.call('GET', `/api/v2/entity_validations/${id}`, undefined, key)).json<EntityValidation>();
    expect((await read(first)).data_source_run_batches).toHaveLength(1);
    expect((await read(second)).data_source_run_batches).toHaveLength(2);
  } finally {
    first.mock.dispose();
    second.mock.dispose();
  }
});
