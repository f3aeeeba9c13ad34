import fc from 'fast-check';
import type { DataSourceRunBatch, EntityValidation, ScenarioInput } from '../../src/schemas';
import { scenario, startEngine } from '../support/engine-harness';
import { unannounced } from './announced-entities';

// No event names an entity before the stakeholder.created that announces it, and a validation identifies
// every child batch below it from its related_entities, over trees of any shape: partners of partners, any
// run discovering partners, a formation read from any run, at any time, before or after the discovery.

type EntityInput = ScenarioInput['entity'];
type PartnerInput = NonNullable<EntityInput['partners']>[number];

const RUN_TYPES = ['cl/sii', 'cl/registry', 'cl/pep'] as const;

/** The shape of an entity: its runs (type and seconds to success), which run discovers, its formation, its partners. */
interface Shape {
  runs: Array<{ type: (typeof RUN_TYPES)[number]; seconds: number; retried: boolean }>;
  discoveredBy: number;
  formation: { sourceRun: number; readyAfter: number; stakeholders: number } | null;
  partners: Shape[];
}

const shape: fc.Memo<Shape> = fc.memo((depth) =>
  fc.record({
    runs: fc.uniqueArray(fc.record({ type: fc.constantFrom(...RUN_TYPES), seconds: fc.integer({ min: 0, max: 60 }), retried: fc.boolean() }), {
      minLength: 1,
      maxLength: 3,
      selector: (run) => run.type,
    }),
    discoveredBy: fc.nat(2),
    formation: fc.option(fc.record({ sourceRun: fc.nat(2), readyAfter: fc.integer({ min: 0, max: 40 }), stakeholders: fc.nat(3) })),
    partners: depth <= 1 ? fc.constant([]) : fc.array(shape(depth - 1), { maxLength: 2 }),
  }),
);

/** The scenario entity of a shape: every entity a business of Chile (so any may have a formation), TINs numbered. */
function entityOf(node: Shape, next: () => string): EntityInput & PartnerInput {
  const runs = node.runs.map((run) => ({
    type: run.type,
    outcomes: run.retried ? [{ temporary_error: '5s' }, { succeeded: `${run.seconds}s` }] : [{ succeeded: `${run.seconds}s` }],
  }));
  const partners = node.partners.map((partner) => entityOf(partner, next));
  const stakeholders = partners.slice(0, node.formation?.stakeholders ?? 0).map((partner) => ({ tin: partner.tin, roles: ['shareholder' as const] }));
  return {
    tin: next(),
    country: 'CL',
    category: 'business',
    name: 'Sociedad SpA',
    runs,
    partners_discovered_by: runs[node.discoveredBy % runs.length]!.type,
    ...(partners.length > 0 ? { partners } : {}),
    ...(node.formation === null
      ? {}
      : {
          formation: {
            company_type: 'Sociedad por Acciones',
            constitution_date: '2020-01-02',
            activity_description: 'Inversiones',
            administration: { administration_type: 'Gerente general', simple_signature: true },
            equity: { total_amount: 1000, total_shares: 10 },
            stakeholders,
            source_run: runs[node.formation.sourceRun % runs.length]!.type,
            ready_after: `${node.formation.readyAfter}s`,
          },
        }),
  };
}

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
