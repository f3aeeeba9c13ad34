import { MAX_SCENARIO_FILE_BYTES } from '../../src/engine/scenarios/load-scenario-file';
import { MAX_LISTED_ISSUES } from '../../src/schemas';
import { expectApiError } from '../support/api-test-server';
import { stopSpawned } from '../support/built-cli';
import type { HttpAnswer } from '../support/https-client';
import { startServedCli, type ServedCli } from '../support/served-cli';
import { scenarioWithKeys } from '../support/scenario-with-keys';

// Regression: a 957 KB YAML scenario of 70,000 keys posted to POST /_mock/scenarios was answered 422
// after 80.6 s while /_mock/health went unanswered for 77 s: the YAML parser's duplicate-key check and
// the line lookup of each issue were both quadratic. Both are now one pass
// (src/engine/scenarios/load-scenario-file.ts), a scenario is at most MAX_SCENARIO_FILE_BYTES (a bigger
// body is refused 413 before it is parsed), and a 422 lists MAX_LISTED_ISSUES problems and counts the
// others. The server runs in a child process, so a frozen event loop fails the test by its timeout.

afterEach(stopSpawned);

function postScenario(served: ServedCli, text: string): Promise<HttpAnswer> {
  return served.client.request('/_mock/scenarios', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: text });
}

/** The hostile upload and a health call sent beside it: both must be answered (a frozen event loop answers neither in time). */
async function postBesideHealth(served: ServedCli, text: string): Promise<HttpAnswer> {
  const [posted, health] = await Promise.all([postScenario(served, text), served.client.request('/_mock/health')]);
  expect(health.status).toBe(200);
  return posted;
}

test('a 957 KB scenario of 70,000 keys is refused 413 at once, naming the limit, while a health call beside it is answered', async () => {
  const served = await startServedCli();
  try {
    const text = scenarioWithKeys(70_000);
    expect(Buffer.byteLength(text)).toBeGreaterThan(950 * 1024);
    const error = expectApiError(await postBesideHealth(served, text), 413, 'payload_too_large');
    expect(error.message).toBe(
      `The scenario is ${Buffer.byteLength(text)} bytes, over the limit of 256 KiB (${MAX_SCENARIO_FILE_BYTES} bytes) for a scenario (docs/fidelity.md row 97); split it into several scenario files, one per tree (docs/scenarios.md).`,
    );
    expect((await served.client.request('/_mock/scenarios')).json<{ scenarios: Array<{ name: string }> }>().scenarios.map((s) => s.name)).not.toContain(
      'many-keys',
    );
  } finally {
    await served.close();
  }
}, 30_000);

test('a scenario just under the limit with 18,000 unknown keys is answered 422 with MAX_LISTED_ISSUES problems, their lines, and the count of the others', async () => {
  const served = await startServedCli();
  try {
    const text = scenarioWithKeys(18_000);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_SCENARIO_FILE_BYTES);
    const refused = await postBesideHealth(served, text);
    const error = expectApiError(refused, 422, 'validation_failed');
    expect(error.issues).toHaveLength(MAX_LISTED_ISSUES);
    expect(error.issues[0]).toEqual({ path: '$.entity.key00000', code: 'unknown_field', message: 'line 10: "key00000" is not a known field here' });
    expect(error.issues[99]).toMatchObject({ path: '$.entity.key00099', message: expect.stringMatching(/^line 109: /) });
    expect((error as { issues_omitted?: number }).issues_omitted).toBe(18_000 - MAX_LISTED_ISSUES);
    expect(error.message).toMatch(/^The scenario has 18000 problems: .*; and 17900 more \(the first 100 are listed\)$/);
    expect(refused.body.length).toBeLessThan(32_768);
  } finally {
    await served.close();
  }
}, 30_000);

test('a scenario of 18,000 keys each given twice is answered 422 naming the first duplicates with both lines, and counting the others', async () => {
  const served = await startServedCli();
  try {
    const once = scenarioWithKeys(9_000);
    const keys = once.slice(once.indexOf('  key00000'));
    const text = once + keys;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_SCENARIO_FILE_BYTES);
    const error = expectApiError(await postBesideHealth(served, text), 422, 'validation_failed');
    expect(error.issues).toHaveLength(MAX_LISTED_ISSUES);
    expect(error.issues[0]).toEqual({
      path: '$.entity.key00000',
      code: 'duplicate_key',
      message: 'line 9010:3: "key00000" is given twice in this mapping (first at line 10); a key may appear once, so remove or rename one',
    });
    expect((error as { issues_omitted?: number }).issues_omitted).toBe(9_000 - MAX_LISTED_ISSUES);
  } finally {
    await served.close();
  }
}, 30_000);
