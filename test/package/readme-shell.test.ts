import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type StartedServer } from '../../src/http';
import { EVENT_EXAMPLES, exampleEntityValidation } from '../../src/schemas';
import { startWebhookReceiver } from '../../src/testing';
import { BIN, ROOT } from '../support/built-cli';
import { freePort } from '../support/free-port';
import { observedReceiver, RECEIVER_SECRET } from '../support/graded-receivers';

// Every shell block of the README, run as written: in bash with `set -e`, from a scratch folder, against a
// bvs-mock this test starts. What differs from a reader's machine is said once, here: the port (a free one
// instead of 4010, the receiver's instead of 3000), `bvs` is `localhost` (no name service for `bvs` here;
// the container tests reach it by that name), the receiver's secret, and `npx bvs-mock`, which runs this
// checkout's bin/bvs-mock.js (the installed package's command). A block that starts containers is run by
// test/docker/container.test.ts with podman; the two set-up commands are what .ci/run runs.

jest.setTimeout(240_000);

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** Each shell block's text, without the indentation of a block inside a list item. */
const blocks = [...README.matchAll(/^( *)```sh\n([\s\S]*?)^\1```$/gm)].map(([, indent, text]) => text!.replace(new RegExp(`^${indent}`, 'gm'), ''));

let work: string;
let shims: string;
let server: StartedServer;
const background: ChildProcess[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'bvs-readme-shell-'));
  shims = join(work, 'bin');
  mkdirSync(shims);
  // `npx bvs-mock ...` is the installed package's command; anything else goes to the real npx.
  const realNpx = spawnSync('sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).stdout.trim();
  writeFileSync(join(shims, 'npx'), `#!/bin/sh\nif [ "$1" = bvs-mock ]; then shift; exec "${process.execPath}" "${BIN}" "$@"; fi\nexec "${realNpx}" "$@"\n`);
  chmodSync(join(shims, 'npx'), 0o755);
  server = await startServer({ port: 0 });
});

afterAll(async () => {
  for (const child of background) if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** The one block whose text contains `marker`. */
function block(marker: string): string {
  const found = blocks.filter((text) => text.includes(marker));
  if (found.length !== 1) throw new Error(`README: ${found.length} shell blocks contain ${JSON.stringify(marker)}, expected 1`);
  return found[0]!;
}

/** A scratch folder for one block, with `files` written into it. */
function folder(name: string, files: Record<string, string> = {}): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

const env = () => ({ ...process.env, PATH: `${shims}:${process.env.PATH}` });
const withPort = (text: string, port: number) => text.replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`);

/**
 * Runs `script` in bash with `set -euo pipefail` in `cwd` and resolves with its output; rejects with the output
 * when it fails. Never synchronously: the bvs-mock and the receivers it talks to answer from this process.
 */
function bash(script: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${script}`], { cwd, env: env() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`the README block failed (exit ${code}):\n${script}\n--- output ---\n${stdout}${stderr}`));
    });
  });
}

test('every shell block of the README is run by this test, or by the test named for it', () => {
  const runHere = [
    'TOKEN=$(curl',
    'curl -sk https://bvs:4010/_mock/certificate',
    'npx bvs-mock check-receiver',
    '"kind": "api_error"',
    'npx bvs-mock openapi',
    'prism-cli',
  ];
  const runElsewhere: Record<string, { file: string; proves: string[] }> = {
    '"name": "local"': { file: 'test/dashboard/readme-walkthrough.test.ts', proves: ['"The dashboard"', 'block.replaceAll'] },
    'npm install && npm start': { file: '.ci/run', proves: ['npm ci', 'npm run test:all'] },
    'docker build -t bvs-mock .': {
      file: 'test/docker/container.test.ts',
      proves: [
        'BVS_MOCK_TLS_HOSTNAMES=bvs',
        '/_mock/certificate',
        'BVS_MOCK_WEBHOOK_URL',
        'BVS_MOCK_ALLOW_HTTP_WEBHOOKS=true',
        '/app/scenarios.d',
        'BVS_MOCK_CONFIG=/config/bvs.yaml',
      ],
    },
  };
  const markers = [...runHere, ...Object.keys(runElsewhere)];
  for (const text of blocks) expect(markers.filter((marker) => text.includes(marker))).toHaveLength(1);
  for (const [, { file, proves }] of Object.entries(runElsewhere)) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    for (const fragment of proves) expect(source).toContain(fragment);
  }
  expect(readFileSync(join(ROOT, 'package.json'), 'utf8')).toContain('"start": "node bin/bvs-mock.js serve"');
});

