import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ScenarioLibrary, ScenarioLibraryError, parseScenarioSource } from '../../src/engine/scenarios';
import { ControlApiError, startBvsMock, type RunningBvsMock } from '../../src/testing';
import { EntityValidation } from '../../src/schemas';

// A scenario may be written as a generated shape with parameters ({ name, tin, country, generated }):
// POST /_mock/scenarios, control.addScenario and --scenarios files take it, check it as a file and store the tree.

const FIVE_PARTNERS = `name: five-partners
description: Five partners, the third failing for good.
tin: 76543210-3
country: CL
generated: partners=5&fail=partner-3:definitive
`;

describe('through the control API and control.addScenario', () => {
  let bvs: RunningBvsMock;
  beforeAll(async () => {
    bvs = await startBvsMock({ clock: 'instant' });
  });
  afterAll(async () => {
    await bvs.stop();
  });
  beforeEach(async () => {
    await bvs.control.reset();
  });

  const create = async (tin: string, headers: Record<string, string> = {}): Promise<EntityValidation> => {
    const answer = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ tin, country: 'CL' }),
    });
    expect(answer.status).toBe(201);
    return EntityValidation.parse(await answer.json());
  };
  const read = async (id: string): Promise<EntityValidation> => {
    const answer = await bvs.fetch(`${bvs.url}/api/v2/entity_validations/${id}`, { headers: { authorization: `Bearer ${bvs.apiKey}` } });
    return EntityValidation.parse(await answer.json());
  };

  test('control.addScenario({ name, tin, country, generated }) adds the tree; its TIN and its name play it', async () => {
    const listed = await bvs.control.addScenario({
      name: 'five-partners',
      tin: '76543210-3',
      country: 'CL',
      generated: 'partners=5&fail=partner-3:definitive',
    });
    expect(listed).toMatchObject({ name: 'five-partners', tins: ['76543210-3'], built_in: false });

    const created = await create('76543210-3');
    const events = await bvs.control.waitForSettled(created.id);
    const validation = await read(created.id);
    expect(validation.related_entities).toHaveLength(5);
    expect(validation.data_source_run_batches[0]!.child_batches.map((child) => child.runs_succeeded)).toEqual([true, true, false, true, true]);
    expect(events.map((event) => event.type)).not.toContain('data_source_run_batch.child_batches_ready');

    // The header form with the same parameters plays the same tree.
    const byHeader = await create('76543210-3', { 'x-mock-scenario': 'generated?partners=5&fail=partner-3:definitive' });
    await bvs.control.waitForSettled(byHeader.id);
    expect((await read(byHeader.id)).related_entities.map((entity) => entity.tin)).toEqual(validation.related_entities.map((entity) => entity.tin));
  });

  test('the same as YAML; a bad parameter is a 422 at $.generated.… with its line', async () => {
    expect(await bvs.control.addScenario(FIVE_PARTNERS)).toMatchObject({ name: 'five-partners' });
    const refused = await bvs.control
      .addScenario(FIVE_PARTNERS.replace('five-partners', 'seven').replace('partner-3', 'partner-7'))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ControlApiError);
    const error = refused as ControlApiError;
    expect({ status: error.status, code: error.code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(error.reason).toMatch(/\$\.generated\.fail\[0\]: line 5: fail names partner-7, but the tree has partners=5/);
  });
});

test('a --scenarios directory takes a generated shape; a bad one stops the load with the file, line and parameter', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bvs-generated-'));
  try {
    writeFileSync(path.join(dir, 'five.yaml'), FIVE_PARTNERS);
    const library = ScenarioLibrary.builtIn();
    library.loadDirectory(dir);
    expect(library.forTin('76543210-3')?.entity.partners).toHaveLength(5);

    writeFileSync(path.join(dir, 'five.yaml'), FIVE_PARTNERS.replace('partners=5', 'partners=five'));
    const thrown = (() => {
      try {
        ScenarioLibrary.builtIn().loadDirectory(dir);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(ScenarioLibraryError);
    expect((thrown as Error).message).toMatch(/five\.yaml:5: \$\.generated\.partners: partners=five is not allowed; give a whole number from 0 to 50/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the fields beside generated are checked as a file: an unknown field and a missing TIN are named', () => {
  const result = parseScenarioSource({ text: 'name: x\ncountry: CL\ngenerated: partners=1\nentity: {}\n', file: 'x.yaml' });
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.issues.map((issue) => issue.path).sort()).toEqual(['$.entity', '$.tin']);
});
