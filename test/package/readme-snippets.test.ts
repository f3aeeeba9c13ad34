import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type StartedServer } from '../../src/http';
import { ROOT } from '../support/built-cli';
import { packPackage, run, runAsync, type PackedPackage } from '../support/packed-package';

// Every TypeScript block of the README is a whole test file a client team could copy: each is written into a
// stock jest + ts-jest project that installs bvs-mock from the packed tarball, type-checked with skipLibCheck
// false, and run (the container one against a bvs-mock this test starts, as a CI job would).

jest.setTimeout(300_000);

const CONTROL_TOKEN = 'readme_control_token';
let packed: PackedPackage;
let server: StartedServer;

beforeAll(async () => {
  packed = packPackage('bvs-mock-readme-');
  server = await startServer({ port: 0, controlToken: CONTROL_TOKEN });
});
afterAll(async () => {
  await server.close();
  packed.remove();
});

function typescriptBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

test('the README has TypeScript blocks, each a test file', () => {
  const blocks = typescriptBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  for (const block of blocks) expect(block).toMatch(/^test\(/m);
});

test('every TypeScript block of the README type-checks and passes in a stock jest project installed from the tarball', async () => {
  const dir = join(packed.work, 'readme');
  mkdirSync(dir);
  const blocks = typescriptBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  blocks.forEach((block, index) => writeFileSync(join(dir, `readme-${index + 1}.test.ts`), block));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'readme', version: '1.0.0', private: true, jest: { preset: 'ts-jest', testEnvironment: 'node' } }, null, 2),
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', module: 'node16', isolatedModules: true, types: ['node', 'jest'] },
      include: ['*.ts'],
    }),
  );
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', packed.tarball, 'jest@29', 'ts-jest@29', 'typescript@5', '@types/jest@29', '@types/node@20'],
    dir,
  );
  run('npx', ['tsc', '-p', 'tsconfig.json'], dir);
  // Not blocking: the container block calls the bvs-mock this process serves.
  await runAsync('npx', ['jest', '--ci'], dir, { BVS_URL: server.url, BVS_CA: server.certificate!, BVS_CONTROL_TOKEN: CONTROL_TOKEN });
});
