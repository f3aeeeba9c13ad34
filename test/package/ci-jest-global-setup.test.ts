import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../support/built-cli';
import { packPackage, runAsync, type PackedPackage } from '../support/packed-package';

// examples/ci/jest-global-setup.ts and its teardown, as a client project uses them: a stock jest + ts-jest project
// with bvs-mock installed from the packed tarball, the two files copied into ci/ and named in jest.config.js, and
// two test files (so two workers) that read what the setup exported and call that one bvs-mock.

jest.setTimeout(300_000);

let packed: PackedPackage;
beforeAll(() => {
  packed = packPackage('bvs-mock-jest-global-setup-');
});
afterAll(() => packed.remove());

const VALIDATION_TEST = `import { request } from 'node:https';
import { writeFileSync } from 'node:fs';
import { SCENARIOS, connectBvsMock } from 'bvs-mock/testing';

test('creates a validation on the bvs-mock the global setup started, over HTTPS verified with its certificate', async () => {
  const { BVS_URL, BVS_API_KEY, BVS_CA } = process.env;
  writeFileSync('bvs-url.txt', BVS_URL!);
  const { tin, country } = SCENARIOS.happyPartners;
  const created = await new Promise<{ status: number; id: string }>((resolve, reject) => {
    const headers = { authorization: \`Bearer \${BVS_API_KEY}\`, 'content-type': 'application/json' };
    request(\`\${BVS_URL}/api/v2/entity_validations\`, { method: 'POST', headers, ca: BVS_CA }, (answer) => {
      let text = '';
      answer.on('data', (chunk) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, id: JSON.parse(text).id }));
    })
      .on('error', reject)
      .end(JSON.stringify({ tin, country }));
  });
  expect(created.status).toBe(201);
  const events = await connectBvsMock(BVS_URL!, { ca: BVS_CA }).waitForSettled(created.id);
  expect(events[events.length - 1]?.type).toBe('data_source_run_batch.consolidated_report_ready');
});
`;

const HEALTH_TEST = `import { connectBvsMock } from 'bvs-mock/testing';

test('another test file, in another worker, reaches the same bvs-mock', async () => {
  const health = await connectBvsMock(process.env.BVS_URL!, { ca: process.env.BVS_CA }).health();
  expect(health.status).toBe('ok');
});
`;

const SESSION_TEST = `import { SCENARIOS, startBvsMock } from 'bvs-mock/testing';

test('startBvsMock() in a test file makes a session of its own on the global bvs-mock, through BVS_MOCK_URL', async () => {
  const bvs = await startBvsMock({ clock: 'manual' });
  try {
    expect(bvs.url).toBe(process.env.BVS_MOCK_URL);
    expect(bvs.apiKey).toMatch(/^bvs_key_/);
    const { tin, country } = SCENARIOS.happyNoPartners;
    const headers = { authorization: \`Bearer \${bvs.apiKey}\`, 'content-type': 'application/json' };
    const created = await bvs.fetch(\`\${bvs.url}/api/v2/entity_validations\`, { method: 'POST', headers, body: JSON.stringify({ tin, country }) });
    expect(created.status).toBe(201);
    expect((await bvs.control.run()).settled).toBe(true);
    expect((await bvs.control.requests()).requests.map((entry) => entry.label)).toEqual([expect.getState().currentTestName]);
  } finally {
    await bvs.stop();
  }
});
`;

function refused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

test('examples/ci/jest-global-setup.ts starts one bvs-mock for the run, every test file uses it (one in a session of its own, in the merged report), and the teardown stops it', async () => {
  const dir = join(packed.work, 'jest-global-setup');
  mkdirSync(join(dir, 'ci'), { recursive: true });
  mkdirSync(join(dir, 'test'));
  for (const file of ['jest-global-setup.ts', 'jest-global-teardown.ts']) copyFileSync(join(ROOT, 'examples', 'ci', file), join(dir, 'ci', file));
  writeFileSync(join(dir, 'test', 'validation.test.ts'), VALIDATION_TEST);
  writeFileSync(join(dir, 'test', 'health.test.ts'), HEALTH_TEST);
  writeFileSync(join(dir, 'test', 'session.test.ts'), SESSION_TEST);
  writeFileSync(
    join(dir, 'jest.config.js'),
    "module.exports = {\n  preset: 'ts-jest',\n  testEnvironment: 'node',\n  globalSetup: './ci/jest-global-setup.ts',\n  globalTeardown: './ci/jest-global-teardown.ts',\n  reporters: ['default', ['bvs-mock/testing/jest-reporter', { junit: 'reports/bvs-mock.xml', markdown: false, json: false }]],\n};\n",
  );
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'jest-global-setup', version: '1.0.0', private: true, scripts: { test: 'jest' } }, null, 2));
  await runAsync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', packed.tarball, 'jest@29', 'ts-jest@29', 'typescript@5', '@types/jest@29'],
    dir,
  );
  // jest exits only once the teardown has closed the server; the timeout turns a hang into a failure.
  await runAsync('timeout', ['180', 'npx', 'jest', '--ci', '--maxWorkers=2'], dir);
  const url = readFileSync(join(dir, 'bvs-url.txt'), 'utf8');
  expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  expect(await refused(url)).toBe(true);
  // The session's report, merged by the reporter: the file's test is a case, passed.
  const junit = readFileSync(join(dir, 'reports', 'bvs-mock.xml'), 'utf8');
  expect(junit).toContain('name="bvs-mock contract: test/session.test.ts: tests"');
  expect(junit).toMatch(
    /<testcase name="startBvsMock\(\) in a test file makes a session [^"]*: no contract violation" classname="test\/session\.test\.ts" time="0"\/>/,
  );
});
