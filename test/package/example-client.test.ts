import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT } from '../support/built-cli';
import { packPackage, run, type PackedPackage } from '../support/packed-package';

// examples/client-ts, as a client team would have it: its own project, with bvs-mock installed from the packed
// tarball (not from this checkout), type-checked with skipLibCheck false, and its integration tests run by its
// own jest. A test of bvs-mock fails when the example stops working against the package.

jest.setTimeout(300_000);

let packed: PackedPackage;
beforeAll(() => {
  packed = packPackage('bvs-mock-example-');
});
afterAll(() => packed.remove());

test('examples/client-ts type-checks and passes its tests against the packed package', () => {
  const dir = join(packed.work, 'client-ts');
  cpSync(join(ROOT, 'examples', 'client-ts'), dir, { recursive: true, filter: (source) => !source.includes('node_modules') });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  manifest.devDependencies['bvs-mock'] = `file:${packed.tarball}`;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock'], dir);
  // `npm test` type-checks (a type error fails it), then jest reports as JSON on standard output.
  const output = run('npm', ['test', '-s', '--', '--ci', '--json'], dir);
  const report = JSON.parse(output.slice(output.indexOf('{'))) as {
    numTotalTests: number;
    numFailedTests: number;
    numPassedTests: number;
    testResults: { name: string; status: string }[];
  };
  const suites = readdirSync(join(dir, 'test')).filter((file) => file.endsWith('.test.ts'));
  expect(report.testResults.map((result) => [basename(result.name), result.status]).sort()).toEqual(suites.sort().map((file) => [file, 'passed']));
  expect([report.numFailedTests, report.numPassedTests]).toEqual([0, report.numTotalTests]);
  expect(report.numTotalTests).toBeGreaterThanOrEqual(suites.length);
  // The suite's reporter wrote the run's contract report: the choices of bvs-mock the example relied on, each with its row.
  const merged = JSON.parse(readFileSync(join(dir, 'bvs-mock-report', 'report.json'), 'utf8')) as {
    relied_on: { row: number; choice: string; seen: { count: number; first: { report?: string } } }[];
  };
  const rows = [...new Set(merged.relied_on.map((item) => item.row))];
  process.stdout.write(`examples/client-ts relied on docs/fidelity.md rows ${rows.join(', ')}\n`);
  expect(rows).toEqual([...rows].sort((a, b) => a - b));
  expect(rows).toEqual(expect.arrayContaining([13, 14, 17, 19, 21, 22, 23, 24, 25, 31, 42, 46, 71]));
  // It calls no path of bvs-mock's choosing (row 18).
  expect(rows).not.toContain(18);
  for (const item of merged.relied_on) expect(item.seen.first.report).toMatch(/^test\/[a-z-]+\.test\.ts/);
});
