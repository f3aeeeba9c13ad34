import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS } from '../../src/testing';
import { ROOT } from './built-cli';

// The client project of the parallel-sessions runs (test/cli/parallel-sessions.test.ts, test/docker/parallel-sessions.test.ts):
// eight test files, run by a stock jest with --maxWorkers=4 or by vitest's threads, all against ONE running bvs-mock
// named by BVS_MOCK_URL. Each file makes its session with startBvsMock(), resets it, moves its clock, adds an API
// fault, has its receiver fail twice, and asserts that it sees its own validation and events, and nothing of the
// other files'. The suite reporters merge the sessions' contract reports. bvs-mock is this checkout (dist/ built),
// linked in, and so are jest and vitest: nothing is installed.

/** How many test files the project has. */
export const FILES = 8;

/** Each file's tests, as the runner names them (the labels its requests carry). */
export const TEST_TITLES = ['a reset and a clock of its own', 'a fault and a failing receiver, and only its own events', 'a bad request on purpose'];

/** What a receiver outside the machine's loopback (a container's bvs-mock) needs: listen on every address, be named so. */
const RECEIVER_OPTIONS = `process.env.RECEIVER_PUBLIC_HOST ? { host: '0.0.0.0', publicHost: process.env.RECEIVER_PUBLIC_HOST } : {}`;

function testFile(index: number, runner: 'jest' | 'vitest'): string {
  const hours = index + 1;
  const imports =
    runner === 'jest'
      ? "const { SCENARIOS, startBvsMock, startWebhookReceiver } = require('bvs-mock/testing');"
      : "import { afterAll, beforeAll, expect, test } from 'vitest';\nimport { SCENARIOS, startBvsMock, startWebhookReceiver } from 'bvs-mock/testing';";
  return `${imports}

// File ${index}: its own session on the shared bvs-mock (BVS_MOCK_URL), its own clock, fault, receiver and events.
let bvs;
let receiver;
const failures = 2;
beforeAll(async () => {
  receiver = await startWebhookReceiver({ ...${RECEIVER_OPTIONS}, respond: (_webhook, index) => (index < failures ? 500 : 200) });
  bvs = await startBvsMock({ clock: 'manual' });
});
afterAll(async () => {
  await bvs?.stop();
  await receiver?.close();
});

const api = (path, init = {}) =>
  bvs.fetch(bvs.url + path, { ...init, headers: { authorization: 'Bearer ' + bvs.apiKey, 'content-type': 'application/json', ...init.headers } });

test('${TEST_TITLES[0]}', async () => {
  await bvs.control.reset();
  const start = Date.parse((await bvs.control.clock()).now);
  await bvs.control.advance(${hours} * 3600);
  expect(Date.parse((await bvs.control.clock()).now) - start).toBe(${hours} * 3600 * 1000);
});

test('${TEST_TITLES[1]}', async () => {
  await bvs.control.createEndpoint({ name: 'file-${index}', url: receiver.url });
  await bvs.control.addFault({ kind: 'api_error', method: 'POST', path: '/api/v2/entity_validations', code: 'service_unavailable', count: 1 });
  expect((await bvs.control.faults()).length).toBe(1);
  const body = JSON.stringify({ tin: '${SCENARIOS.happyNoPartners.tin}', country: '${SCENARIOS.happyNoPartners.country}' });
  expect((await api('/api/v2/entity_validations', { method: 'POST', body })).status).toBe(503);
  const created = await api('/api/v2/entity_validations', { method: 'POST', body });
  expect(created.status).toBe(201);
  const { id } = await created.json();
  const run = await bvs.control.run({ maxWaitSeconds: 60 });
  expect(run.settled).toBe(true);
  const events = await bvs.control.waitForSettled(id);
  expect(events.at(-1).type).toBe('data_source_run_batch.consolidated_report_ready');
  expect((await bvs.control.validations()).validations.map((validation) => validation.id)).toEqual([id]);
  const records = await bvs.control.allEvents();
  expect(records.map((record) => record.status)).toEqual(events.map(() => 'succeeded'));
  expect(records.map((record) => record.entity_validation_id)).toEqual(events.map(() => id));
  expect(records.reduce((sum, record) => sum + record.attempts.length, 0)).toBe(events.length + failures);
  expect(receiver.received.length).toBe(events.length + failures);
  expect(new Set(receiver.received.map((webhook) => JSON.stringify(webhook.body).includes(id)))).toEqual(new Set([true]));
});

test('${TEST_TITLES[2]}', async () => {
  expect((await api('/api/v2/entity_validations', { method: 'POST', body: JSON.stringify({ tin: ${index} }) })).status).toBe(422);
  const journal = await bvs.control.requests({ violations: true });
  expect(journal.requests.map((entry) => entry.label)).toEqual([expect.getState().currentTestName]);
});
`;
}

