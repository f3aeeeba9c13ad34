import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, spawnCli, stopSpawned, type CliRun } from '../support/built-cli';
import { RECEIVER_SECRET, correct, observedReceiver, receiver, trustsAnyone, type Handle } from '../support/graded-receivers';
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

test('a correct receiver with its side-effect probe passes every check and the command exits 0; without --observe it exits 3, naming the skipped checks', async () => {
  const target = await observedReceiver({ verifies: true, deduplicates: true, processes: true });
  try {
    const observed = await runCli(['check-receiver', target.url, '--auth', `secret:${RECEIVER_SECRET}`, '--observe', target.observe]);
    expect(observed.stdout).toMatch(/^31 checks: 31 passed, 0 failed, 0 skipped$/m);
    expect(observed.stdout).toMatch(/PASS\s+processed:duplicate-once\s+200 \d+ ms, 200 \d+ ms/);
    expect(observed.code).toBe(0);
    const unobserved = await runCli(['check-receiver', target.url, '--auth', `secret:${RECEIVER_SECRET}`]);
    expect(unobserved.stdout).toMatch(
      /^31 checks: 27 passed, 0 failed, 4 skipped \(processed:duplicate-once, processed:redelivery-once, processed:out-of-order, processed:forged-ignored: no side-effect probe was given \(--observe URL/m,
    );
    expect(unobserved.stdout).toMatch(/^Incomplete: a skipped check is not a pass\.$/m);
    expect(unobserved.code).toBe(3);
  } finally {
    await target.close();
  }
});

test('a receiver that skips the Authorization check fails naming spec §5.5, exits 1, and its JUnit report has the three failing cases', async () => {
  const file = join(scratch, 'receiver.xml');
  const { code, stdout } = await checkReceiverCli(trustsAnyone, ['--auth', `secret:${RECEIVER_SECRET}`, '--report', file]);
  expect(code).toBe(1);
  expect(stdout).toMatch(/FAIL\s+refuse:wrong-bearer/);
  expect(stdout).toContain('rule: §5.5 (Authorization: Bearer <WEBHOOK_SECRET>)');
  expect(stdout).toContain('sent: Authorization: Bearer bvs-mock-forged-value');
  expect(stdout).toMatch(/^31 checks: 24 passed, 3 failed, 4 skipped \(processed:duplicate-once, /m);
  const xml = readFileSync(file, 'utf8');
  expect(xml.match(/<failure /g)).toHaveLength(3);
  expect(xml).toContain('type="refuse:missing-authorization"');
  expect(xml.match(/<skipped message="no side-effect probe was given/g)).toHaveLength(4);
  expect(xml).toContain('failures="3" errors="0" skipped="4"');
  if (HAVE_XMLLINT) expectValidJunit(xml);
});

test('--format json prints the whole report; a bad --auth or URL is refused with what to give', async () => {
  const { stdout } = await checkReceiverCli(correct, ['--auth', `secret:${RECEIVER_SECRET}`, '--format', 'json']);
  expect(JSON.parse(stdout)).toMatchObject({ auth: 'secret', outcome: 'incomplete', failed: 0, passed: 27, skipped: 4 });
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
    const { code, stdout } = await runCli(['check-receiver', raw.url, '--auth', 'none']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL\s+acknowledge:data_source_run_batch\.ready\s+200 cut short \d+ ms/);
    expect(stdout).toContain(
      'it was not acknowledged: 200 cut short: the answer ended after 7 of the 1000 bytes its Content-Length declared (§6 Subscription and delivery, rule 4: answer HTTP 200 quickly; a truncated answer is not an answer)',
    );
    expect(stdout).toMatch(/^31 checks: 0 passed, 24 failed, 7 skipped \(/m);
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
      const { code, stdout } = await runCli(['check-receiver', port.url, '--auth', 'none', '--timeout', '150']);
      expect(code).toBe(1);
      outputs.push(stdout.replace(port.url, 'URL'));
    } finally {
      await port.close();
    }
  }
  expect(outputs[1]).toBe(outputs[0]);
  expect(outputs[0]).toMatch(/FAIL\s+acknowledge:data_source_run_batch\.ready\s+unreachable\n\s+it was not acknowledged: no HTTP answer \(unreachable\)\n/);
}, 30_000);

// Regression: a receiver that answers 200 'ok' to everything and does nothing, checked without --auth, printed
// `27 checks: 24 passed, 0 failed, 3 skipped` and exited 0.
test('a receiver that answers 200 to everything and does nothing never exits 0, with --auth secret:S, with --auth none, or without --auth', async () => {
  const doNothing = await observedReceiver({ verifies: false, deduplicates: false, processes: false });
  try {
    const without = await runCli(['check-receiver', doNothing.url]);
    expect(without.code).toBe(2);
    expect(without.stdout).toBe('');
    expect(without.stderr).toContain(
      "bvs-mock check-receiver: --auth is required: how the receiver's endpoint authenticates deliveries, one of none (an endpoint with auth_type none, which sends no Authorization header), secret:<the endpoint secret>",
    );
    const none = await runCli(['check-receiver', doNothing.url, '--auth', 'none']);
    expect(none.code).toBe(3);
    expect(none.stdout).toMatch(
      /^31 checks: 24 passed, 0 failed, 7 skipped \(refuse:missing-authorization, refuse:wrong-bearer, refuse:other-scheme, processed:forged-ignored: checked with auth none: no Authorization to verify or forge; processed:duplicate-once, /m,
    );
    expect(none.stdout).toMatch(/^Checked without authorization \(auth none\): right only for a receiver whose endpoint is configured with auth_type none/m);
    const secret = await runCli(['check-receiver', doNothing.url, '--auth', `secret:${RECEIVER_SECRET}`]);
    expect(secret.code).toBe(1);
    expect(secret.stdout).toMatch(/^31 checks: 24 passed, 3 failed, 4 skipped \(/m);
    const observed = await runCli([
      'check-receiver',
      doNothing.url,
      '--auth',
      `secret:${RECEIVER_SECRET}`,
      '--observe',
      doNothing.observe,
      '--observe-wait',
      '100',
    ]);
    expect(observed.code).toBe(1);
    expect(observed.stdout).toMatch(/^31 checks: 24 passed, 7 failed, 0 skipped$/m);
    expect(observed.stdout).toMatch(
      /FAIL\s+processed:duplicate-once[^\n]*\n\s+data_source_run_batch\.data_source_run\.ready dsr_probe\S+ was processed 0 times, not once \(within 100 ms\)/,
    );
  } finally {
    await doNothing.close();
  }
});
