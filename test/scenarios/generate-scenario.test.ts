import fc from 'fast-check';
import { formatRut, generateScenario, generateScenarioInput, isValidRut } from '../../src/engine/scenarios';
import { Scenario, type ScenarioPartner } from '../../src/schemas';

type Entity = ScenarioPartner | Scenario['entity'];

function everyEntity(entity: Entity): Entity[] {
  return [entity, ...(entity.partners ?? []).flatMap(everyEntity)];
}

function statuses(scenario: Scenario): string[] {
  return everyEntity(scenario.entity).flatMap((entity) => entity.runs.flatMap((run) => run.outcomes.map((outcome) => outcome.status)));
}

/** Many Chilean company RUTs, to see the variety a country gets. */
const CL_COMPANIES = Array.from({ length: 60 }, (_, index) => formatRut(76_100_000 + index * 7_919));

test('gives the same TIN the same scenario, deep-equal and byte-identical', () => {
  for (const input of [
    { tin: '76543210-3', country: 'CL' },
    { tin: '98-7654321', country: 'US' },
    { tin: 'XAXX010101000', country: 'MX' },
  ]) {
    const first = generateScenario(input);
    const second = generateScenario({ ...input });
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  }
});

test('gives different TINs different scenarios', () => {
  // Compared without the TIN itself, which alone would make any two trees differ.
  const trees = CL_COMPANIES.map((tin) => {
    const { entity } = generateScenario({ tin, country: 'CL' });
    return JSON.stringify({ ...entity, tin: '' });
  });
  expect(new Set(trees).size).toBe(trees.length);
});

test('names the scenario after the TIN and claims only that TIN', () => {
  expect(generateScenario({ tin: '76.543.210-3', country: 'CL' })).toMatchObject({
    name: 'generated-76-543-210-3',
    tins: ['76.543.210-3'],
    entity: { tin: '76.543.210-3', country: 'CL' },
  });
  expect(generateScenario({ tin: '¿?', country: 'DE' }).name).toMatch(/^generated-tin-[0-9a-f]{8}$/);
});

test('builds input the Scenario schema accepts, and returns what the schema makes of it', () => {
  const input = generateScenarioInput({ tin: '76086429-3', country: 'CL' });
  expect(JSON.stringify(input)).toMatch(/"succeeded":"\d+s"/);
  expect(Scenario.parse(input)).toEqual(generateScenario({ tin: '76086429-3', country: 'CL' }));
});

test('generates Chilean companies with cl/sii, cl/registry and cl/pep, Chilean names and valid partner RUTs', () => {
  const trees = CL_COMPANIES.map((tin) => generateScenario({ tin, country: 'CL' }));
  for (const tree of trees) {
    expect(tree.entity.category).toBe('business');
    expect(tree.entity.name).toMatch(/ (SpA|Ltda|S\.A\.)$/);
    expect(tree.entity.runs.map((run) => run.type).slice(0, 3)).toEqual(['cl/sii', 'cl/registry', 'cl/pep']);
    expect(['[]', '["cl/bankruptcy_bulletin"]']).toContain(JSON.stringify(tree.entity.runs.map((run) => run.type).slice(3)));
    for (const partner of tree.entity.partners ?? []) {
      expect(isValidRut(partner.tin)).toBe(true);
      expect(partner.runs.every((run) => run.type.startsWith('cl/'))).toBe(true);
      if (partner.category === 'person') expect(partner.surname).not.toBe('');
    }
  }
  // Variety across TINs: the optional parts of a tree do appear, and not everywhere.
  const share = (predicate: (tree: Scenario) => boolean) => trees.filter(predicate).length;
  expect(share((tree) => tree.entity.runs.some((run) => run.type === 'cl/bankruptcy_bulletin'))).toBeGreaterThan(0);
  expect(share((tree) => tree.entity.formation !== undefined)).toBeGreaterThan(0);
  expect(share((tree) => (tree.entity.partners ?? []).length === 0)).toBeGreaterThan(0);
  expect(share((tree) => (tree.entity.partners ?? []).length === 3)).toBeGreaterThan(0);
  expect(share((tree) => statuses(tree).includes('temporary_error'))).toBeGreaterThan(0);
  expect(share((tree) => everyEntity(tree.entity).some((entity) => entity.alerts.length > 0))).toBeGreaterThan(0);
  expect(share((tree) => everyEntity(tree.entity).some((entity) => entity.alerts.length > 0))).toBeLessThan(trees.length);
});

