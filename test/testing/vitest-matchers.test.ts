import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS } from '../../src/testing';
import { ROOT } from '../support/built-cli';

// toHaveReceived in vitest: a scratch project with this checkout (dist/ built) and the repository's vitest linked in,
// `useBvsMatchers(expect)` as a user writes it, run by vitest as a child process. Its test passes a count, a path
// template and `.not`, and reads the near-miss report of a failure naming the body field that differed.

jest.setTimeout(120_000);

const TEST = `import { afterAll, beforeAll, expect, test } from 'vitest';
import { startBvsMock } from 'bvs-mock/testing';
import { useBvsMatchers } from 'bvs-mock/testing/vitest';
useBvsMatchers(expect);
let bvs;
beforeAll(async () => { bvs = await startBvsMock({ clock: 'instant' }); });
afterAll(async () => { await bvs?.stop(); });
const api = (path, init = {}) => bvs.fetch(bvs.url + path, { ...init, headers: { authorization: 'Bearer ' + bvs.apiKey, 'content-type': 'application/json' } });
test('verifies what the client sent', async () => {
  const created = await api('/api/v2/entity_validations', { method: 'POST', body: JSON.stringify({ tin: '${SCENARIOS.happyNoPartners.tin}', country: 'CL' }) });
  const { id } = await created.json();
  await api('/api/v2/entity_validations/' + id);
  await expect(bvs).toHaveReceived({ operation: 'createEntityValidation', body: { tin: '${SCENARIOS.happyNoPartners.tin}' }, times: 1 });
  await expect(bvs).toHaveReceived({ method: 'GET', path: '/api/v2/entity_validations/{id}', label: expect.getState().currentTestName });
  await expect(bvs).not.toHaveReceived({ method: 'GET', path: '/api/v2/entity_validations/{id}', times: { atLeast: 2 } });
  await expect(expect(bvs).toHaveReceived({ operation: 'createEntityValidation', body: { tin: '1-9' } })).rejects.toThrow('$.tin: expected "1-9", got "${SCENARIOS.happyNoPartners.tin}"');
});
`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bvs-mock-vitest-matchers-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'bvs-mock'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vitest-matchers', version: '1.0.0', private: true, type: 'module' }));
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.test.mjs'], testTimeout: 60000 } };\n`);
  writeFileSync(join(dir, 'verify.test.mjs'), TEST);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('vitest: useBvsMatchers registers toHaveReceived, and a failure names the body field that differed with both values', async () => {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(JEST_|VITEST|BVS_MOCK_|NODE_OPTIONS$)/.test(name)));
  const output = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run'],
      { cwd: dir, env: { ...clean, CI: 'true', NO_COLOR: '1' }, encoding: 'utf8' },
      (error, stdout, stderr) => (error ? reject(new Error(`vitest failed:\n${stdout}\n${stderr}`, { cause: error })) : resolve(stdout)),
    );
  });
  expect(output).toMatch(/Tests\s+1 passed \(1\)/);
});
