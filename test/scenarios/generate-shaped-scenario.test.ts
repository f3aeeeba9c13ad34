import { generateShapedScenario } from '../../src/engine/scenarios/generate-shaped-scenario';
import type { Scenario } from '../../src/schemas';

// The tree a generated shape asks for is a function of the TIN (or seed), the country and the parameters.

const AT = '$headers["x-mock-scenario"]';

function shaped(parameters: string, tin = '76543210-3', country = 'CL'): Scenario {
  const result = generateShapedScenario({ tin, country, parameters, at: AT });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

test('the same TIN, country and parameters give the same tree, and another TIN another one', () => {
  expect(shaped('partners=5&nested=1&fail=partner-2.1:temporary')).toEqual(shaped('partners=5&nested=1&fail=partner-2.1:temporary'));
  expect(shaped('partners=5').entity.partners).not.toEqual(shaped('partners=5', '76543211-1').entity.partners);
  expect(shaped('partners=5&seed=76543210-3', '76543211-1').entity.partners).toEqual(shaped('partners=5').entity.partners);
});

test('only what the parameters name differs: no alert, no retry and no formation unless asked for', () => {
  const plain = shaped('partners=50&nested=5');
  const entities = [plain.entity, ...(plain.entity.partners ?? []), ...(plain.entity.partners ?? []).flatMap((partner) => partner.partners ?? [])];
  expect(entities).toHaveLength(1 + 50 + 250);
  expect(new Set(entities.map((entity) => entity.tin)).size).toBe(entities.length);
  expect(entities.flatMap((entity) => entity.alerts)).toEqual([]);
  expect(entities.flatMap((entity) => entity.runs.flatMap((run) => run.outcomes.map((outcome) => outcome.status)))).toEqual(
    expect.not.arrayContaining(['temporary_error', 'definitive_error', 'missing_input_data']),
  );
  expect(plain.entity.formation).toBeUndefined();
});

test('fail makes the last run of the entity named fail, never the run that discovers its partners', () => {
  const tree = shaped('partners=2&nested=1&fail=partner-2:definitive,main:missing-input');
  const partner = tree.entity.partners![1]!;
  expect(partner.runs.map((run) => run.outcomes.map((outcome) => outcome.status))).toEqual([['succeeded'], ['definitive_error']]);
  expect(partner.runs[0]!.type).toBe('cl/registry');
  expect(tree.entity.runs.map((run) => `${run.type} ${run.outcomes.map((outcome) => outcome.status).join(',')}`)).toEqual([
    'cl/sii succeeded',
    'cl/registry succeeded',
    'cl/pep missing_input_data',
  ]);
});

test("outside Chile the runs are the country's own and a formation is refused at its parameter", () => {
  expect(shaped('partners=1', '20100047218', 'PE').entity.runs.map((run) => run.type)).toEqual(['pe/registry', 'pe/sanctions', 'pe/tax']);
  expect(generateShapedScenario({ tin: '20100047218', country: 'PE', parameters: 'formation=cl', at: AT })).toMatchObject({
    ok: false,
    issues: [{ path: `${AT}.formation`, code: 'invalid_parameter' }],
  });
});
