import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probePayloads } from '../../src/probes/probe-payloads';
import { RelayReport, parseWith } from '../../src/schemas';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { runCli, spawnCli, stopSpawned } from '../support/built-cli';

// `bvs-mock listen` as users run it: the built command line, a local receiver, deliveries posted by a test client.

const SECRET = 'whsec_listen_cli_0123456789abcdef';

let receiver: WebhookReceiver | undefined;
let dir: string | undefined;

afterEach(async () => {
  await stopSpawned();
  await receiver?.close();
  receiver = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

test('listen relays to --forward-to, and on SIGTERM writes --report with the findings and no credential', async () => {
  receiver = await startWebhookReceiver();
  dir = mkdtempSync(join(tmpdir(), 'bvs-listen-'));
  const reportFile = join(dir, 'relay.json');
  const child = spawnCli(['listen', '--forward-to', receiver.url, '--auth', `secret:${SECRET}`, '--http', '--port', '0', '--report', reportFile]);
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /posted to (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`listen exited with ${code} before it listened: ${stdout}`)));
  });
  const { happyPartners } = await probePayloads();
  const post = (body: unknown, authorization: string) =>
    fetch(`${url}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(body) });
  expect((await post(happyPartners[0], `Bearer ${SECRET}`)).status).toBe(200);
  expect((await post(happyPartners[1], 'Bearer whsec_wrong_one_for_the_test')).status).toBe(200);
  expect(receiver.received.map((hook) => hook.headers.authorization)).toEqual([`Bearer ${SECRET}`, 'Bearer whsec_wrong_one_for_the_test']);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stdout).toContain('stopped (SIGTERM): 2 deliveries relayed, 1 finding');
  const text = readFileSync(reportFile, 'utf8');
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('wrong_one');
  const report = parseWith(RelayReport, JSON.parse(text));
  if (!report.ok) throw new Error(JSON.stringify(report.issues));
  expect(report.value.findings.map((finding) => [finding.kind, finding.events[0]!.delivery_id])).toEqual([['authorization', 'rly_2']]);
});

test('listen without --auth says what to give and starts nothing', async () => {
  const run = await runCli(['listen', '--forward-to', 'http://127.0.0.1:3000/hooks', '--http', '--port', '0']);
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('--auth is required');
});
