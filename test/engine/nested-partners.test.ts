import { renderConsolidatedReportPdf } from '../../src/reports';
import { ScenarioLibrary } from '../../src/engine/scenarios';
import type { EntityValidation } from '../../src/schemas';
import { pageTexts } from '../reports/pdf-text';
import { scenario, startEngine } from '../support/engine-harness';
import { expectedEvents } from '../scenarios/expected-events';
import { unannounced } from './announced-entities';

// Issue: a partner's own partner was in the main batch's child_batches but not in the main validation's
// related_entities (where the spec reads a child's identity from), so the consolidated report printed
// "Partner 1.1: … not among the related entities"; and with a formation whose source_run succeeds before
// the run that discovers partners, formation.ready named partners' evl_ ids before stakeholder.created
// announced them.

const NESTED = scenario({
  name: 'nested-partners',
  description: 'A holding whose partner company has a partner of its own, who has one too.',
  tins: ['76333333-3'],
  entity: {
    tin: '76333333-3',
    country: 'CL',
    category: 'business',
    name: 'Holding Tres SpA',
    runs: [{ type: 'cl/registry', outcomes: [{ succeeded: '10s' }] }],
    partners: [
      {
        tin: '76444444-4',
        category: 'business',
        name: 'Filial Cuatro SpA',
        runs: [{ type: 'cl/registry', outcomes: [{ succeeded: '10s' }] }],
        partners: [
          {
            tin: '76555555-5',
            category: 'business',
            name: 'Nieta Cinco SpA',
            risk_level: 'high',
            runs: [{ type: 'cl/registry', outcomes: [{ succeeded: '20s' }] }],
            partners: [
              { tin: '15666666-6', category: 'person', name: 'Sexta', surname: 'Persona', runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '5s' }] }] },
            ],
          },
        ],
      },
      { tin: '15777777-7', category: 'person', name: 'Septima', surname: 'Persona', runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '40s' }] }] },
    ],
  },
});

/** The constitution (cl/sii) is read at 0:10 and the formation is ready at 0:15, 25 s before cl/registry discovers the partners at 0:40. */
const EARLY_FORMATION = scenario({
  name: 'early-formation',
  description: 'A company whose formation is read from a run that succeeds before the one that discovers its partners.',
  tins: ['76888888-8'],
  entity: {
    tin: '76888888-8',
    country: 'CL',
    category: 'business',
    name: 'Constructora Temprana SpA',
    runs: [
      { type: 'cl/sii', outcomes: [{ succeeded: '10s' }] },
      { type: 'cl/registry', outcomes: [{ succeeded: '40s' }] },
    ],
    partners_discovered_by: 'cl/registry',
    formation: {
      company_type: 'Sociedad por Acciones',
      constitution_date: '2020-01-02',
      activity_description: 'Construcción',
      administration: { administration_type: 'Gerente general', simple_signature: true },
      equity: { total_amount: 1000, total_shares: 10 },
      stakeholders: [{ tin: '15999999-9', roles: ['shareholder'], participation: 1, shares: 10, amount: 1000 }],
      source_run: 'cl/sii',
      ready_after: '5s',
    },
    partners: [
      { tin: '15999999-9', category: 'person', name: 'Nueve', surname: 'Socia', runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '10s' }] }] },
      { tin: '15101010-1', category: 'person', name: 'Diez', surname: 'Socio', runs: [{ type: 'cl/pep', outcomes: [{ succeeded: '10s' }] }] },
    ],
  },
});

test("the main validation's related_entities list every partner of the tree, partners' partners too, each once, as the child batches hold them", () => {
  const harness = startEngine({ scenarios: [NESTED] });
  const id = harness.create({ tin: '76333333-3', country: 'CL' });
  harness.runAll();
  const root = harness.engine.getValidation('acme', id)!;
  const tins = root.related_entities.map((entity) => entity.tin);
  expect(tins).toEqual(['76444444-4', '76555555-5', '15666666-6', '15777777-7']);
  const childTins = (batch: EntityValidation['data_source_run_batches'][number]): string[] =>
    batch.child_batches.flatMap((child) => [child.tin, ...childTins(child)]);
  const ids = new Set(root.related_entities.map((entity) => entity.id));
  const children = root.data_source_run_batches[0]!.child_batches;
  const childIds = (list: typeof children): string[] => list.flatMap((child) => [child.entity_validation_id, ...childIds(child.child_batches)]);
  expect(childIds(children).every((childId) => ids.has(childId))).toBe(true);
  expect(childTins(root.data_source_run_batches[0]!).sort()).toEqual([...tins].sort());
  // A partner's validation lists the partners below it, so its own child batches are identified from it too.
  const partner = harness.engine.getValidation('acme', root.related_entities[0]!.id)!;
  expect(partner.related_entities.map((entity) => entity.tin)).toEqual(['76555555-5', '15666666-6']);
  expect(root.related_entities[1]).toMatchObject({ name: 'Nieta Cinco SpA', category: 'business', risk_level: 'high' });
});