/** Links `name` from the repository's node_modules (or the repository itself) into the project's. */
function link(project: string, name: string, target = join(ROOT, 'node_modules', name)): void {
  const path = join(project, 'node_modules', name);
  mkdirSync(join(path, '..'), { recursive: true });
  symlinkSync(target, path, 'dir');
}

/** Writes the project for `runner` in a new scratch folder and returns it. */
export function writeParallelProject(runner: 'jest' | 'vitest'): string {
  const dir = mkdtempSync(join(tmpdir(), `bvs-mock-parallel-${runner}-`));
  mkdirSync(join(dir, 'test'));
  const extension = runner === 'jest' ? 'test.js' : 'test.mjs';
  for (let index = 0; index < FILES; index += 1) writeFileSync(join(dir, 'test', `file-${index}.${extension}`), testFile(index, runner));
  link(dir, 'bvs-mock', ROOT);
  link(dir, runner);
  const reporter = `['bvs-mock/testing/${runner}-reporter', { junit: 'reports/bvs-mock.xml', markdown: 'reports/bvs-mock.md', json: 'reports/bvs-mock.json' }]`;
  if (runner === 'jest')
    writeFileSync(join(dir, 'jest.config.js'), `module.exports = { testEnvironment: 'node', testTimeout: 60000, reporters: ['default', ${reporter}] };\n`);
  else
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { pool: 'threads', poolOptions: { threads: { maxThreads: 4, minThreads: 1 } }, testTimeout: 60000, include: ['test/**/*.test.mjs'], reporters: ['default', ${reporter}] } };\n`,
    );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `parallel-${runner}`, version: '1.0.0', private: true }, null, 2));
  return dir;
}

/**
 * Runs the project's suite once (the reports of the last run removed first) against the bvs-mock at `url`, as a CI job
 * would: none of this jest's own variables; `env` added. Throws with the runner's output when it fails.
 */
export function runParallelSuite(dir: string, runner: 'jest' | 'vitest', url: string, env: Record<string, string> = {}): Promise<void> {
  rmSync(join(dir, 'reports'), { recursive: true, force: true });
  const args =
    runner === 'jest'
      ? [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--maxWorkers=4']
      : [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run'];
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(JEST_|VITEST|BVS_MOCK_|NODE_OPTIONS$)/.test(name)));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: dir, env: { ...clean, CI: 'true', BVS_MOCK_URL: url, ...env }, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${runner} failed in ${dir}:\n${stdout}\n${stderr}`, { cause: error }));
        else resolve();
      },
    );
  });
}

/** What the merged JUnit report says of each file: its tests as cases (only the bad request failed), and its violations labelled with that test. */
export function mergedReportByFile(dir: string, runner: 'jest' | 'vitest'): Array<{ tests: Array<[string, boolean]>; violationLabels: string[] }> {
  const extension = runner === 'jest' ? 'test.js' : 'test.mjs';
  const suites = junitCases(dir);
  return Array.from({ length: FILES }, (_, index) => ({
    tests: (suites.get(`bvs-mock contract: test/file-${index}.${extension}: tests`) ?? []).map(({ name, failed }): [string, boolean] => [
      name.replace(/: .*$/, ''),
      failed,
    ]),
    violationLabels: [
      ...new Set((suites.get(`bvs-mock contract: test/file-${index}.${extension}: violations`) ?? []).map(({ name }) => name.split(': POST')[0]!)),
    ],
  }));
}

/** {@link mergedReportByFile} of a run that went as it should. */
export const EXPECTED_BY_FILE = Array.from({ length: FILES }, () => ({
  tests: TEST_TITLES.map((title, index): [string, boolean] => [title, index === 2]),
  violationLabels: [TEST_TITLES[2]!],
}));

/** The test cases of the merged JUnit report, by suite name. */
function junitCases(dir: string): Map<string, Array<{ name: string; failed: boolean }>> {
  const xml = readFileSync(join(dir, 'reports', 'bvs-mock.xml'), 'utf8');
  const suites = new Map<string, Array<{ name: string; failed: boolean }>>();
  for (const [, name, body] of xml.matchAll(/<testsuite\b[^>]*?\sname="([^"]*)"[^>]*>([\s\S]*?)<\/testsuite>/g)) {
    const cases = [...body!.matchAll(/<testcase name="([^"]*)"[^>]*?(\/>|>\s*<failure)/g)].map(([, caseName, end]) => ({
      name: caseName!,
      failed: end !== '/>',
    }));
    suites.set(name!, cases);
  }
  return suites;
}