test('gives a Chilean formation to its partners as stakeholders whose participations add up to one', () => {
  const withFormation = CL_COMPANIES.map((tin) => generateScenario({ tin, country: 'CL' })).filter((tree) => tree.entity.formation !== undefined);
  for (const tree of withFormation) {
    const formation = tree.entity.formation!;
    expect(formation.stakeholders.map((stakeholder) => stakeholder.tin)).toEqual(tree.entity.partners!.map((partner) => partner.tin));
    expect(formation.stakeholders.reduce((sum, stakeholder) => sum + stakeholder.participation, 0)).toBeCloseTo(1, 10);
    expect(formation.documents).toHaveLength(1);
  }
});

test('generates a Chilean person, without partners, for a RUT below 50 million', () => {
  const tree = generateScenario({ tin: '12345679-3', country: 'CL' });
  expect(tree.entity).toMatchObject({ category: 'person' });
  expect(tree.entity.surname).not.toBe('');
  expect(tree.entity.runs.map((run) => run.type)).toEqual(['cl/sii', 'cl/pep']);
  expect(tree.entity.partners).toBeUndefined();
});

test('generates other countries with <cc>/registry, <cc>/sanctions and <cc>/tax', () => {
  for (const [tin, country] of [
    ['98-7654321', 'US'],
    ['XAXX010101000', 'MX'],
    ['900123456-7', 'CO'],
    ['DE123456789', 'DE'],
  ] as const) {
    const tree = generateScenario({ tin, country });
    const cc = country.toLowerCase();
    expect(tree.entity.runs.map((run) => run.type)).toEqual([`${cc}/registry`, `${cc}/sanctions`, `${cc}/tax`]);
    expect(tree.entity.formation).toBeUndefined();
    for (const partner of tree.entity.partners ?? []) expect(partner.runs.every((run) => run.type.startsWith(`${cc}/`))).toBe(true);
  }
});

test('refuses a country or TIN a create call could not carry', () => {
  expect(() => generateScenario({ tin: '76543210-3', country: 'cl' })).toThrow(
    /cannot generate a scenario for TIN "76543210-3" and country "cl": \$: must be a two-letter upper-case country code/,
  );
  expect(() => generateScenario({ tin: '', country: 'CL' })).toThrow(/must not be empty/);
});

test('always generates a tree the Scenario schema accepts, with durations of 5 to 60 s, and never a definitive_error', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 32 }),
      fc.constantFrom('CL', 'AR', 'BR', 'CO', 'MX', 'PE', 'US', 'ES', 'DE'),
      (tin, country) => {
        const input = generateScenarioInput({ tin, country });
        const parsed = Scenario.safeParse(input);
        expect(parsed.success).toBe(true);
        const tree = parsed.data!;
        expect(statuses(tree)).not.toContain('definitive_error');
        expect(statuses(tree)).not.toContain('missing_input_data');
        const durations = everyEntity(tree.entity).flatMap((entity) => entity.runs.flatMap((run) => run.outcomes.map((outcome) => outcome.after)));
        expect(durations.every((after) => after >= 5_000 && after <= 60_000)).toBe(true);
        expect(tree.entity.partners?.length ?? 0).toBeLessThanOrEqual(3);
        expect(
          everyEntity(tree.entity)
            .flatMap((entity) => entity.alerts)
            .every((alert) => alert.severity === 'medium' || alert.severity === 'high'),
        ).toBe(true);
      },
    ),
    { numRuns: 300 },
  );
});
