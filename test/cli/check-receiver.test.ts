import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnCli, stopSpawned, type CliRun } from '../support/built-cli';
import { RECEIVER_SECRET, correct, receiver, trustsAnyone, type Handle } from '../support/graded-receivers';
import { HAVE_XMLLINT, expectValidJunit } from '../support/junit-schema';
import { startRawTcpReceiver } from '../support/raw-tcp-receiver';
import { startSilentPort } from '../support/silent-port';

// `bvs-mock check-receiver`, the built command line, against receivers on loopback: its exit code, the rule
// it names, and the JUnit file a CI job reads.

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'bvs-mock-check-receiver-'));
});
afterEach(stopSpawned);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function checkReceiverCli(handle: Handle, args: string[]): Promise<CliRun> {
  const target = await receiver(handle);
  try {
    return await runCli(['check-receiver', target.url, ...args]);
  } finally {
    await target.close();
  }
}

test('a correct receiver passes every check and the command exits 0', async () => {
  const { code, stdout } = await checkReceiverCli(correct, ['--auth', `secret:${RECEIVER_SECRET}`]);
  expect(stdout).toMatch(/^27 checks: 27 passed, 0 failed, 0 skipped$/m);
  expect(code).toBe(0);
});

test('a receiver that skips the Authorization check fails naming spec §5.5, exits 1, and its JUnit report has the three failing cases', async () => {
  const file = join(scratch, 'receiver.xml');
  const { code, stdout } = await checkReceiverCli(trustsAnyone, ['--auth', `secret:${RECEIVER_SECRET}`, '--report', file]);
  expect(code).toBe(1);
  expect(stdout).toMatch(/FAIL\s+verify:wrong-bearer/);
  expect(stdout).toContain('rule: §5.5 (Authorization: Bearer <WEBHOOK_SECRET>)');
  expect(stdout).toContain('sent: Authorization: Bearer bvs-mock-forged-value');
  expect(stdout).toMatch(/^27 checks: 24 passed, 3 failed, 0 skipped$/m);
  const xml = readFileSync(file, 'utf8');
  expect(xml.match(/<failure /g)).toHaveLength(3);
  expect(xml).toContain('type="verify:missing-authorization"');
  if (HAVE_XMLLINT) expectValidJunit(xml);
});

test('--format json prints the whole report; a bad --auth or URL is refused with what to give', async () => {
  const { stdout } = await checkReceiverCli(correct, ['--auth', `secret:${RECEIVER_SECRET}`, '--format', 'json']);
  expect(JSON.parse(stdout)).toMatchObject({ auth: 'secret', failed: 0, passed: 27 });
  const badAuth = await checkReceiverCli(correct, ['--auth', 'token']);
  expect(badAuth.code).toBe(1);
  expect(badAuth.stderr).toContain('must be none, secret:<the endpoint secret> or legacy:<the legacy webhook token>');
  const child = spawnCli(['check-receiver', 'ftp://example.test/hooks']);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
  expect(stderr).toContain('must be http:// or https://');
});

// Regression: an answer that declared Content-Length: 1000, sent 7 bytes and closed passed as acknowledged.
test('an answer cut short before its Content-Length fails every acknowledgement, naming spec §6 rule 4, and exits 1', async () => {
  const raw = await startRawTcpReceiver('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabcdefg');
  try {
    const { code, stdout } = await runCli(['check-receiver', raw.url]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL\s+acknowledge:data_source_run_batch\.ready\s+200 cut short \d+ ms/);
    expect(stdout).toContain(
      'it was not acknowledged: 200 cut short: the answer ended after 7 of the 1000 bytes its Content-Length declared (§6 Subscription and delivery, rule 4: answer HTTP 200 quickly; a truncated answer is not an answer)',
    );
    expect(stdout).toMatch(/^27 checks: 0 passed, 24 failed, 3 skipped$/m);
  } finally {
    await raw.close();
  }
});

// Regression: the command line took URLs with credentials, and told a closed port from one that never answers.
test('a URL with credentials is refused with exit 2, without repeating them; a closed port and a silent one print the same lines', async () => {
  const refused = await runCli(['check-receiver', 'http://tester:hunter2@127.0.0.1:9/hooks']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('bvs-mock check-receiver: the receiver URL http://127.0.0.1:9/hooks carries credentials (user:password@)');
  expect(refused.stderr).toContain('--auth secret:<secret>');
  expect(refused.stderr).not.toContain('hunter2');
  const outputs: string[] = [];
  for (const silence of ['closed', 'hang'] as const) {
    const port = await startSilentPort(silence);
    try {
      const { code, stdout } = await runCli(['check-receiver', port.url, '--timeout', '150']);
      expect(code).toBe(1);
      outputs.push(stdout.replace(port.url, 'URL'));
    } finally {
      await port.close();
    }
  }
  expect(outputs[1]).toBe(outputs[0]);
  expect(outputs[0]).toMatch(/FAIL\s+acknowledge:data_source_run_batch\.ready\s+unreachable\n\s+it was not acknowledged: no HTTP answer \(unreachable\)\n/);
}, 30_000);
