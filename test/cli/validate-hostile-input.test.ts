import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_EXAMPLES, exampleEntityValidation } from '../../src/schemas';
import { runCli, stopSpawned } from '../support/built-cli';

// Regressions of `bvs-mock validate`, through the built command line: `--schema __proto__` and `--schema constructor`
// printed "schema.safeParse is not a function" (the name was looked up on a plain object, prototype included); the
// escape sequences of a file's `type` reached the terminal raw (a file could clear it or retitle it); a JSON file
// starting with a UTF-8 byte order mark was "not valid JSON".

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'bvs-mock-validate-hostile-'));
});
afterEach(stopSpawned);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

const validate = (args: string[]) => runCli(['validate', ...args]);

/** C0 and C1 control characters other than the newline that ends each line. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('--schema %s is an unknown schema, answered with the names to use', async (name) => {
  const path = file(`any-${name}.json`, JSON.stringify(exampleEntityValidation()));
  const { code, stdout, stderr } = await validate(['--schema', name, path]);
  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).not.toContain('is not a function');
  expect(stderr).toContain(`${path}: invalid ${name} (1 problem)`);
  expect(stderr).toContain(`  $: no schema named "${name}"; use one of: ApiError, Assignment,`);
  expect(stderr).toContain('EntityValidation,');
});

test("control characters in a file's type, in its keys and in its name are printed escaped, never raw", async () => {
  const evil = '\u001b[2J\u001b[H\u001b]0;pwned\u0007\u009b31m';
  const body = { ...EVENT_EXAMPLES['data_source_run_batch.ready'](), type: `data_source_run_batch.ready${evil}` };
  const typed = file('escape-type.json', JSON.stringify(body));
  const keyed = file('escape-key.json', JSON.stringify({ ...EVENT_EXAMPLES['data_source_run_batch.ready'](), [`x${evil}`]: 1 }));
  const named = file(`escape-name${evil}.json`, JSON.stringify(EVENT_EXAMPLES['data_source_run_batch.ready']()));
  const broken = file('escape-broken.json', `{"type": "${evil}`);
  const { code, stdout, stderr } = await validate([typed, keyed, named, broken]);
  expect(code).toBe(1);
  for (const line of `${stdout}${stderr}`.split('\n')) expect(line).not.toMatch(CONTROL);
  expect(stderr).toContain('\\u001b[2J\\u001b[H\\u001b]0;pwned\\u0007\\u009b31m');
  expect(stdout).toContain(`escape-name\\u001b[2J\\u001b[H\\u001b]0;pwned\\u0007\\u009b31m.json: valid data_source_run_batch.ready event`);
});

test('a JSON, a YAML and an NDJSON file starting with a UTF-8 byte order mark are read like the same files without it', async () => {
  const event = EVENT_EXAMPLES['data_source_run_batch.ready']();
  const json = file('bom.json', `\uFEFF${JSON.stringify(event)}`);
  const yaml = file('bom.yaml', `\uFEFFtype: ${event.type}\ndata_source_run_batch: ${JSON.stringify(event.data_source_run_batch)}\n`);
  const ndjson = file('bom.ndjson', `\uFEFF${JSON.stringify(event)}\n${JSON.stringify(event)}\n`);
  const { code, stdout, stderr } = await validate([json, yaml, ndjson]);
  expect(stderr).toBe('');
  expect(stdout.trim().split('\n')).toEqual([
    `${json}: valid data_source_run_batch.ready event`,
    `${yaml}: valid data_source_run_batch.ready event`,
    `${ndjson}:1: valid data_source_run_batch.ready event`,
    `${ndjson}:2: valid data_source_run_batch.ready event`,
  ]);
  expect(code).toBe(0);
});

// Regression: the same escape codes in a scenario file's key reached the terminal raw in `bvs-mock scenarios` and `serve`.
test('a scenario file whose key holds escape codes is refused with the key printed escaped', async () => {
  const dir = join(scratch, 'scenarios-with-escapes');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'x.yaml'),
    [
      'name: x',
      'description: y',
      'tins: ["1-9"]',
      '"bo\\e[31mgus": 1',
      'entity: { tin: "1-9", country: CL, category: business, name: A, runs: [{ type: cl/sii, outcomes: [{ succeeded: 5s }] }] }',
      '',
    ].join('\n'),
  );
  const { code, stderr } = await runCli(['scenarios', '--scenarios', dir]);
  expect(code).toBe(1);
  expect(stderr).toContain('"bo\\u001b[31mgus" is not a known field here');
  expect(stderr.replace(/\n$/, '')).not.toMatch(CONTROL);
});
