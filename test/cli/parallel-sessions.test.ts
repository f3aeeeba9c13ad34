import { rmSync } from 'node:fs';
import { EXPECTED_BY_FILE, FILES, mergedReportByFile, runParallelSuite, writeParallelProject } from '../support/parallel-sessions-project';
import { startServedCli, type ServedCli } from '../support/served-cli';

// Eight test files in parallel (jest --maxWorkers=4, vitest threads) against ONE running bvs-mock, the built command
// line as a process; each file has a session of its own through BVS_MOCK_URL (test/support/parallel-sessions-project.ts).
// Five runs in a row with no failure; the merged JUnit report of the suite reporters lists every file's tests.

jest.setTimeout(600_000);

const RUNS = 5;
let served: ServedCli;
beforeAll(async () => {
  served = await startServedCli();
});
afterAll(async () => {
  await served.close();
});

async function sessionsLeft(): Promise<number> {
  const listed = JSON.parse((await served.client.request('/_mock/sessions')).body.toString('utf8')) as { sessions: Array<{ default: boolean }> };
  return listed.sessions.filter((session) => !session.default).length;
}

for (const runner of ['jest', 'vitest'] as const) {
  const how = runner === 'jest' ? 'jest --maxWorkers=4' : 'vitest threads (4)';
  test(`${how}: ${FILES} files, each in its own session on one bvs-mock, pass ${RUNS} runs in a row; the merged JUnit report lists every file's tests`, async () => {
    const dir = writeParallelProject(runner);
    try {
      for (let run = 0; run < RUNS; run += 1) {
        await runParallelSuite(dir, runner, served.url);
        expect(mergedReportByFile(dir, runner)).toEqual(EXPECTED_BY_FILE);
        expect(await sessionsLeft()).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
