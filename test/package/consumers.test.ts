import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/built-cli';
import { packPackage, run, type PackedPackage } from '../support/packed-package';

// The package as client projects consume it: packed, installed from the tarball into empty folders, and
// used from CommonJS, ESM, TypeScript (nodenext and bundler resolution, skipLibCheck false), a stock
// jest + ts-jest project and a stock vitest project, none with any configuration for bvs-mock.
// Installs come from the npm registry (its cache when warm).

jest.setTimeout(300_000);

let packed: PackedPackage;

/** What `jest --json` prints that these tests read. */
interface JestReport {
  numFailedTests: number;
  numPendingTests: number;
  testResults: { assertionResults: { title: string; status: string }[] }[];
}

/** The titles of the tests that passed, in order. */
const passedTitles = (report: JestReport) =>
  report.testResults.flatMap((file) => file.assertionResults.filter((result) => result.status === 'passed').map((result) => result.title));

function project(name: string, packageJson: Record<string, unknown>, files: Record<string, string>, devDependencies: string[]): string {
  const dir = join(packed.work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, ...packageJson }, null, 2));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', packed.tarball, ...devDependencies], dir);
  return dir;
}

beforeAll(() => {
  packed = packPackage('bvs-mock-consumers-');
});

afterAll(() => packed.remove());

const USE = `const mock = createMock({ clock: 'manual' });
const answer = await mock.core.handle({
  method: 'POST', path: '/api/v2/entity_validations', query: new URLSearchParams(), secure: true,
  headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify({ tin: SCENARIOS.happyPartners.tin, country: 'CL' })),
});
const parsed = EntityValidation.safeParse(JSON.parse(String(answer.body)));
mock.dispose();
`;

test('CommonJS require and ESM import of bvs-mock, bvs-mock/testing and bvs-mock/schemas', () => {
  const dir = project(
    'plain-node',
    {},
    {
      'cjs.cjs': `const { createMock } = require('bvs-mock'); const { SCENARIOS, connectBvsMock } = require('bvs-mock/testing'); const { EntityValidation } = require('bvs-mock/schemas'); const { createHandlers } = require('bvs-mock/msw');
(async () => { ${USE} console.log(answer.status, parsed.success, typeof connectBvsMock, typeof createHandlers); })();`,
      'esm.mjs': `import { createMock } from 'bvs-mock'; import { SCENARIOS, connectBvsMock } from 'bvs-mock/testing'; import { EntityValidation } from 'bvs-mock/schemas'; import { createHandlers } from 'bvs-mock/msw';
${USE} console.log(answer.status, parsed.success, typeof connectBvsMock, typeof createHandlers);`,
    },
    [],
  );
  expect(run('node', ['cjs.cjs'], dir).trim()).toBe('201 true function function');
  expect(run('node', ['esm.mjs'], dir).trim()).toBe('201 true function function');
});

test.each([
  ['nodenext, an ESM project', 'nodenext', 'module'],
  ['nodenext, a CommonJS project', 'nodenext', 'commonjs'],
  ['bundler', 'bundler', 'module'],
])('TypeScript with moduleResolution %s and skipLibCheck false type-checks every entry point', (_name, resolution, kind) => {
  // msw's own types import ESM-only packages, which a CommonJS project cannot type-check with skipLibCheck
  // false: bvs-mock/msw is for projects that use msw, and no other entry point reaches msw's types.
  const msw = kind === 'module';
  const dir = project(
    `typescript-${resolution}-${kind}`,
    kind === 'module' && resolution === 'nodenext' ? { type: 'module' } : {},
    {
      'check.ts': `import { createMock, startServer, type Mock } from 'bvs-mock';
import { SCENARIOS, connectBvsMock, startBvsMock, type BvsMockControl } from 'bvs-mock/testing';
import { EntityValidation, type EventType } from 'bvs-mock/schemas';
${msw ? "import { createHandlers } from 'bvs-mock/msw';" : ''}
const mock: Mock = createMock({ clock: 'manual' });
const control: BvsMockControl = connectBvsMock('https://127.0.0.1:4010');
const type: EventType = 'data_source_run_batch.ready';
export const used = [mock, control, type, SCENARIOS.happyPartners.tin, EntityValidation, startServer, startBvsMock${msw ? ', createHandlers' : ''}];
`,
      'tsconfig.json': JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          target: 'es2022',
          module: resolution === 'nodenext' ? 'nodenext' : 'esnext',
          moduleResolution: resolution,
          types: ['node'],
        },
        files: ['check.ts'],
      }),
    },
    // bvs-mock/msw's types are msw's: a project that uses it has msw of its own (an optional peer of bvs-mock).
    ['@types/node@20', ...(msw ? ['msw@2'] : [])],
  );
  run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], dir);
});

