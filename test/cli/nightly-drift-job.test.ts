import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SCENARIOS } from '../../src/testing';
import { BIN, ROOT, spawnCli, stopSpawned } from '../support/built-cli';

// examples/ci/nightly-drift.yml re-enacted: its job's `run` steps, in order, in bash as GitHub runs them, from a
// client project whose `npm run receiver` and `npm run smoke` are small scripts, against a bvs-mock serve standing
// in for the sandbox (its webhook endpoint pointing at the relay). Ports are the recipe's, moved to free ones.

jest.setTimeout(180_000);

const SECRET = 'whsec_nightly_0123456789abcdef';
const happyPartners = Object.values(SCENARIOS).find((scenario) => scenario.name === 'happy-partners')!;
const job = parse(readFileSync(join(ROOT, 'examples', 'ci', 'nightly-drift.yml'), 'utf8')).jobs.drift as {
  env: Record<string, string>;
  steps: Array<{ name?: string; run?: string; uses?: string; env?: Record<string, string> }>;
};

let project: string;
afterEach(async () => {
  // The recipe leaves the receiver running (a runner ends a job's processes); the test ends what it started, every
  // process whose command line names the project's folder.
  spawnSync('pkill', ['-TERM', '-f', project]);
  await stopSpawned();
  rmSync(project, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A client project: the receiver and the smoke test the recipe asks for, and bvs-mock installed (this checkout). */
function clientProject(receiverPort: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'bvs-nightly-'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', 'bvs-mock'));
  symlinkSync(BIN, join(dir, 'node_modules', '.bin', 'bvs-mock'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'client', private: true, scripts: { receiver: `node ${join(dir, 'receiver.js')}`, smoke: `node ${join(dir, 'smoke.js')}` } }),
  );
  writeFileSync(
    join(dir, 'receiver.js'),
    `require('node:http').createServer((request, response) => { request.resume(); request.on('end', () => response.end('ok')); }).listen(${receiverPort}, '127.0.0.1');\n`,
  );
  // Creates a validation, waits until its report is ready, then reads the tree once: what a team's smoke test does.
  writeFileSync(
    join(dir, 'smoke.js'),
    `const base = process.env.BVS_URL; const headers = { authorization: 'Bearer ' + process.env.BVS_API_KEY, 'content-type': 'application/json' };
(async () => {
  const created = await (await fetch(base + '/api/v2/entity_validations', { method: 'POST', headers, body: JSON.stringify({ tin: '${happyPartners.tin}', country: '${happyPartners.country}' }) })).json();
  for (let tries = 0; tries < 600; tries++) {
    const validation = await (await fetch(base + '/api/v2/entity_validations/' + created.id, { headers })).json();
    const main = validation.data_source_run_batches[0];
    if (main && main.consolidated_report_url) {
      for (const batch of validation.data_source_run_batches) await fetch(base + '/api/v2/data_source_run_batches/' + batch.id, { headers });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the tree did not finish');
})().catch((error) => { console.error(error); process.exit(1); });\n`,
  );
  return dir;
}

/** Runs one step's script as GitHub does (`bash -e`), with the job's and the step's environment. */
function runStep(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd: project, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function runJob(readings: string[]): Promise<Array<{ name: string; code: number | null; output: string }>> {
  const [proxyPort, relayPort, receiverPort] = [await freePort(), await freePort(), await freePort()];
  project = clientProject(receiverPort);
  const sandbox = spawnCli(
    [
      'serve',
      '--http',
      '--port',
      '0',
      '--quiet',
      '--insecure-webhook-tls',
      '--webhook-url',
      `https://127.0.0.1:${relayPort}/hooks`,
      '--webhook-secret',
      SECRET,
      ...readings.flatMap((reading) => ['--reading', reading]),
    ],
    {},
  );
  const sandboxUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    sandbox.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    sandbox.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const secrets: Record<string, string> = { SANDBOX_URL: sandboxUrl, SANDBOX_API_KEY: 'test_key_default', SANDBOX_WEBHOOK_SECRET: SECRET };
  const resolve = (value: string) =>
    value
      .replace(/\$\{\{ secrets\.(\w+) \}\}/g, (_, name: string) => secrets[name] ?? '')
      .replace(/4010/g, String(proxyPort))
      .replace(/4020/g, String(relayPort))
      .replace(/127\.0\.0\.1:3000/g, `127.0.0.1:${receiverPort}`);
  const env = Object.fromEntries(Object.entries(job.env).map(([name, value]) => [name, resolve(value)]));
  const results: Array<{ name: string; code: number | null; output: string }> = [];
  for (const step of job.steps) {
    // `uses:` steps set up the runner, and `npm ci` installs what the project here already has.
    if (step.run === undefined || step.run.trim() === 'npm ci') continue;
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, resolve(value)]));
    const result = await runStep(resolve(step.run), { ...env, ...stepEnv });
    results.push({ name: step.name ?? step.run, ...result });
    if (result.code !== 0 && !/^Stop /.test(step.name ?? '')) break;
  }
  return results;
}

test('against a sandbox that plays as bvs-mock does, the nightly job passes and writes a JUnit report of the tree', async () => {
  const steps = await runJob([]);
  expect(steps.map((step) => [step.name, step.code])).toEqual([
    ['Start your receiver, the relay and the proxy, recording', 0],
    ['Your smoke test, through the proxy', 0],
    ['Stop the proxy and the relay (they write their recordings whole)', 0],
    ['Drift of the sandbox from bvs-mock', 0],
  ]);
  // The recipe masks display names in the recordings (--redact '$..display_name'), so the tree is named by that mask.
  expect(steps.at(-1)!.output).toMatch(/tree evl_\w+ \(\(redacted\)\): 12 events recorded, 12 played by bvs-mock/);
  expect(readFileSync(join(project, 'drift', 'drift.xml'), 'utf8')).toContain('name="plays the same in bvs-mock"');
});

test('against a sandbox whose child_batches_ready lists seven fields, the drift step fails the job naming row 21', async () => {
  const steps = await runJob(['child-batch-fields=listed']);
  const drift = steps.at(-1)!;
  expect([drift.name, drift.code]).toEqual(['Drift of the sandbox from bvs-mock', 1]);
  expect(drift.output).toContain('refutes docs/fidelity.md row 21: the recording reads as child-batch-fields=listed');
  const xml = readFileSync(join(project, 'drift', 'drift.xml'), 'utf8');
  expect(xml).toContain('<failure');
  // The recordings are kept for the team, every display name masked, no credential in them.
  for (const file of ['api.json', 'hooks.json']) {
    const text = readFileSync(join(project, 'drift', file), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('test_key_default');
    const names = [...text.matchAll(/display_name\\?":\s*\\?"([^"\\]*)/g)].map(([, name]) => name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['(redacted)']));
  }
});
