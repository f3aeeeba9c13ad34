import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/testing';
import { ROOT } from '../support/built-cli';
import { typeOf } from '../support/delivery-harness';

// `bvs-mock play SCENARIO --webhook-url URL` (docs/design.md, Command line), run as users run it: the
// built binary, against a real receiver on loopback.

const HAPPY_PARTNERS_TYPES = [
  'data_source_run_batch.data_source_run.ready',
  'data_source_run_batch.data_source_run.ready',
  'entity_validation.stakeholder.created',
  'data_source_run_batch.data_source_run.ready',
  'data_source_run_batch.ready',
  'data_source_run_batch.data_source_run.ready',
  'data_source_run_batch.data_source_run.ready',
  'data_source_run_batch.data_source_run.ready',
  'data_source_run_batch.data_source_run.ready',
  'data_source_run_batch.data_source_run.ready',
  'data_source_run_batch.child_batches_ready',
  'data_source_run_batch.consolidated_report_ready',
];
const ATTEMPT_LINE = /^(\d\d:\d\d:\d\d\.\d{3}) {2}(\S+) +-> (\S+) in \d+\.\d ms(.*)$/;

let receiver: WebhookReceiver | undefined;

afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

/** Runs the built command line without blocking this process (the receiver lives here). */
function bvsMock(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'bin/bvs-mock.js'), ...args], { cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

test('play happy-partners prints each attempt in the engine order and a summary, delivers all twelve events, and exits 0', async () => {
  receiver = await startWebhookReceiver();
  const run = await bvsMock(['play', 'happy-partners', '--webhook-url', receiver.url]);
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines[0]).toBe(`bvs-mock play: happy-partners (TIN 76920415-6) to ${receiver.url}`);
  const attempts = lines.slice(1, -1).map((line) => ATTEMPT_LINE.exec(line));
  expect(attempts.every((match) => match !== null)).toBe(true);
  expect(attempts.map((match) => match![2])).toEqual(HAPPY_PARTNERS_TYPES);
  expect(attempts.map((match) => match![3])).toEqual(Array<string>(12).fill('200'));
  expect(attempts.map((match) => match![1])).toEqual([...attempts.map((match) => match![1])].sort());
  expect(lines.at(-1)).toBe('12 deliveries: 12 succeeded, 0 failed, 0 expired');
  expect(receiver.received.map(typeOf)).toEqual(HAPPY_PARTNERS_TYPES);
  expect(receiver.received.every((hook) => hook.headers.authorization === undefined)).toBe(true);
}, 40_000);

test('play --secret sends Authorization: Bearer <secret> on every delivery', async () => {
  receiver = await startWebhookReceiver();
  const run = await bvsMock(['play', 'happy-no-partners', '--webhook-url', receiver.url, '--secret', 'whsec_cli']);
  expect(run.code).toBe(0);
  expect(receiver.received).toHaveLength(6);
  expect(receiver.received.every((hook) => hook.headers.authorization === 'Bearer whsec_cli')).toBe(true);
}, 40_000);

test('play missing-input-data supplies the input once the rest has played and delivers the whole scenario', async () => {
  receiver = await startWebhookReceiver();
  const run = await bvsMock(['play', 'missing-input-data', '--webhook-url', receiver.url]);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/input supplied to dsr_\S+ \(it waited in missing_input_data\)/);
  expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('8 deliveries: 8 succeeded, 0 failed, 0 expired');
  expect(receiver.received).toHaveLength(8);
}, 40_000);

test('play against a receiver that always answers 500 retries each delivery 20 times on the instant clock and exits 1', async () => {
  receiver = await startWebhookReceiver({ respond: () => 500 });
  // On the instant clock the retries' hours of simulated time pass at once; on any other, this would end by the test's timeout.
  const run = await bvsMock(['play', 'happy-partners', '--webhook-url', receiver.url, '--timeout', '500']);
  expect(run.code).toBe(1);
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines.at(-1)).toBe('12 deliveries: 0 succeeded, 12 failed, 0 expired');
  const attempts = lines.slice(1, -1);
  expect(attempts).toHaveLength(12 * 21);
  expect(attempts.every((line) => / -> 500 in /.test(line))).toBe(true);
  expect(attempts.filter((line) => /\(attempt 21, retry\)/.test(line))).toHaveLength(12);
  // child_batches_ready fires once: its lines show the whole schedule, 15 s doubling, capped at one hour.
  const times = attempts.filter((line) => line.includes('child_batches_ready')).map((line) => ATTEMPT_LINE.exec(line)![1]!);
  const seconds = times.map((time) => time.split(':').reduce((sum, part) => sum * 60 + Number(part), 0));
  expect(seconds.slice(1).map((at, index) => at - seconds[index]!)).toEqual([15, 30, 60, 120, 240, 480, 960, 1920, ...Array<number>(12).fill(3600)]);
  expect(receiver.received).toHaveLength(12 * 21);
}, 40_000);

test('play with an unknown scenario exits 1 and says where the names are', async () => {
  const run = await bvsMock(['play', 'no-such-scenario', '--webhook-url', 'http://127.0.0.1:9/hooks']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('bvs-mock scenarios');
}, 40_000);
