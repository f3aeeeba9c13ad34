import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type StartedServer } from '../../src/http';
import { startBvsMock } from '../../src/testing';
import BvsMockJestReporter from '../../src/testing/jest-reporter';
import BvsMockVitestReporter from '../../src/testing/vitest-reporter';
import { HAVE_XMLLINT, expectValidJunit } from '../support/junit-schema';

// The suite reporters in one process: the folder they put in the environment, the reports stop() leaves there, and
// the merged JUnit, Markdown and JSON with each part named by its test file and each test a case.

let server: StartedServer;
let root: string;
beforeAll(async () => {
  server = await startServer({ port: 0, http: true, clock: 'instant' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bvs-mock-suite-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  delete process.env.BVS_MOCK_REPORT_DIR;
});

async function badRequest(): Promise<void> {
  const bvs = await startBvsMock({ url: server.url });
  const answer = await bvs.fetch(`${bvs.url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bvs.apiKey}`, 'content-type': 'application/json' },
    body: '{"country":"CL"}',
  });
  expect(answer.status).toBe(422);
  await bvs.stop();
}

test('the jest reporter merges the sessions of a run: a case per test, failed for the test whose request broke the contract', async () => {
  const reporter = new BvsMockJestReporter(
    { rootDir: process.cwd() },
    { junit: join(root, 'junit.xml'), markdown: join(root, 'out', 'report.md'), json: false },
  );
  expect(process.env.BVS_MOCK_REPORT_DIR).toMatch(/bvs-mock-reports-/);
  await badRequest();
  const title = expect.getState().currentTestName!;
  reporter.onTestResult(undefined, { testFilePath: __filename, testResults: [{ fullName: title }, { fullName: 'another test' }] });
  reporter.onRunComplete();
  expect(process.env.BVS_MOCK_REPORT_DIR).toBeUndefined();
  const junit = readFileSync(join(root, 'junit.xml'), 'utf8');
  expect(junit).toContain('<testsuite package="bvs-mock" id="0" name="bvs-mock contract: test/testing/suite-report.test.ts: tests"');
  expect(junit).toContain(`<testcase name="${title}: 1 request with contract violations" classname="test/testing/suite-report.test.ts" time="0">`);
  expect(junit).toContain('<testcase name="another test: no contract violation" classname="test/testing/suite-report.test.ts" time="0"/>');
  expect(junit).toContain(`<testcase name="${title}: POST /api/v2/entity_validations (req_000001): $.tin invalid_type"`);
  if (HAVE_XMLLINT || process.env.CI === 'true') expectValidJunit(junit);
  const markdown = readFileSync(join(root, 'out', 'report.md'), 'utf8');
  expect(markdown).toMatch(/^# bvs-mock contract report\n\n1 report, made .*\n\n## test\/testing\/suite-report\.test\.ts\n/);
});

test('the vitest reporter writes the same from vitest tasks, naming tests as vitest does (suites > test)', async () => {
  const reporter = new BvsMockVitestReporter({ junit: false, markdown: false, json: join(root, 'report.json') });
  reporter.onInit({ config: { root: process.cwd() } });
  await badRequest();
  reporter.onFinished([
    { type: 'suite', name: 'file', filepath: __filename, tasks: [{ type: 'suite', name: 'a suite', tasks: [{ type: 'test', name: 'a test' }] }] },
  ]);
  const json = JSON.parse(readFileSync(join(root, 'report.json'), 'utf8'));
  expect(json.reports.map((report: { name: string; tests: string[] }) => [report.name, report.tests])).toEqual([
    ['test/testing/suite-report.test.ts', ['a suite > a test']],
  ]);
  expect(json.reports[0].report.violations.violating_requests).toBe(1);
});

test('a path option that is no path is refused, naming it', () => {
  expect(() => new BvsMockJestReporter({ rootDir: root }, { junit: '' })).toThrow('the reporter\'s option junit is ""; give a file path or false');
});
