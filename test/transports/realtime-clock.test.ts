import { mockParts } from '../../src/mock/create-mock';
import { createMock } from '../../src/http';
import type { EngineEvent } from '../../src/engine';

test('the realtime clock plays a scenario at its speed factor: a 65-second tree in a fraction of a second at x600', async () => {
  const mock = createMock({ clock: 'realtime', speed: 600 });
  const events: EngineEvent[] = [];
  mockParts(mock).world.engine.subscribe((event) => events.push(event));
  try {
    // A direct engine call holds the clock, as the API does around each request: at x600 one real
    // millisecond is 600 simulated ones, and the call must see one instant.
    const created = mockParts(mock).world.clock.hold(() =>
      mockParts(mock).world.engine.createValidation({ organizationId: 'default', request: { tin: '76354771-K', country: 'CL' } }),
    );
    if (!created.ok) throw new Error(created.message);
    // Nothing has happened yet: simulated time moves with the wall clock, not at once.
    expect(events).toEqual([]);
    await mock.drain();
    expect(events.map((event) => event.type).at(-1)).toBe('data_source_run_batch.consolidated_report_ready');
    // Simulated timestamps follow the scenario, whatever the speed: happy-no-partners ends 1:05 after creation.
    expect(Date.parse(events.at(-1)!.emittedAt) - Date.parse(created.value.created_at)).toBe(65_000);
  } finally {
    mock.dispose();
  }
});
