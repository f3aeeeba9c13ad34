import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildProgram } from '../../src/cli/main';
import { ScenarioLibrary } from '../../src/engine/scenarios';
import { recordPlay } from '../support/recording-rig';

// `bvs-mock scenario from-recording REC... --name NAME`: the two recordings of one tree (proxy's and listen's) become a
// scenario file that the loader of --scenarios directories takes; a file that is not a recording is refused with exit 2.

let dir: string;
let stderr: jest.SpyInstance;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bvs-from-recording-'));
  process.exitCode = undefined;
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
});
afterEach(() => {
  jest.restoreAllMocks();
  process.exitCode = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function run(...args: string[]): Promise<number> {
  await buildProgram()
    .exitOverride()
    .parseAsync(['node', 'bvs-mock', ...args]);
  return Number(process.exitCode ?? 0);
}

test('the proxy and listen recordings of a tree become a scenario file that a --scenarios directory loads', async () => {
  // A TIN no scenario claims: its generated tree is played, and the recorded one claims the TIN.
  const tin = '76543210-3';
  const played = await recordPlay({ tin, country: 'CL' });
  writeFileSync(join(dir, 'proxy.json'), JSON.stringify(played.proxy));
  writeFileSync(join(dir, 'listen.json'), JSON.stringify(played.listen));
  const out = join(dir, 'scenarios', 'recorded.yaml');
  mkdirSync(join(dir, 'scenarios'));
  expect(await run('scenario', 'from-recording', join(dir, 'proxy.json'), join(dir, 'listen.json'), '--name', 'recorded-generated', '--out', out)).toBe(0);
  expect(readFileSync(out, 'utf8')).toMatch(/^name: recorded-generated\n/);
  const library = ScenarioLibrary.builtIn();
  library.loadDirectory(join(dir, 'scenarios'));
  expect(library.forTin(tin)?.name).toBe('recorded-generated');
  expect(library.byName('recorded-generated')!.entity.runs.map((run) => run.type)).toEqual(['cl/sii', 'cl/registry', 'cl/pep']);
  expect(await run('scenario', 'from-recording', join(dir, 'proxy.json'), '--name', 'again', '--out', out)).toBe(2);
  expect(stderr.mock.calls.join('')).toContain('exists; give --force to overwrite it');
});

test('a file that is not a recording is refused with exit 2, naming the file and what to give', async () => {
  const file = join(dir, 'other.json');
  writeFileSync(file, JSON.stringify({ format: 'bvs-mock/world-snapshot', version: 1 }));
  expect(await run('scenario', 'from-recording', file, '--name', 'x')).toBe(2);
  expect(stderr.mock.calls.join('')).toContain(`${file}: not a recording (its format is not bvs-mock/recording); give a file written by --record`);
});

test('a tree of a TIN a built-in scenario claims is written, with a note that serve --scenarios refuses it until its TIN is changed', async () => {
  const played = await recordPlay({ tin: '76920415-6', country: 'CL' });
  writeFileSync(join(dir, 'proxy.json'), JSON.stringify(played.proxy));
  writeFileSync(join(dir, 'listen.json'), JSON.stringify(played.listen));
  const out = join(dir, 'recorded.yaml');
  expect(await run('scenario', 'from-recording', join(dir, 'proxy.json'), join(dir, 'listen.json'), '--name', 'recorded-partners', '--out', out)).toBe(0);
  expect(stderr.mock.calls.join('')).toContain('note: TIN 76920415-6 is already claimed by scenario "happy-partners"');
  expect(stderr.mock.calls.join('')).toContain('serve --scenarios refuses the file until its name, or its tins and entity.tin, are changed');
  expect(readFileSync(out, 'utf8')).toMatch(/^name: recorded-partners\n/);
});
