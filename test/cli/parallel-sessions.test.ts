import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/built-cli';
import { FILES, junitCases, TEST_TITLES, writeParallelProject } from '../support/parallel-sessions-project';
import { startServedCli, type ServedCli } from '../support/served-cli';

// Issue 21's first "done when": eight test files in parallel (jest --maxWorkers=4, vitest threads) against ONE
// running bvs-mock, the built command line as a process; each file has a session of its own through BVS_MOCK_URL.
// Five runs in a row, with no failure; the merged JUnit report of the suite reporters lists every file's tests.

jest.setTimeout(600_000);

const RUNS = 5;
let served: ServedCli;
beforeAll(async () => {
  served = await startServedCli();
});
afterAll(async () => {
  await served.close();
});

/** Runs node `args` in the project with BVS_MOCK_URL set, as a CI job would (none of this jest's own variables); throws with its output when it fails. */
function runSuite(dir: string, args: string[]): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, BVS_MOCK_URL: served.url, CI: 'true' };
  for (const name of Object.keys(env))
    if (name.startsWith('JEST_') || name.startsWith('VITEST') || name.startsWith('BVS_MOCK_REPORT') || name === 'NODE_OPTIONS') delete env[name];
  env.BVS_MOCK_URL = served.url;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: dir, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${args.join(' ')} failed in ${dir}:\n${stdout}\n${stderr}`, { cause: error }));
      else resolve();
    });
  });
}

/** Every file's three tests are cases of the merged report, only the bad request failed; the shared instance holds no session after. */
async function expectMergedReport(dir: string, extension: string): Promise<void> {
  const suites = junitCases(dir);
  for (let index = 0; index < FILES; index += 1) {
    const cases = suites.get(`bvs-mock contract: test/file-${index}.${extension}: tests`);
    expect(cases?.map(({ name, failed }) => [name.replace(/: .*$/, ''), failed])).toEqual([
      [TEST_TITLES[0], false],
      [TEST_TITLES[1], false],
      [TEST_TITLES[2], true],
    ]);
    const violations = suites.get(`bvs-mock contract: test/file-${index}.${extension}: violations`);
    expect(new Set(violations?.map(({ name }) => name.split(': POST')[0]))).toEqual(new Set([TEST_TITLES[2]]));
  }
  const sessions = JSON.parse((await served.client.request('/_mock/sessions')).body.toString('utf8')) as { sessions: unknown[] };
  expect(sessions.sessions).toHaveLength(1);
}

test(`jest --maxWorkers=4: ${FILES} files, each in its own session on one bvs-mock, pass ${RUNS} runs in a row, and one JUnit report lists every file's tests`, async () => {
  const dir = writeParallelProject('jest');
  try {
    for (let run = 0; run < RUNS; run += 1) {
      rmSync(join(dir, 'reports'), { recursive: true, force: true });
      await runSuite(dir, [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--maxWorkers=4']);
      await expectMergedReport(dir, 'test.js');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`vitest threads (4): the same ${FILES} files pass ${RUNS} runs in a row on the same bvs-mock, with the same merged report`, async () => {
  const dir = writeParallelProject('vitest');
  try {
    for (let run = 0; run < RUNS; run += 1) {
      rmSync(join(dir, 'reports'), { recursive: true, force: true });
      await runSuite(dir, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run']);
      await expectMergedReport(dir, 'test.mjs');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
