import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ScenarioLibrary, ScenarioLibraryError, loadScenarioFile, parseScenarioSource } from '../../src/engine/scenarios';
import { MAX_SCENARIO_FILE_BYTES } from '../../src/engine/scenarios/load-scenario-file';
import { DEFAULT_BODY_LIMIT } from '../../src/api/server-settings';
import { guardedFifo, type GuardedFifo } from '../support/guarded-fifo';

// Regression: a 50 MB scenario file took 32 s and 2.8 GB to load, and a FIFO passed as a scenario
// file blocked start-up. Scenario files are now checked before they are read: regular files only,
// at most MAX_SCENARIO_FILE_BYTES (src/engine/scenarios/load-scenario-file.ts).

let scratch: string;
let directories = 0;
const fifos: GuardedFifo[] = [];

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'bvs-mock-scenario-limits-'));
});

afterEach(() => {
  for (const fifo of fifos.splice(0)) fifo.release();
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function directory(): string {
  const dir = path.join(scratch, `dir-${++directories}`);
  mkdirSync(dir);
  return dir;
}

/** A named pipe nobody writes to (but the guard, after FIFO_GUARD_MS): reading it the plain way blocks. */
function fifo(dir: string, name: string): string {
  const made = guardedFifo(dir, name);
  fifos.push(made);
  return made.file;
}

/** A minimal valid scenario. */
function scenarioText(name: string, tin: string): string {
  return `name: ${name}
description: ${name} for limit tests
tins: ["${tin}"]
entity:
  tin: ${tin}
  country: CL
  category: business
  name: Comercial Prueba SpA
  runs: [{ type: cl/sii, outcomes: [{ succeeded: 20s }] }]
`;
}

function loadError(library: ScenarioLibrary, dir: string): ScenarioLibraryError {
  try {
    library.loadDirectory(dir);
  } catch (error) {
    if (error instanceof ScenarioLibraryError) return error;
    throw error;
  }
  throw new Error('expected loadDirectory to throw');
}

test('loadScenarioFile refuses a FIFO at once with an issue naming what it is', () => {
  const file = fifo(directory(), 'piped.yaml');
  const result = loadScenarioFile(file);
  expect(result).toMatchObject({
    ok: false,
    file,
    issues: [{ file, path: '$', code: 'not_a_regular_file', message: expect.stringContaining('is a FIFO (named pipe), not a regular file') }],
  });
}, 5_000);

test('loadScenarioFile refuses a directory named like a scenario file', () => {
  const dir = path.join(directory(), 'folder.yaml');
  mkdirSync(dir);
  expect(loadScenarioFile(dir)).toMatchObject({
    ok: false,
    issues: [
      {
        code: 'not_a_regular_file',
        message: expect.stringMatching(/^is a directory, not a regular file; a scenario is read from a regular YAML or JSON file/),
      },
    ],
  });
});

test('loadScenarioFile refuses a file one byte over MAX_SCENARIO_FILE_BYTES with its size and the limit', () => {
  const file = path.join(directory(), 'huge.yaml');
  writeFileSync(file, scenarioText('huge', '11111111-1'));
  // Sparse: the size is what is checked, so no megabyte is written.
  truncateSync(file, MAX_SCENARIO_FILE_BYTES + 1);
  const result = loadScenarioFile(file);
  expect(result).toMatchObject({ ok: false, issues: [{ file, path: '$', code: 'too_large' }] });
  expect(!result.ok && result.issues[0]!.message).toBe(
    `the file is ${MAX_SCENARIO_FILE_BYTES + 1} bytes, over the limit of 256 KiB (${MAX_SCENARIO_FILE_BYTES} bytes) for a scenario file; split it into several scenario files, one per tree (docs/scenarios.md)`,
  );
});

test('loadScenarioFile reads a scenario of exactly MAX_SCENARIO_FILE_BYTES', () => {
  const file = path.join(directory(), 'at-limit.yaml');
  const text = scenarioText('at-limit', '11111111-1');
  writeFileSync(file, `${text}#${'x'.repeat(MAX_SCENARIO_FILE_BYTES - Buffer.byteLength(text) - 2)}\n`);
  expect(statSync(file).size).toBe(MAX_SCENARIO_FILE_BYTES);
  expect(loadScenarioFile(file)).toMatchObject({ ok: true, value: { name: 'at-limit' } });
});

test('parseScenarioSource holds posted text to the same limit, below the request body limit so the control API refuses a bigger scenario from its size', () => {
  expect(MAX_SCENARIO_FILE_BYTES).toBeLessThan(DEFAULT_BODY_LIMIT);
  const text = `${scenarioText('posted', '11111111-1')}#${'x'.repeat(MAX_SCENARIO_FILE_BYTES)}\n`;
  const result = parseScenarioSource({ text, file: 'POST /_mock/scenarios' });
  expect(result).toMatchObject({
    ok: false,
    issues: [{ path: '$', code: 'too_large', message: expect.stringContaining(`over the limit of 256 KiB (${MAX_SCENARIO_FILE_BYTES} bytes)`) }],
  });
});

test('loadDirectory reports a FIFO and a directory named *.yaml as errors, without blocking, and adds nothing', () => {
  const dir = directory();
  writeFileSync(path.join(dir, 'good.yaml'), scenarioText('good', '11111111-1'));
  const piped = fifo(dir, 'piped.yaml');
  mkdirSync(path.join(dir, 'folder.yml'));
  const library = ScenarioLibrary.builtIn();
  const before = library.size;
  const error = loadError(library, dir);
  expect(error.issues.map((issue) => [path.basename(issue.file), issue.code])).toEqual([
    ['folder.yml', 'not_a_regular_file'],
    ['piped.yaml', 'not_a_regular_file'],
  ]);
  expect(error.message).toContain(`${path.basename(piped)}: is a FIFO (named pipe), not a regular file`);
  expect(error.message).toContain('move this entry out or rename it');
  expect(library.size).toBe(before);
  expect(library.byName('good')).toBeUndefined();
}, 5_000);

test('loadDirectory follows a link to a scenario file, and leaves out dangling links and entries not named like scenario files', () => {
  const dir = directory();
  const elsewhere = directory();
  writeFileSync(path.join(elsewhere, 'linked.yaml'), scenarioText('linked', '22222222-2'));
  writeFileSync(path.join(dir, 'good.yaml'), scenarioText('good', '11111111-1'));
  symlinkSync(path.join(elsewhere, 'linked.yaml'), path.join(dir, 'linked.yaml'));
  // An Emacs lock file: a link to nothing, named after the scenario being edited.
  symlinkSync('someone@host.4242:1700000000', path.join(dir, '.#good.yaml'));
  fifo(dir, 'notes.pipe');
  mkdirSync(path.join(dir, 'drafts'));
  const library = new ScenarioLibrary();
  library.loadDirectory(dir);
  expect(library.list().map((scenario) => scenario.name)).toEqual(['good', 'linked']);
});