test('"First steps with curl" gets a token, creates a validation, reads it and downloads its report PDF', async () => {
  const dir = folder('first-steps');
  const output = await bash(withPort(block('TOKEN=$(curl'), server.port), dir);
  expect(JSON.parse(output)).toMatchObject({ tin: '76920415-6', data_source_run_batches: [{ runs_succeeded: true }] });
  expect(readFileSync(join(dir, 'report.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test('"First steps with curl" holds with a webhook endpoint too: the read waits until the tree has played, however long the deliveries take', async () => {
  // A receiver that takes 150 ms per delivery: the instant clock waits for each, so the tree plays over seconds,
  // and a read straight after the create saw runs_succeeded false and no child batches.
  const slow = await startWebhookReceiver({ respond: () => ({ status: 200, delayMs: 150 }) });
  const withEndpoint = await startServer({ port: 0, webhookUrl: slow.url, allowHttpWebhooks: true });
  try {
    const dir = folder('first-steps-with-endpoint');
    const output = await bash(withPort(block('TOKEN=$(curl'), withEndpoint.port), dir);
    const read = JSON.parse(output) as { data_source_run_batches: Array<{ runs_succeeded: boolean; child_batches: unknown[] }> };
    expect(read.data_source_run_batches[0]!.runs_succeeded).toBe(true);
    expect(read.data_source_run_batches[0]!.child_batches.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'report.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  } finally {
    await withEndpoint.close();
    await slow.close();
  }
});

test('the certificate recipes verify HTTPS with curl, Node, Python requests and Java', async () => {
  const url = `https://localhost:${server.port}/_mock/health`;
  const dir = folder('certificate', {
    'client.js': `fetch(${JSON.stringify(url)}).then((answer) => { console.log('node', answer.status); if (answer.status !== 200) process.exit(1); });\n`,
    'client.py': `import requests\nanswer = requests.get(${JSON.stringify(url)})\nprint("python", answer.status_code)\nanswer.raise_for_status()\n`,
    'Client.java': [
      'public class Client {',
      '  public static void main(String[] args) throws Exception {',
      `    var connection = (javax.net.ssl.HttpsURLConnection) new java.net.URL(${JSON.stringify(url)}).openConnection();`,
      '    System.out.println("java " + connection.getResponseCode());',
      '    if (connection.getResponseCode() != 200) System.exit(1);',
      '  }',
      '}',
      '',
    ].join('\n'),
  });
  await bash('javac Client.java && printf "Main-Class: Client\\n" > manifest.txt && jar cfm client.jar manifest.txt Client.class', dir);
  const script = block('curl -sk https://bvs:4010/_mock/certificate').replaceAll('bvs:4010', `localhost:${server.port}`);
  const output = await bash(script, dir);
  expect(output).toMatch(/"status":"ok"|"ready":true|200/);
  for (const client of ['node 200', 'python 200', 'java 200']) expect(output).toContain(client);
});

test('"Is my integration right?": check-receiver passes every check of a correct receiver with its side-effect probe and writes JUnit', async () => {
  const hooks = await observedReceiver({ verifies: true, deduplicates: true, processes: true });
  try {
    const dir = folder('check-receiver');
    const script = block('npx bvs-mock check-receiver')
      .replace('http://127.0.0.1:3000/test/processed', hooks.observe)
      .replace('http://127.0.0.1:3000/hooks', hooks.url)
      .replace('whsec_abc', RECEIVER_SECRET);
    const output = await bash(script, dir);
    expect(output).toMatch(/31 checks: 31 passed, 0 failed, 0 skipped/);
    const junit = readFileSync(join(dir, 'receiver.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite [^>]*tests="31"/);
    expect(junit).not.toContain('<skipped');
    expect(junit).not.toContain('<failure');
  } finally {
    await hooks.close();
  }
});

test('"Your API client under faults": each fault is accepted as written', async () => {
  const dir = folder('faults');
  const output = await bash(`B=${server.url}\n${block('"kind": "api_error"')}`, dir);
  // curl prints each answer without a line break after it.
  const answers = output.split(/(?<=\})(?=\{)/).map((text) => JSON.parse(text) as Record<string, unknown>);
  expect(answers).toHaveLength(4);
  for (const answer of answers) expect(answer).not.toHaveProperty('error');
});

test('"Use the contract": the document is printed, recorded webhooks and a resource validate', async () => {
  const files: Record<string, string> = { 'body.json': JSON.stringify(exampleEntityValidation()) };
  for (const [type, make] of Object.entries(EVENT_EXAMPLES)) files[`recorded/${type}.json`] = JSON.stringify(make());
  const dir = folder('contract', files);
  const output = await bash(block('npx bvs-mock openapi'), dir);
  expect((JSON.parse(readFileSync(join(dir, 'bvs.json'), 'utf8')) as { openapi: string }).openapi).toBe('3.1.0');
  expect(output).toContain('valid data_source_run_batch.ready event');
  expect(output).toContain('body.json: valid EntityValidation');
});

test('the Prism recipe proxies to bvs-mock and refuses a request that breaks the document', async () => {
  const [mockPort, prismPort] = [await freePort(), await freePort()];
  const script = block('prism-cli')
    .replace('--port 4010', `--port ${mockPort}`)
    .replace('http://127.0.0.1:4010', `http://127.0.0.1:${mockPort}`)
    .replace('-p 4011', `-p ${prismPort}`);
  // From the checkout: the block names the document by its path there.
  const child = spawn('bash', ['-c', script], { cwd: ROOT, env: env(), detached: true, stdio: 'ignore' });
  background.push(child);
  const proxy = `http://127.0.0.1:${prismPort}/api/v2`;
  const headers = { authorization: 'Bearer test_key_default', 'content-type': 'application/json' };
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${proxy}/webhook_endpoints`, { headers })).status === 200) break;
    } catch {
      // Not up yet.
    }
    if (Date.now() > deadline) throw new Error('Prism in front of bvs-mock never answered');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const bad = await fetch(`${proxy}/entity_validations`, { method: 'POST', headers, body: JSON.stringify({ tin: '76920415-6' }) });
  expect(bad.status).toBe(422);
  const good = await fetch(`${proxy}/entity_validations`, { method: 'POST', headers, body: JSON.stringify({ tin: '76920415-6', country: 'CL' }) });
  expect(good.status).toBe(201);
});
