import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// The tiers of jest.config.js stay what CONTRIBUTING.md says: `npm test` runs only tests in this process.
// A test that starts the command line, a browser, Prism, bash, npm or podman belongs to a slower tier
// (test/support/tiers.js); this test names the file that does not.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const tiers = require('./support/tiers.js') as Record<'SYSTEM' | 'PACKAGE' | 'CONTAINER', string[]>;
const ROOT = join(__dirname, '..');

/** Every test file under `dir`, relative to the repository. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

const CHILD_PROCESS = /^import .* from 'node:child_process';$/m;
/** What starts a process, as a test file writes it. */
const STARTS = [
  { what: 'the command line', pattern: /\b(spawnCli|runCli|startServedCli)\(/ },
  { what: 'Chromium', pattern: /\b(launchChromium|chromiumUnavailable)\(/ },
  { what: 'npm pack', pattern: /\bpackPackage\(/ },
  { what: 'podman', pattern: /\b(podman|podmanUnavailable|ensureTestImage)\(/ },
  { what: 'a child process', pattern: CHILD_PROCESS },
];

/** Unit tests that start a process anyway, and why that belongs in `npm test`. */
const UNIT_EXCEPTIONS: Record<string, string> = {
  'test/openapi/lint.test.ts': 'Redocly lints the OpenAPI documents, a linter like eslint in the same run',
};

const all = [...testFiles(join(ROOT, 'test')), ...testFiles(join(ROOT, 'src'))].sort();
const slower = [...tiers.SYSTEM, ...tiers.PACKAGE, ...tiers.CONTAINER];

test('each file of a slower tier exists and is in one tier only', () => {
  expect(slower.filter((file) => !all.includes(file))).toEqual([]);
  expect(slower.filter((file, index) => slower.indexOf(file) !== index)).toEqual([]);
});

test('no unit test starts the command line, a browser, npm, podman or another process', () => {
  const offenders = all
    .filter((file) => !slower.includes(file) && UNIT_EXCEPTIONS[file] === undefined)
    .flatMap((file) => {
      const source = readFileSync(join(ROOT, file), 'utf8');
      return STARTS.filter(({ pattern }) => pattern.test(source)).map(({ what }) => `${file} starts ${what}: list it in test/support/tiers.js`);
    });
  expect(offenders).toEqual([]);
});

test('every exception still starts what it is excused for', () => {
  for (const file of Object.keys(UNIT_EXCEPTIONS)) expect(readFileSync(join(ROOT, file), 'utf8')).toMatch(CHILD_PROCESS);
});

/** How a test bounds real time from above, as test files have written it. */
const WALL_CLOCK_BOUND = /expect\(\s*(?:(?:Date|performance)\.now\(\)\s*-\s*\w+|\w+\.ms)\s*\)\s*\.toBeLessThan(?:OrEqual)?\(/;

it('no test asserts an upper bound on wall-clock time: a busy CI machine would fail it, so tests await the thing itself', () => {
  const bounded = testFiles(join(ROOT, 'test')).filter((file) => WALL_CLOCK_BOUND.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(bounded).toEqual([]);
});

/** An assertion of `subject` against a number, written out as a test would write it (built here, so this file holds none). */
const assertion = (subject: string, matcher: string) => ['expect(', subject, ').', matcher, '(1_000);'].join('');

it('the wall-clock check recognises the bounds it forbids', () => {
  expect(WALL_CLOCK_BOUND.test(assertion('Date.now() - started', 'toBeLessThan'))).toBe(true);
  expect(WALL_CLOCK_BOUND.test(assertion('performance.now() - t0', 'toBeLessThanOrEqual'))).toBe(true);
  expect(WALL_CLOCK_BOUND.test(assertion('run.ms', 'toBeLessThan'))).toBe(true);
  expect(WALL_CLOCK_BOUND.test(assertion('started', 'toBeLessThanOrEqual'))).toBe(false);
});
