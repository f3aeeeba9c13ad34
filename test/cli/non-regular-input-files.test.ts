import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { MAX_CONFIG_FILE_BYTES } from '../../src/config/load-config';
import { ROOT } from '../support/built-cli';
import { guardedFifo, type GuardedFifo } from '../support/guarded-fifo';
import { readPayloadFiles } from '../../src/cli/read-payload-files';

// Regression: a configuration file that was a FIFO blocked start-up forever (readFileSync waits for a
// writer), and nothing bounded the size of a configuration, scenario or PEM file. Paths that are not
// regular files and files over their limit are now refused before a byte is read
// (src/files/read-regular-file.ts readRegularFile).

let scratch: string;
const fifos: GuardedFifo[] = [];

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'bvs-mock-non-regular-'));
});

afterEach(() => {
  for (const fifo of fifos.splice(0)) fifo.release();
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A named pipe nobody writes to (but the guard, after FIFO_GUARD_MS): reading it the plain way blocks. */
function fifo(name: string): string {
  const made = guardedFifo(scratch, name);
  fifos.push(made);
  return made.file;
}

/** The ConfigError `loadConfig(file)` throws. */
function configError(file: string): ConfigError {
  try {
    loadConfig(file);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`loadConfig(${file}) did not throw`);
}

/** Runs the built command line; a run that hangs is killed after 10 s, so a regression fails instead of stalling. */
function bvsMock(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BVS_MOCK_')));
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/bvs-mock.js'), ...args], { cwd: ROOT, env, timeout: 10_000 }, (error, _stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stderr });
    });
  });
}

test('loadConfig refuses a FIFO at once, naming the file and what it is', () => {
  const file = fifo('config-fifo.yaml');
  const error = configError(file);
  expect(error.issues).toEqual([{ path: '$', code: 'not_a_regular_file', message: expect.stringContaining('is a FIFO (named pipe), not a regular file') }]);
  expect(error.message).toContain(`bvs-mock: ${file}: $: is a FIFO`);
  expect(error.message).toContain('give the path of a configuration file (YAML or JSON)');
}, 5_000);

test('loadConfig refuses a directory passed as --config', () => {
  const dir = path.join(scratch, 'config-dir.yaml');
  mkdirSync(dir);
  expect(configError(dir).issues).toEqual([
    { path: '$', code: 'not_a_regular_file', message: 'is a directory, not a regular file; give the path of a configuration file (YAML or JSON)' },
  ]);
});

test('loadConfig refuses a file one byte over MAX_CONFIG_FILE_BYTES with its size and the limit', () => {
  const file = path.join(scratch, 'too-large.yaml');
  writeFileSync(file, '');
  // Sparse: the size is what is checked, so no megabyte is written.
  truncateSync(file, MAX_CONFIG_FILE_BYTES + 1);
  const [issue] = configError(file).issues;
  expect(issue).toMatchObject({ path: '$', code: 'too_large' });
  expect(issue!.message).toContain(`the file is ${MAX_CONFIG_FILE_BYTES + 1} bytes, over the limit of 1 MiB (${MAX_CONFIG_FILE_BYTES} bytes)`);
});

test('loadConfig reads a configuration of exactly MAX_CONFIG_FILE_BYTES', () => {
  const file = path.join(scratch, 'at-limit.yaml');
  const config = 'organizations:\n  - id: padded\n    api_keys: [padded_key_1]\n';
  writeFileSync(file, `${config}#${'x'.repeat(MAX_CONFIG_FILE_BYTES - config.length - 2)}\n`);
  expect(statSync(file).size).toBe(MAX_CONFIG_FILE_BYTES);
  expect(loadConfig(file).organizations.map((organization) => organization.id)).toEqual(['padded']);
});

test('serve --config <fifo> exits 1 at once with the message on stderr', async () => {
  const file = fifo('serve-config-fifo.yaml');
  const run = await bvsMock(['serve', '--config', file, '--port', '0']);
  expect({ code: run.code, stderr: run.stderr }).toEqual({
    code: 1,
    stderr: expect.stringContaining(`bvs-mock: ${file}: $: is a FIFO (named pipe), not a regular file`),
  });
}, 15_000);

test('serve --tls-cert refuses a FIFO and a PEM over 1 MiB, naming the flag, the file and the limit', async () => {
  const key = path.join(scratch, 'key.pem');
  writeFileSync(key, '-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n');
  const pipe = fifo('cert-fifo.pem');
  const piped = await bvsMock(['serve', '--tls-cert', pipe, '--tls-key', key, '--port', '0']);
  expect({ code: piped.code, stderr: piped.stderr }).toEqual({
    code: 1,
    stderr: expect.stringContaining(`--tls-cert ${pipe}: is a FIFO (named pipe), not a regular file`),
  });

  const large = path.join(scratch, 'large.pem');
  writeFileSync(large, readFileSync(key));
  truncateSync(large, 1024 * 1024 + 1);
  const oversized = await bvsMock(['serve', '--tls-cert', large, '--tls-key', key, '--port', '0']);
  expect({ code: oversized.code, stderr: oversized.stderr }).toEqual({
    code: 1,
    stderr: expect.stringContaining(`--tls-cert ${large}: the file is ${1024 * 1024 + 1} bytes, over the limit of 1 MiB (1048576 bytes) for a PEM certificate`),
  });
}, 20_000);

test('validate refuses a FIFO at once instead of blocking on it', () => {
  const file = fifo('recorded-fifo.json');
  const read = readPayloadFiles(file);
  expect(read).toEqual([{ file, ok: false, reason: expect.stringContaining('is a FIFO (named pipe), not a regular file') }]);
}, 5_000);