test('the consolidated report names every partner of a nested tree with its identity, never "not among the related entities"', async () => {
  const harness = startEngine({ scenarios: [NESTED] });
  const id = harness.create({ tin: '76333333-3', country: 'CL' });
  harness.runAll();
  const batchId = harness.engine.getValidation('acme', id)!.data_source_run_batches[0]!.id;
  const source = harness.engine.lookupFile('acme', 'consolidated_report', `${batchId}_1`);
  if (source?.kind !== 'consolidated_report') throw new Error('no consolidated report was generated');
  const lines = (await pageTexts(await renderConsolidatedReportPdf(source))).join('\n').split('\n');
  expect(lines.filter((line) => line.startsWith('Partner ') || line === 'Identity')).toEqual([
    'Partner batches',
    'Partner 1: Filial Cuatro SpA',
    'Partner 1.1: Nieta Cinco SpA',
    'Partner 1.1.1: Sexta Persona',
    'Partner 2: Septima Persona',
  ]);
  expect(lines).not.toContain('not among the related entities');
});

test('a formation read before the partners are discovered announces its stakeholders first: no event names a partner before stakeholder.created does', () => {
  const harness = startEngine({ scenarios: [EARLY_FORMATION] });
  const start = harness.clock.now();
  harness.create({ tin: '76888888-8', country: 'CL' });
  harness.runAll();
  expect(unannounced(harness.events)).toEqual([]);
  const formation = harness.events.findIndex((event) => event.type === 'entity_validation.formation.ready');
  const announcements = harness.events.filter((event) => event.type === 'entity_validation.stakeholder.created');
  expect(harness.events[formation - 1]!.type).toBe('entity_validation.stakeholder.created');
  expect(harness.events[formation - 1]!.emittedAt).toBe(harness.events[formation]!.emittedAt);
  // The formation's stakeholder is announced with it; the partner the formation does not name, when cl/registry discovers it.
  const announcedTins = announcements.map((event) =>
    (event.body as { stakeholder: EntityValidation }).stakeholder.related_entities.map((entity) => entity.tin),
  );
  expect(announcedTins).toEqual([['15999999-9'], ['15999999-9', '15101010-1']]);
  // docs/scenarios.md's reading of it, step by step, agrees.
  expect(harness.events.map((event) => [Date.parse(event.emittedAt) - start, event.type])).toEqual(
    expectedEvents(EARLY_FORMATION).map((event) => [event.at, event.type]),
  );
});

const library = ScenarioLibrary.builtIn();
const CUSTOM = [NESTED, EARLY_FORMATION];

test.each([...library.list().map((summary) => summary.name), ...CUSTOM.map((custom) => custom.name)])(
  'playing %s (and revalidating it) names no partner in any event before a stakeholder.created announced it',
  (name) => {
    const custom = CUSTOM.find((candidate) => candidate.name === name);
    const played = custom ?? library.byName(name)!;
    const harness = custom === undefined ? startEngine({ source: library }) : startEngine({ scenarios: [custom] });
    const id = harness.create({ tin: played.entity.tin, country: played.entity.country });
    harness.runAll();
    for (const run of harness.engine.getValidation('acme', id)!.latest_data_source_runs) {
      if (run.status === 'missing_input_data') expect(harness.engine.supplyInput('acme', run.id).ok).toBe(true);
    }
    harness.runAll();
    expect(harness.engine.revalidate('acme', id).ok).toBe(true);
    harness.runAll();
    expect(harness.events.length).toBeGreaterThan(2);
    expect(unannounced(harness.events)).toEqual([]);
  },
);
