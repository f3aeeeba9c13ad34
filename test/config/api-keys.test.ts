import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { createMock } from '../../src/http';
import { BvsMockConfig } from '../../src/schemas';
import { bearer, useTestServer } from '../support/api-test-server';
import { spawnCli, stopSpawned } from '../support/built-cli';
import { httpClient } from '../support/https-client';

// API keys in the configuration are test credentials (docs/fidelity.md row 74): any length, but never
// empty or blank, never listed twice, and never shared by two organizations, since a key identifies its
// organization.

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'bvs-mock-api-keys-'));
});

afterEach(stopSpawned);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const t = useTestServer({
  config: BvsMockConfig.parse({
    organizations: [
      { id: 'acme', api_keys: ['key_a'] },
      { id: 'globex', api_keys: ['k'] },
    ],
  }),
});

/** Writes `yaml` to a file of its own and returns the file's path. */
function configFile(name: string, yaml: string): string {
  const file = join(scratch, name);
  writeFileSync(file, yaml);
  return file;
}

/** The lines of the ConfigError `loadConfig(file)` throws. */
function refusal(file: string): string[] {
  try {
    loadConfig(file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message.split('\n');
  }
  throw new Error(`${file} was accepted`);
}

test('a short API key such as key_a is accepted and authenticates its organization over HTTPS', async () => {
  expect(loadConfig(configFile('short.yaml', 'organizations:\n  - id: acme\n    api_keys: [key_a]\n')).organizations[0]!.api_keys).toEqual(['key_a']);
  const acme = await t.get('/api/v2/webhook_endpoints', 'key_a');
  expect(acme.status).toBe(200);
  const created = await t.create({ tin: '76543210-3', country: 'CL' }, { key: 'k' });
  expect((await t.get(`/api/v2/entity_validations/${created.id}`, 'k')).status).toBe(200);
  expect((await t.get(`/api/v2/entity_validations/${created.id}`, 'key_a')).status).toBe(404);
});

test('a configuration with api_keys: [key_a] starts bvs-mock serve, and the key works', async () => {
  const file = configFile('serve-short.yaml', 'organizations:\n  - id: acme\n    api_keys: [key_a]\n');
  const child = spawnCli(['serve', '--port', '0', '--http', '--config', file]);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = / listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`bvs-mock exited with ${code}: ${stderr}`)));
  });
  expect(stdout).toMatch(/API key\s+key_a/);
  const client = httpClient({ baseUrl: url, ca: null });
  try {
    expect((await client.request('/api/v2/webhook_endpoints', { headers: bearer('key_a') })).status).toBe(200);
  } finally {
    client.close();
  }
});

test.each([
  ['an empty API key', '[""]', 'an API key must not be empty; give any printable text, like key_a, got a string ("")'],
  ['a whitespace-only API key', '["   "]', 'an API key must not be empty or only spaces; give any printable text, like key_a, got a string ("   ")'],
  [
    'an API key with a space',
    '["key a"]',
    'an API key must be printable ASCII without spaces, like key_a (it is sent as Authorization: Bearer <key>), got "key a"',
  ],
])('%s is refused with its path in the configuration file', (_what, keys, message) => {
  const file = configFile('blank.yaml', `organizations:\n  - id: acme\n    api_keys: ${keys}\n`);
  expect(refusal(file)).toEqual([`bvs-mock: ${file}: $.organizations[0].api_keys[0]: ${message}`]);
});

test('an API key listed twice in one organization is refused with its path', () => {
  const file = configFile('twice.yaml', 'organizations:\n  - id: acme\n    api_keys: [key_a, key_b, key_a]\n');
  expect(refusal(file)).toEqual([
    `bvs-mock: ${file}: $.organizations[0].api_keys[2]: API key "key_a" is listed twice in this organization (also at $.organizations[0].api_keys[0]); list it once`,
  ]);
});

test('an API key given to two organizations is refused with its path, since a key identifies its organization', () => {
  const file = configFile('shared.yaml', 'organizations:\n  - id: acme\n    api_keys: [key_a]\n  - id: globex\n    api_keys: [key_g, key_a]\n');
  expect(refusal(file)).toEqual([
    `bvs-mock: ${file}: $.organizations[1].api_keys[1]: API key "key_a" is used twice (also at $.organizations[0].api_keys[0]); each must be unique across organizations, since it identifies its organization`,
  ]);
});

test('a hand-built configuration giving one key to two organizations is refused by createMock, not resolved to the later one', () => {
  const config = BvsMockConfig.parse({ organizations: [{ id: 'acme', api_keys: ['key_a'] }, { id: 'globex' }] });
  config.organizations[1]!.api_keys.push('key_a');
  expect(() => createMock({ config })).toThrow('bvs-mock: API key "key_a" is given to organizations acme and globex; a key identifies its organization');
});
