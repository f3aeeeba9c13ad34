import fc from 'fast-check';
import { driftOf } from '../../src/drift/drift-run';
import { replayTree } from '../../src/drift/replay-tree';
import { mockParts } from '../../src/mock/create-mock';
import { treeFacts } from '../../src/proxy/recording-facts';
import { scenarioFromRecording } from '../../src/proxy/recording-scenario';
import { Scenario } from '../../src/schemas';
import { recordPlay } from '../support/recording-rig';
import { entityOf, shape } from '../support/tree-shapes';

// Over trees of any shape (partners of partners, any run discovering them, a formation from any run, temporary
// errors), a tree recorded through proxy and listen becomes a scenario that plays the same events at the same simulated
// offsets (each entity's in the same order), and `bvs-mock drift` finds no difference. The built-in scenarios are held
// to the whole order (recording-round-trip.test.ts), timers due at once included.

jest.setTimeout(120_000);

test('a recorded tree of any shape plays again with the same events at the same offsets, and shows no drift', async () => {
  await fc.assert(
    fc.asyncProperty(shape(3), async (root) => {
      let count = 0;
      const entity = entityOf(root, () => `7700${String((count += 1)).padStart(4, '0')}-1`);
      const tree = Scenario.parse({ name: 'shaped', description: 'A tree of a generated shape.', tins: [entity.tin], entity });
      const recorded = await recordPlay({
        tin: entity.tin,
        country: 'CL',
        prepare: (upstream) => {
          const added = mockParts(upstream).world.scenarios.add(tree);
          if (!added.ok) throw new Error(JSON.stringify(added.issues));
        },
      });
      // Two timers due at once (two runs, or a run and a formation, ending at the same instant) fire in the order they
      // were scheduled, which no payload carries: from-recording reads what it can of it (docs/fidelity.md row 131), and
      // the built-in scenarios are held to it; generated trees are held to everything else.
      const timed = recorded.emitted.filter(
        (event) => event.type === 'data_source_run_batch.data_source_run.ready' || event.type === 'entity_validation.formation.ready',
      );
      fc.pre(new Set(timed.map((event) => event.emitted_at)).size === timed.length);
      const start = Date.parse(recorded.createdAt);
      // Events due at the same instant for different entities have no order of their own (two timers due at once).
      const byInstant = (lines: string[]) => [...lines].sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
      const timeline = byInstant(recorded.emitted.map((event) => `${Date.parse(event.emitted_at) - start}ms ${event.type}`));
      const input = scenarioFromRecording([recorded.proxy, recorded.listen], { name: 'recorded' });
      const played = await replayTree(input, {});
      const facts = treeFacts(played.recordings, played.rootId);
      const playedStart = Date.parse(facts.entities.get(played.rootId)!.created_at!);
      expect(byInstant(facts.events.map((event) => `${event.at - playedStart}ms ${event.type}`))).toEqual(timeline);
      const report = await driftOf([recorded.proxy, recorded.listen], { files: [], toleranceMs: 0 });
      expect(report.differences).toEqual([]);
    }),
    { numRuns: 25 },
  );
});
