import type { ZodType } from 'zod';
import { closedIssues } from '../../src/contract';
import { buildOpenApiDocument } from '../../src/openapi';
import { DataSourceRunBatch, DataSourceRunRecords, EntityValidation, parseWith, toJsonPath, WebhookEndpointList } from '../../src/schemas';
import { SCENARIOS, startBvsMock, type RunningBvsMock } from '../../src/testing';
import { DocumentAjv } from '../support/document-ajv';

// Tolerance mode changes API answers too: fields the contract does not list, at the root and in nested items, and
// values the spec does not list. The open document (responses take any field) still reads them; bvs-mock's zod
// schemas checked closed (closedIssues: unknown fields, values beyond those seen) refuse them exactly where planted. Out of tolerance mode, the same seed answers the same.

const ajv = new DocumentAjv(buildOpenApiDocument());

/** The schema of the answer at a path, and its path in the document. */
function kindOf(path: string): { schema: ZodType; documented: string } {
  if (path === '/api/v2/webhook_endpoints') return { schema: WebhookEndpointList, documented: path };
  if (path.endsWith('/records')) return { schema: DataSourceRunRecords, documented: '/api/v2/data_source_runs/{id}/records' };
  if (path.startsWith('/api/v2/data_source_run_batches/')) return { schema: DataSourceRunBatch, documented: '/api/v2/data_source_run_batches/{id}' };
  return { schema: EntityValidation, documented: '/api/v2/entity_validations/{id}' };
}

/** JSON paths where two values differ: fields only one has, and values that are not equal. */
function differences(left: unknown, right: unknown, path: PropertyKey[] = []): string[] {
  if (typeof left !== 'object' || left === null || typeof right !== 'object' || right === null)
    return JSON.stringify(left) === JSON.stringify(right) ? [] : [toJsonPath(path)];
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].flatMap((key) => {
    const index = Array.isArray(left) ? Number(key) : key;
    const a = (left as Record<string, unknown>)[key];
    const b = (right as Record<string, unknown>)[key];
    if (a === undefined || b === undefined) return [toJsonPath([...path, index])];
    return differences(a, b, [...path, index]);
  });
}

async function settleEveryScenario(bvs: RunningBvsMock): Promise<string[]> {
  const paths = ['/api/v2/webhook_endpoints'];
  const auth = { authorization: `Bearer ${bvs.apiKey}` };
  for (const name of Object.keys(SCENARIOS) as Array<keyof typeof SCENARIOS>) {
    const { tin, country } = SCENARIOS[name];
    const created = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ tin, country }),
    });
    const { id } = (await created.json()) as { id: string };
    if (name === 'missingInputData') {
      await bvs.control.waitForEvent('data_source_run_batch.data_source_run.ready', { validationId: id });
      const validation = JSON.parse((await read(bvs, `/api/v2/entity_validations/${id}`)).text) as Record<string, any>;
      const waiting = validation.data_source_run_batches[0].data_source_runs.find((run: { status: string }) => run.status === 'missing_input_data');
      await bvs.control.supplyInput(waiting.id);
    }
    await bvs.control.waitForSettled(id);
    paths.push(`/api/v2/entity_validations/${id}`);
  }
  return paths;
}

async function read(bvs: RunningBvsMock, path: string): Promise<{ status: number; text: string }> {
  const answer = await bvs.fetch(`${bvs.url}${path}`, { headers: { authorization: `Bearer ${bvs.apiKey}` } });
  return { status: answer.status, text: (await answer.text()).replace(/https:\/\/127\.0\.0\.1:\d+/g, 'https://bvs') };
}

/** The batches of a validation's answer, and the records of their succeeded runs. */
function linked(validation: Record<string, any>): string[] {
  const batches = (validation.data_source_run_batches as Array<{ id: string; data_source_runs: Array<{ id: string; status: string }> }>) ?? [];
  return batches.flatMap((batch) => [
    `/api/v2/data_source_run_batches/${batch.id}`,
    ...batch.data_source_runs.filter((run) => run.status === 'succeeded').map((run) => `/api/v2/data_source_runs/${run.id}/records`),
  ]);
}

test('with --tolerance, API answers carry unknown fields and unlisted values where planted: the open document reads them, the closed schemas refuse exactly those', async () => {
  const plain = await startBvsMock({ clock: 'instant', seed: 7 });
  const tolerant = await startBvsMock({ clock: 'instant', seed: 7, tolerance: true });
  try {
    const paths = await settleEveryScenario(plain);
    expect(await settleEveryScenario(tolerant)).toEqual(paths);
    const all = [...paths];
    for (const path of paths.slice(1)) all.push(...linked(JSON.parse((await read(plain, path)).text)));
    expect(all.some((path) => path.endsWith('/records'))).toBe(true);
    expect(all.some((path) => path.includes('/data_source_run_batches/'))).toBe(true);
    const planted = new Set<string>();
    for (const path of all) {
      const [expected, got] = [await read(plain, path), await read(tolerant, path)];
      expect({ path, status: got.status }).toEqual({ path, status: expected.status });
      if (got.status !== 200) continue;
      const { schema, documented } = kindOf(path);
      const before = JSON.parse(expected.text);
      const after = JSON.parse(got.text);
      expect({ path, ok: parseWith(schema, before).ok }).toEqual({ path, ok: true });
      const open = ajv.response(documented, 'get', 200);
      expect({ path, valid: open(after), errors: open.errors ?? null }).toEqual({ path, valid: true, errors: null });
      expect({ path, before: closedIssues(schema, before) }).toEqual({ path, before: [] });
      const refused = closedIssues(schema, after).map((issue) => issue.path);
      const changed = differences(before, after);
      expect({ path, refused: [...refused].sort() }).toEqual({ path, refused: [...changed].sort() });
      // Every answer gains at least one field, at its root or in its items.
      expect({ path, changed: changed.length > 0 }).toEqual({ path, changed: true });
      for (const where of changed) planted.add(where.replace(/\[\d+\]/g, '[]'));
    }
    // Unknown fields at the root and in nested items, and values never seen (a validation's status).
    expect([...planted]).toEqual(expect.arrayContaining(['$.status']));
    expect([...planted].some((where) => /^\$\.[a-z_]+$/.test(where) && where !== '$.status')).toBe(true);
    expect([...planted].some((where) => where.startsWith('$.data_source_run_batches[]'))).toBe(true);
  } finally {
    await plain.stop();
    await tolerant.stop();
  }
});

test('tolerant answers depend only on the seed and the request: two servers with the same seed answer the same bytes', async () => {
  const answers: string[][] = [];
  for (let run = 0; run < 2; run++) {
    const bvs = await startBvsMock({ clock: 'instant', seed: 3, tolerance: true });
    try {
      const paths = await settleEveryScenario(bvs);
      const texts: string[] = [];
      for (const path of paths.slice(0, 4)) texts.push((await read(bvs, path)).text, (await read(bvs, path)).text);
      answers.push(texts);
    } finally {
      await bvs.stop();
    }
  }
  expect(answers[0]).toEqual(answers[1]);
  // Reading the same resource twice draws the same fields.
  expect(answers[0]![2]).toBe(answers[0]![3]);
});
