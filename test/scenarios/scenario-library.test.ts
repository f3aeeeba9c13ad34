import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BUILT_IN_SCENARIOS_DIR, ScenarioLibrary, ScenarioLibraryError, generateScenario } from '../../src/engine/scenarios';

const root = mkdtempSync(path.join(tmpdir(), 'bvs-mock-library-'));
let directories = 0;

/** A directory holding the given files. */
function directoryWith(files: Record<string, string>): string {
  const dir = path.join(root, `dir-${++directories}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

/** A minimal valid scenario file; `name` on line 1, `tins` on line 3. */
function scenarioText(name: string, tin: string, extra = ''): string {
  return `name: ${name}
description: ${name} for library tests
tins: ["${tin}"]
entity:
  tin: ${tin}
  country: CL
  category: business
  name: Comercial Prueba SpA
  runs: [{ type: cl/sii, outcomes: [{ succeeded: 20s }] }]
${extra}`;
}

function loadError(library: ScenarioLibrary, dir: string, options?: { override?: boolean }): ScenarioLibraryError {
  try {
    library.loadDirectory(dir, options);
  } catch (error) {
    if (error instanceof ScenarioLibraryError) return error;
    throw error;
  }
  throw new Error('expected loadDirectory to throw');
}

test('loads yaml, yml and json files of a directory in name order and ignores other files', () => {
  const dir = directoryWith({
    'b.yml': scenarioText('second', '9100001-1'),
    'a.yaml': scenarioText('first', '9100002-K'),
    'c.json': JSON.stringify({
      name: 'third',
      description: 'json',
      entity: { tin: '9100003-8', country: 'CL', category: 'person', name: 'Ana', runs: [{ type: 'cl/pep', outcomes: [{ succeeded: 5 }] }] },
    }),
    'notes.txt': 'not a scenario',
  });
  const library = new ScenarioLibrary();
  library.loadDirectory(dir);
  expect(library.list().map((summary) => [summary.name, path.basename(summary.source)])).toEqual([
    ['first', 'a.yaml'],
    ['second', 'b.yml'],
    ['third', 'c.json'],
  ]);
  expect(library.forTin('9100003-8')?.name).toBe('third');
});

test('reports a scenario name used by two files with the second file, its line and the first file', () => {
  const dir = directoryWith({ 'a.yaml': scenarioText('dup', '9200001-4'), 'b.yaml': scenarioText('dup', '9200002-2') });
  const error = loadError(new ScenarioLibrary(), dir);
  expect(error.issues).toEqual([expect.objectContaining({ file: path.join(dir, 'b.yaml'), line: 1, path: '$.name', code: 'duplicate_scenario_name' })]);
  expect(error.message).toContain(`b.yaml:1: $.name: scenario name "dup" is already used by ${path.join(dir, 'a.yaml')}`);
});

test('reports a TIN claimed by two files with the line of the TIN and the scenario that claimed it first', () => {
  const dir = directoryWith({ 'a.yaml': scenarioText('one', '9300001-7'), 'b.yaml': scenarioText('two', '9.300.001-7') });
  const error = loadError(new ScenarioLibrary(), dir);
  expect(error.issues).toEqual([expect.objectContaining({ file: path.join(dir, 'b.yaml'), line: 3, path: '$.tins[0]', code: 'duplicate_scenario_tin' })]);
  expect(error.issues[0]!.message).toMatch(
    /^TIN 9\.300\.001-7 is already claimed by scenario "one" \(.*a\.yaml\); a TIN selects one scenario, so give "two" another TIN$/,
  );
});

test('reports the issues of every bad file of a directory in one error and adds none of its scenarios', () => {
  const dir = directoryWith({
    'a-good.yaml': scenarioText('good', '9400001-K'),
    'b-typo.yaml': scenarioText('typo', '9400002-8').replace('succeeded: 20s', 'succeded: 20s'),
    'c-syntax.yaml': scenarioText('syntax', '9400003-6').replace('country: CL', 'country: [CL'),
  });
  const library = new ScenarioLibrary();
  const error = loadError(library, dir);
  expect(error.errors.map((each) => path.basename(each.file))).toEqual(['b-typo.yaml', 'c-syntax.yaml']);
  expect(error.message).toMatch(/^bvs-mock: 2 problems in 2 scenario files \(.*b-typo\.yaml, .*c-syntax\.yaml\); fix them and start again/);
  expect(error.message).toMatch(/b-typo\.yaml:9: \$\.entity\.runs\[0\]\.outcomes\[0\]\.succeded: "succeded" is not one of/);
  expect(error.message).toMatch(/c-syntax\.yaml:7:3: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a \]$/m);
  expect(library.size).toBe(0);
  expect(library.byName('good')).toBeUndefined();
});

test('refuses a directory scenario named like a built-in one unless override is given', () => {
  const library = ScenarioLibrary.builtIn();
  const dir = directoryWith({ 'mine.yaml': scenarioText('happy-partners', '9500001-2') });
  const error = loadError(library, dir);
  expect(error.issues[0]!.message).toMatch(
    /^scenario name "happy-partners" is already used by the built-in scenario \(.*happy-partners\.yaml\); rename this scenario, or load its directory with override: true/,
  );
  expect(library.forTin('76920415-6')?.name).toBe('happy-partners');

  library.loadDirectory(dir, { override: true });
  expect(library.byName('happy-partners')?.entity.tin).toBe('9500001-2');
  expect(library.forTin('9500001-2')?.name).toBe('happy-partners');
  expect(library.forTin('76920415-6')).toBeUndefined();
  expect(library.list().find((summary) => summary.name === 'happy-partners')).toMatchObject({ builtIn: false, tins: ['9500001-2'] });
});

test('never lets two files of one directory override each other, even with override', () => {
  const dir = directoryWith({ 'a.yaml': scenarioText('twin', '9600001-5'), 'b.yaml': scenarioText('twin', '9600002-3') });
  const error = loadError(new ScenarioLibrary(), dir, { override: true });
  expect(error.issues[0]!.message).toMatch(/names are unique, so rename one of the two/);
});

test('adds a scenario at run time and refuses a taken name or TIN, naming the scenario in the way', () => {
  const library = ScenarioLibrary.builtIn();
  const fresh = generateScenario({ tin: '9700001-9', country: 'CL' });
  expect(library.add(fresh, 'POST /_mock/scenarios')).toEqual({ ok: true, value: fresh });
  expect(library.forTin('9700001-9')).toBe(fresh);
  expect(library.list().find((summary) => summary.name === fresh.name)).toMatchObject({ source: 'POST /_mock/scenarios', builtIn: false });

  const sameName = library.add({ ...generateScenario({ tin: '9700002-7', country: 'CL' }), name: 'happy-partners' });
  expect(sameName).toEqual({
    ok: false,
    issues: [
      expect.objectContaining({
        path: '$.name',
        code: 'duplicate_scenario_name',
        message: expect.stringMatching(/"happy-partners" is already used by the built-in scenario/),
      }),
    ],
  });

  const takenTin = library.add({ ...generateScenario({ tin: '9700003-5', country: 'CL' }), tins: ['76086428-5'] });
  expect(takenTin).toEqual({
    ok: false,
    issues: [
      expect.objectContaining({
        path: '$.tins[0]',
        message: expect.stringMatching(/^TIN 76086428-5 is already claimed by scenario "partner-definitive-error"/),
      }),
    ],
  });

  const replaced = library.add({ ...fresh, description: 'replaced' }, { override: true });
  expect(replaced.ok).toBe(true);
  expect(library.byName(fresh.name)?.description).toBe('replaced');
});

test('finds a scenario by TIN written with dots or a lower-case check digit', () => {
  const library = ScenarioLibrary.builtIn();
  expect(library.forTin('76.086.428-5')?.name).toBe('partner-definitive-error');
  expect(library.forTin('76354771-k')?.name).toBe('happy-no-partners');
  expect(library.forTin('11111111-1')).toBeUndefined();
});

test('reports a scenario directory that does not exist', () => {
  const error = loadError(new ScenarioLibrary(), path.join(root, 'missing'));
  expect(error.issues[0]).toMatchObject({ code: 'unreadable_directory' });
  expect(error.message).toMatch(/cannot read the scenario directory/);
});

test('finds the built-in scenarios three levels above its own folder, at the package root', () => {
  expect(BUILT_IN_SCENARIOS_DIR).toBe(path.resolve(__dirname, '..', '..', 'scenarios'));
});
