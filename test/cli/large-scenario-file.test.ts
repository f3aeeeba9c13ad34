import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { MAX_SCENARIO_FILE_BYTES } from '../../src/engine/scenarios/load-scenario-file';
import { MAX_LISTED_ISSUES } from '../../src/schemas';
import { ROOT } from '../support/built-cli';
import { scenarioWithKeys } from '../support/scenario-with-keys';

// Regression: a 957 KB scenario file of 70,000 keys in a --scenarios directory took 63 s to load at
// start (the YAML duplicate-key check and the line lookup of each issue were quadratic), and would
// then have printed 70,000 problems. Such a file is now over MAX_SCENARIO_FILE_BYTES and refused from
// its size; a file under it with many problems is read in one pass and lists MAX_LISTED_ISSUES of them.

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'bvs-mock-large-scenario-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A directory holding one scenario file with `text`. */
function scenarioDirectory(name: string, text: string): { dir: string; file: string } {
  const dir = path.join(scratch, name);
  mkdirSync(dir);
  const file = path.join(dir, 'many-keys.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

/** Runs `bvs-mock serve` on a free port; a run that hangs is killed after 20 s, so a regression fails instead of stalling. */
function serve(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BVS_MOCK_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/bvs-mock.js'), 'serve', '--port', '0', ...args],
      { cwd: ROOT, env, timeout: 20_000 },
      (error, _stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr });
      },
    );
  });
}

test('serve --scenarios with a 957 KB scenario file of 70,000 keys exits 1 at once, naming the file, its size and the limit', async () => {
  const text = scenarioWithKeys(70_000);
  const { dir, file } = scenarioDirectory('too-large', text);
  const run = await serve(['--scenarios', dir]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    `${file}: the file is ${Buffer.byteLength(text)} bytes, over the limit of 256 KiB (${MAX_SCENARIO_FILE_BYTES} bytes) for a scenario file; split it into several scenario files, one per tree (docs/scenarios.md)`,
  );
}, 30_000);

test('serve --scenarios with a scenario file of 18,000 unknown keys exits 1 listing the first MAX_LISTED_ISSUES with their lines, and counting the others', async () => {
  const { dir, file } = scenarioDirectory('many-problems', scenarioWithKeys(18_000));
  const run = await serve(['--scenarios', dir]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('bvs-mock: 18000 problems in scenario file');
  const lines = run.stderr.split('\n').filter((line) => line.includes('is not a known field here'));
  expect(lines).toHaveLength(MAX_LISTED_ISSUES);
  expect(lines[0]).toContain(`${file}:10: $.entity.key00000: "key00000" is not a known field here`);
  expect(run.stderr).toContain(`${file}: and 17900 more problems (the first 100 are listed)`);
  expect(run.stderr.length).toBeLessThan(32_768);
}, 30_000);
