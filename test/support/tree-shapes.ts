import fc from 'fast-check';
import type { ScenarioInput } from '../../src/schemas';

// Validation trees of any shape, as scenario entities: partners of partners, any run discovering partners, a
// formation read from any run, at any time, before or after the discovery.

type EntityInput = ScenarioInput['entity'];
type PartnerInput = NonNullable<EntityInput['partners']>[number];

const RUN_TYPES = ['cl/sii', 'cl/registry', 'cl/pep'] as const;

/** The shape of an entity: its runs (type and seconds to success), which run discovers, its formation, its partners. */
export interface Shape {
  runs: Array<{ type: (typeof RUN_TYPES)[number]; seconds: number; retried: boolean }>;
  discoveredBy: number;
  formation: { sourceRun: number; readyAfter: number; stakeholders: number } | null;
  partners: Shape[];
}

export const shape: fc.Memo<Shape> = fc.memo((depth) =>
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
export function entityOf(node: Shape, next: () => string): EntityInput & PartnerInput {
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
