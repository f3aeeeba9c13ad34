import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { READINGS } from '../../src/schemas/readings';
import { runCli, spawnCli, stopSpawned } from '../support/built-cli';

// `bvs-mock readings` and `bvs-mock serve --reading` through the built command line: the list with the spec's
// words, a reading played by a served bvs-mock, and every way of giving an unknown one stopping start-up.

afterEach(stopSpawned);

test('bvs-mock readings prints each reading with the spec words; --format json an array of { name, values, default, spec }', async () => {
  const text = await runCli(['readings']);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain('ready-on-main-failure (docs/fidelity.md row 31)');
  expect(text.stdout).toContain('sent (default)');
  const json = await runCli(['readings', '--format', 'json']);
  expect(json.code).toBe(0);
  // The built command lists what the sources hold, every reading with its values, default, row and the spec's words.
  expect(JSON.parse(json.stdout)).toEqual(READINGS.map((reading) => ({ ...reading, values: [...reading.values] })));
});

test('an unknown reading or value stops start-up naming the known ones: --reading, BVS_MOCK_READINGS and the configuration file', async () => {
  const flag = await runCli(['serve', '--port', '0', '--reading', 'ready-on-main-failure=never']);
  expect(flag.code).not.toBe(0);
  expect(flag.stderr).toContain('reading ready-on-main-failure must be sent or withheld, got "never"');
  const variable = await runCli(['serve', '--port', '0'], { BVS_MOCK_READINGS: 'ready-on-failure=withheld' });
  expect(variable.code).not.toBe(0);
  expect(variable.stderr).toContain('unknown reading "ready-on-failure"; the readings are ready-on-main-failure, child-batches-on-main-failure');
  const dir = mkdtempSync(join(tmpdir(), 'bvs-readings-'));
  try {
    const config = join(dir, 'bvs.yaml');
    writeFileSync(config, 'readings:\n  ready-on-main-failure: late\n');
    const file = await runCli(['serve', '--port', '0', '--config', config]);
    expect(file.code).not.toBe(0);
    expect(file.stderr).toContain('$.readings["ready-on-main-failure"]');
    expect(file.stderr).toContain('must be sent or withheld, got "late"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Serves with `env`, creates a main-definitive-error validation, plays it, and answers the event types emitted. */
async function servedTypes(args: string[], env: Record<string, string> = {}): Promise<{ types: string[]; banner: string }> {
  const child = spawnCli(['serve', '--port', '0', '--http', '--clock', 'manual', ...args], env);
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = / listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match && /\nTry: .*\n/.test(stdout)) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bvs-mock exited with ${code} before its banner`)));
  });
  const created = await fetch(`${url}/api/v2/entity_validations`, {
    method: 'POST',
    headers: { authorization: 'Bearer test_key_default', 'content-type': 'application/json', 'x-mock-scenario': 'main-definitive-error' },
    body: JSON.stringify({ tin: '11111111-1', country: 'CL' }),
  });
  expect(created.status).toBe(201);
  expect((await fetch(`${url}/_mock/clock/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
  const emitted = (await (await fetch(`${url}/_mock/emitted?limit=100`)).json()) as { events: Array<{ type: string }> };
  return { types: emitted.events.map((event) => event.type), banner: stdout };
}

test('serve plays the reading given by --reading or BVS_MOCK_READINGS, and its start block names it', async () => {
  const sent = await servedTypes([]);
  expect(sent.types).toContain('data_source_run_batch.ready');
  expect(sent.banner).not.toContain('reading ');
  const withheld = sent.types.filter((type) => type !== 'data_source_run_batch.ready');
  for (const played of [
    await servedTypes(['--reading', 'ready-on-main-failure=withheld']),
    await servedTypes([], { BVS_MOCK_READINGS: 'ready-on-main-failure=withheld' }),
  ]) {
    expect(played.types).toEqual(withheld);
    expect(played.banner).toMatch(/Modes .*, reading ready-on-main-failure=withheld\n/);
  }
});