describe('installed alone (docs/decisions/0003-msw-once.md)', () => {
  let dir: string;
  beforeAll(() => {
    dir = project('alone', {}, {}, []);
  });

  test('msw ships once, bundled in vendor/msw.js: no msw, @mswjs/http-middleware or express is installed with bvs-mock', () => {
    const installed = ['msw', '@mswjs/http-middleware', 'express'].filter((name) => existsSync(join(dir, 'node_modules', name)));
    expect(installed).toEqual([]);
    expect(existsSync(join(dir, 'node_modules', 'bvs-mock', 'vendor', 'msw.js'))).toBe(true);
  });

  test('the bvs-mock command runs the one bundled file, as the image does, and leaves its V8 code cache for the next start', () => {
    const cache = join(dir, 'node_modules', 'bvs-mock', 'bundle', 'bvs-mock.js.cache');
    expect(existsSync(cache)).toBe(false);
    expect(run(join(dir, 'node_modules', '.bin', 'bvs-mock'), ['scenarios'], dir)).toMatch(/^happy-partners\s+76920415-6/m);
    expect(existsSync(cache)).toBe(true);
    expect(run(join(dir, 'node_modules', '.bin', 'bvs-mock'), ['scenarios'], dir)).toMatch(/^happy-partners\s+76920415-6/m);
  });

  test("bvs-mock/msw serves through the project's own msw, and says how to get it when the project has none", () => {
    const script = `const { createMock } = require('bvs-mock'); const { createHandlers } = require('bvs-mock/msw');
(async () => {
  const mock = createMock({ clock: 'manual', publicUrl: 'https://bvs.test' });
  let handlers;
  try { handlers = createHandlers(mock.core, 'https://bvs.test'); } catch (error) { console.log(error.message); mock.dispose(); return; }
  const server = require('msw/node').setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const answer = await fetch('https://bvs.test/api/v2/webhook_endpoints', { headers: { authorization: 'Bearer test_key_default' } });
  console.log(answer.status, Array.isArray((await answer.json()).webhook_endpoints));
  server.close();
  mock.dispose();
})();`;
    writeFileSync(join(dir, 'own-msw.cjs'), script);
    expect(run('node', ['own-msw.cjs'], dir).trim()).toBe(
      "bvs-mock/msw: createHandlers needs msw 2 in your project, for your own msw server (`npm install --save-dev msw`); startBvsMock({ transport: 'in-process' }) from bvs-mock/testing needs none",
    );
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', 'msw@2'], dir);
    expect(run('node', ['own-msw.cjs'], dir).trim()).toBe('200 true');
  });
});

const TEN_LINES = `  const bvs = await startBvsMock();
  const receiver = await startWebhookReceiver();
  await bvs.control.createEndpoint({ name: 'hooks', url: receiver.url });
  const created = await bvs.fetch(bvs.url + '/api/v2/entity_validations', { method: 'POST', headers: { authorization: 'Bearer ' + bvs.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ tin: SCENARIOS.happyPartners.tin, country: 'CL' }) });
  await bvs.control.waitForSettled(((await created.json()) as { id: string }).id);
  for (const webhook of receiver.received) expect(webhook).toBeValidBvsEvent();
  expect(receiver).toHaveReceivedInOrder(['data_source_run_batch.ready', 'data_source_run_batch.child_batches_ready', 'data_source_run_batch.consolidated_report_ready']);
  await expectNoViolations(bvs);
  await expect(bvs).toHaveReceived({ operation: 'createEntityValidation', body: { tin: SCENARIOS.happyPartners.tin }, times: 1 });
  await receiver.close();
  await bvs.stop();
`;

/** bvs-mock in-process: msw intercepts fetch; in a stock jest too, whose loader cannot read msw's ESM-only dependencies. */
const IN_PROCESS = `import { EntityValidation } from 'bvs-mock/schemas';
test('in-process through msw', async () => {
  const bvs = await startBvsMock({ transport: 'in-process' });
  try {
    const answer = await fetch(bvs.url + '/api/v2/entity_validations', { method: 'POST', headers: { authorization: 'Bearer ' + bvs.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ tin: SCENARIOS.happyPartners.tin, country: 'CL' }) });
    expect(answer.status).toBe(201);
    expect(EntityValidation.safeParse(await answer.json()).success).toBe(true);
  } finally { await bvs.stop(); }
});
`;

test('a stock jest + ts-jest project: the whole client test in ten lines with bvs-mock/testing, and bvs-mock in-process through msw, no configuration for bvs-mock', () => {
  const dir = project(
    'stock-jest',
    { scripts: { test: 'jest' }, jest: { preset: 'ts-jest', testEnvironment: 'node' } },
    {
      'consumer.test.ts': `import 'bvs-mock/testing/jest';
import { SCENARIOS, expectNoViolations, startBvsMock, startWebhookReceiver } from 'bvs-mock/testing';
test('happy partners: settled, events valid and in order, no violation', async () => {
${TEN_LINES}});
${IN_PROCESS}`,
    },
    ['jest@29', 'ts-jest@29', 'typescript@5', '@types/jest@29'],
  );
  // jest's own report, as JSON on standard output: both tests ran, and passed.
  const report = JSON.parse(run('npx', ['jest', '--json'], dir)) as JestReport;
  expect(passedTitles(report)).toEqual(['happy partners: settled, events valid and in order, no violation', 'in-process through msw']);
  expect([report.numFailedTests, report.numPendingTests]).toEqual([0, 0]);
});

test('a stock vitest project: the same ten lines, and bvs-mock in-process through msw, no configuration for bvs-mock', () => {
  const dir = project(
    'stock-vitest',
    { type: 'module', scripts: { test: 'vitest run' } },
    {
      'consumer.test.ts': `import { expect, test } from 'vitest';
import { useBvsMatchers } from 'bvs-mock/testing/vitest';
import { SCENARIOS, expectNoViolations, startBvsMock, startWebhookReceiver } from 'bvs-mock/testing';
useBvsMatchers(expect);
test('happy partners: settled, events valid and in order, no violation', async () => {
${TEN_LINES}});
${IN_PROCESS}`,
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', types: ['node'] },
        files: ['consumer.test.ts'],
      }),
    },
    ['vitest@3', 'typescript@5', '@types/node@20'],
  );
  expect(run('npx', ['vitest', 'run'], dir)).toMatch(/2 passed/);
  // The matchers' types merge into vitest's: the test file type-checks with skipLibCheck false.
  run('npx', ['tsc', '-p', 'tsconfig.json'], dir);
});
