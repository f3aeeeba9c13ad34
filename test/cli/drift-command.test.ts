import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/main';
import { DriftReport } from '../../src/schemas';
import { SCENARIOS } from '../../src/testing';
import { expectValidJunit } from '../support/junit-schema';
import { recordPlay } from '../support/recording-rig';

// `bvs-mock drift REC...`: exit 0 when the recorded trees play the same in bvs-mock, 1 on drift (each difference with
// its row), 2 for a wrong command or file, 3 when a tree cannot be played; the report as JSON, Markdown or JUnit.

let dir: string;
let stdout: jest.SpyInstance;
let stderr: jest.SpyInstance;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bvs-drift-'));
  process.exitCode = undefined;
  stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterEach(() => {
  jest.restoreAllMocks();
  process.exitCode = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<number> {
  stdout.mockClear();
  stderr.mockClear();
  await buildProgram()
    .exitOverride()
    .parseAsync(['node', 'bvs-mock', ...args]);
  return Number(process.exitCode ?? 0);
}

const printed = () => stdout.mock.calls.join('');
const happyPartners = Object.values(SCENARIOS).find((scenario) => scenario.name === 'happy-partners')!;

/** Records a happy-partners tree through an upstream bvs-mock with these readings; answers the two files. */
async function recorded(readings: Record<string, string> = {}): Promise<[string, string]> {
  const play = await recordPlay({ tin: happyPartners.tin, country: happyPartners.country, upstream: { readings } });
  const files: [string, string] = [join(dir, 'proxy.json'), join(dir, 'listen.json')];
  writeFileSync(files[0], JSON.stringify(play.proxy));
  writeFileSync(files[1], JSON.stringify(play.listen));
  return files;
}

test('recordings of an identical upstream: exit 0, the tree and the choices it confirms printed, a JUnit report CI systems read', async () => {
  const files = await recorded();
  const junit = join(dir, 'drift.xml');
  expect(await run('drift', ...files, '--report', junit)).toBe(0);
  expect(printed()).toMatch(/tree evl_\w+ \(Comercial Los Andes SpA\): 12 events recorded, 12 played by bvs-mock/);
  expect(printed()).toContain('confirms docs/fidelity.md row 21 (child-batch-fields=whole)');
  expect(printed()).toMatch(/\n0 difference\(s\), 1 confirmation\(s\)\n$/);
  const xml = readFileSync(junit, 'utf8');
  expectValidJunit(xml);
  expect(xml).toContain('name="plays the same in bvs-mock"');
  expect(xml).not.toContain('<failure');
});

test('an upstream at another reading: exit 1 naming the row and the reading; with that reading given, exit 0', async () => {
  const files = await recorded({ 'child-batch-fields': 'listed' });
  const json = join(dir, 'drift.json');
  const markdown = join(dir, 'drift.md');
  expect(await run('drift', ...files, '--report', json)).toBe(1);
  expect(printed()).toMatch(
    /shape: data_source_run_batch\.child_batches_ready at \$\.data_source_run_batch\.child_batches\[\*\]\.data_source_runs: bvs-mock sends this field; recorded: does not have it; refutes docs\/fidelity\.md row 21: the recording reads as child-batch-fields=listed/,
  );
  const report = DriftReport.parse(JSON.parse(readFileSync(json, 'utf8')));
  expect(report.differences.every((d) => d.row === 21 && d.reading?.value === 'listed')).toBe(true);
  expect(await run('drift', ...files, '--report', markdown, '--reading', 'child-batch-fields=listed')).toBe(0);
  expect(readFileSync(markdown, 'utf8')).toContain('No difference: the recordings read as the contract says and their trees play the same in bvs-mock.');
});

test('a recording of the API alone: exit 3, incomplete, the tree skipped in JUnit with the reason', async () => {
  const [proxy] = await recorded();
  const junit = join(dir, 'drift.xml');
  expect(await run('drift', proxy, '--report', junit)).toBe(3);
  expect(printed()).toContain('not played: no delivery of the tree was recorded: record its webhooks with bvs-mock listen --record as well');
  expect(printed()).toContain('Incomplete: a tree not played is not a pass.');
  expect(readFileSync(junit, 'utf8')).toContain('<skipped message="no delivery of the tree was recorded');
});

test('a wrong command or file: exit 2 with what, where and why', async () => {
  const [proxy] = await recorded();
  expect(await run('drift', proxy, '--tolerance', 'soon')).toBe(2);
  expect(stderr.mock.calls.join('')).toContain('--tolerance soon: not a duration; give one like 2s, 500ms or 1m');
  const other = join(dir, 'other.json');
  writeFileSync(other, '{"format":"bvs-mock/world-snapshot"}');
  expect(await run('drift', other)).toBe(2);
  expect(stderr.mock.calls.join('')).toContain(`${other}: not a recording (its format is not bvs-mock/recording); give a file written by --record`);
  writeFileSync(join(dir, 'taken.xml'), 'keep');
  expect(await run('drift', proxy, '--report', join(dir, 'taken.xml'))).toBe(2);
  expect(stderr.mock.calls.join('')).toContain('exists; give --force to overwrite it');
  expect(readFileSync(join(dir, 'taken.xml'), 'utf8')).toBe('keep');
});

test('a recording with a body nested deeper than any of the service: exit 2 naming the body and the path, no crash', async () => {
  const [proxy, listen] = await recorded();
  const recording = JSON.parse(readFileSync(listen, 'utf8'));
  recording.deliveries[2].body = 'DEEP';
  // Written as text: a value this deep is more than JSON.stringify can walk.
  const deep = `{"type":"data_source_run_batch.ready","data_source_run_batch":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`;
  writeFileSync(listen, JSON.stringify(recording).replace('"DEEP"', deep));
  expect(await run('drift', proxy, listen)).toBe(2);
  expect(stderr.mock.calls.join('')).toMatch(
    /listen\.json: \$\.deliveries\[2\]\.body\.data_source_run_batch(\.a)+: nested more than 64 levels deep \(objects and arrays\), deeper than any body of the service; this recording cannot be read/,
  );
  expect(await run('scenario', 'from-recording', proxy, listen, '--name', 'deep')).toBe(2);
});
