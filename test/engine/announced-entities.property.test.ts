import fc from 'fast-check';
import type { DataSourceRunBatch, EntityValidation } from '../../src/schemas';
import { entityOf, shape } from '../support/tree-shapes';
import { scenario, startEngine } from '../support/engine-harness';
import { unannounced } from './announced-entities';

// No event names an entity before the stakeholder.created that announces it, and a validation identifies
// every child batch below it from its related_entities, over trees of any shape: partners of partners, any
// run discovering partners, a formation read from any run, at any time, before or after the discovery.

function childIds(batches: readonly DataSourceRunBatch[]): string[] {
  return batches.flatMap((batch) => [...batch.child_batches.map((child) => child.entity_validation_id), ...childIds(batch.child_batches)]);
}

test('over trees of any shape, no event names a partner before a stakeholder.created announced it, and every validation payload identifies its child batches', () => {
  fc.assert(
    fc.property(shape(3), (root) => {
      let count = 0;
      const entity = entityOf(root, () => `7600${String((count += 1)).padStart(4, '0')}-1`);
      const tree = scenario({ name: 'shaped', description: 'A tree of a generated shape.', tins: [entity.tin], entity });
      const harness = startEngine({ scenarios: [tree] });
      const id = harness.create({ tin: entity.tin, country: 'CL' });
      harness.runAll();
      expect(harness.engine.revalidate('acme', id).ok).toBe(true);
      harness.runAll();
      expect(unannounced(harness.events)).toEqual([]);
      const validations = harness.events
        .filter((event) => event.type === 'entity_validation.stakeholder.created')
        .map((event) => (event.body as { stakeholder: EntityValidation }).stakeholder);
      validations.push(harness.engine.getValidation('acme', id)!);
      for (const validation of validations) {
        const related = new Set(validation.related_entities.map((related) => related.id));
        expect(related.size).toBe(validation.related_entities.length);
        expect(childIds(validation.data_source_run_batches).filter((child) => !related.has(child))).toEqual([]);
      }
      // The main validation lists every partner of the tree once the tree has played.
      expect(harness.engine.getValidation('acme', id)!.related_entities).toHaveLength(count - 1);
    }),
    { numRuns: 150 },
  );
});
