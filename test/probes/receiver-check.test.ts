import { EVENT_TYPES, type ProcessedState } from '../../src/schemas';
import { PROBE_HEADER, checkReceiver, type ReceiverCheckReport } from '../../src/probes/receiver-check';
import { probePayloads } from '../../src/probes/probe-payloads';
import { startRawTcpReceiver } from '../support/raw-tcp-receiver';
import {
  RECEIVER_SECRET as SECRET,
  asyncReceiver,
  correct,
  observedReceiver,
  receiver,
  strictSeverities,
  trustsAnyone,
  type Behaviour,
  type Handle,
} from '../support/graded-receivers';

// The receiver check grades three receivers written for it, over real HTTP on loopback: a correct one passes
// every check; one that accepts any Authorization fails exactly the forged-delivery checks; one that throws on
// a severity it does not know fails exactly that tolerance check.

const failing = (report: ReceiverCheckReport) => report.results.filter((result) => result.outcome === 'fail').map((result) => result.check);
const skipped = (report: ReceiverCheckReport) => report.results.filter((result) => result.outcome === 'skipped').map((result) => result.check);
const PROCESSED = ['processed:duplicate-once', 'processed:redelivery-once', 'processed:out-of-order', 'processed:forged-ignored'];

/** Checks a receiver with a side-effect probe, by its behaviour, and closes it. */
async function checkObserved(behaviour: Behaviour, observeWaitMs = 2_000) {
  const target = await observedReceiver(behaviour);
  try {
    return await checkReceiver({ url: target.url, auth: { kind: 'secret', value: SECRET }, observe: target.observe, observeWaitMs });
  } finally {
    await target.close();
  }
}

async function check(handle: Handle) {
  const target = await receiver(handle);
  try {
    return { report: await checkReceiver({ url: target.url, auth: { kind: 'secret', value: SECRET } }), seen: target.seen };
  } finally {
    await target.close();
  }
}

test('the probe payloads are real scenario payloads: all 12 event types, a partial ready, a 50-partner tree', async () => {
  const payloads = await probePayloads();
  expect([...payloads.byType.keys()].sort()).toEqual([...EVENT_TYPES].sort());
  const children = (payloads.partialReady.data_source_run_batch as { child_batches: Array<{ runs_succeeded: boolean }> }).child_batches;
  expect(children.some((child) => !child.runs_succeeded)).toBe(true);
  expect((payloads.largeTree.childBatchesReady.data_source_run_batch as { child_batches: unknown[] }).child_batches).toHaveLength(50);
});

test('a correct receiver with its side-effect probe passes every check, each processed:* check with what it processed', async () => {
  const report = await checkObserved({ verifies: true, deduplicates: true, processes: true });
  expect(report.results.filter((result) => result.outcome !== 'pass').map((result) => `${result.check}: ${result.reason}`)).toEqual([]);
  expect(report).toMatchObject({ outcome: 'pass', failed: 0, skipped: 0, passed: 31, summary: '31 checks: 31 passed, 0 failed, 0 skipped' });
  const duplicate = report.results.find((result) => result.check === 'processed:duplicate-once')!;
  expect(duplicate.processed).toEqual([
    { type: 'data_source_run_batch.data_source_run.ready', id: expect.stringMatching(/^dsr_probe\d+r[0-9a-f]{6}x/), times: 1 },
  ]);
  expect(duplicate.exchanges).toHaveLength(2);
});

test('without a probe, the processed:* checks are skipped, not passed: the outcome is incomplete and the summary says which and why', async () => {
  const { report, seen } = await check(correct);
  expect(failing(report)).toEqual([]);
  expect(skipped(report)).toEqual(PROCESSED);
  expect(report).toMatchObject({ outcome: 'incomplete', observe: null, failed: 0, skipped: 4, passed: 27 });
  expect(report.summary).toBe(
    '31 checks: 27 passed, 0 failed, 4 skipped (processed:duplicate-once, processed:redelivery-once, processed:out-of-order, processed:forged-ignored: no side-effect probe was given (--observe URL; observe in the control API and bvs-mock/testing), so what the receiver processed is unseen)\nIncomplete: a skipped check is not a pass.',
  );
  const ran = report.results.filter((result) => result.outcome !== 'skipped').map((result) => result.check);
  expect(new Set(seen.map((request) => request.headers[PROBE_HEADER]))).toEqual(new Set(ran));
  // The excerpt may end inside an id: only whole ids are looked at.
  for (const result of report.results)
    for (const { request } of result.exchanges) expect(request.body_excerpt).not.toMatch(/"(evl|dsrb|dsr|rlal|irq)_(?!probe)[^"]*"/);
});

test('a receiver that accepts any Authorization fails exactly the forged-delivery checks, naming spec §5.5 and showing the request', async () => {
  const { report } = await check(trustsAnyone);
  expect(failing(report)).toEqual(['refuse:missing-authorization', 'refuse:wrong-bearer', 'refuse:other-scheme']);
  const wrong = report.results.find((result) => result.check === 'refuse:wrong-bearer')!;
  expect(wrong.rule).toContain('§5.5');
  expect(wrong.reason).toBe(
    'it accepted a delivery with Authorization: Bearer bvs-mock-forged-value: answered 200 in ' +
      wrong.exchanges[0]!.answer.duration_ms +
      ' ms (a forged delivery would be processed)',
  );
  expect(wrong.exchanges[0]!.request.headers.authorization).toBe('Bearer bvs-mock-forged-value');
  // The receiver's own secret is never written into the report.
  expect(JSON.stringify(report)).not.toContain(SECRET);
});

test('a receiver that throws on a severity it does not know fails exactly that tolerance check', async () => {
  const { report } = await check(strictSeverities);
  expect(failing(report)).toEqual(['tolerate:alert-severity']);
  const result = report.results.find((item) => item.check === 'tolerate:alert-severity')!;
  expect(result.rule).toContain('§2');
  expect(result.reason).toMatch(/^it was not acknowledged: 500 in \d+ ms$/);
});

test('a receiver slow to answer one event type fails its "quickly" check; with auth none the refuse checks are skipped, not passed, and the summary says so', async () => {
  const slowReports = await asyncReceiver(async (body) => {
    if (body.type === 'data_source_run_batch.consolidated_report_ready') await new Promise((resolve) => setTimeout(resolve, 1_100));
    return 200;
  });
  try {
    const report = await checkReceiver({ url: slowReports.url, auth: { kind: 'none' } });
    expect(failing(report)).toEqual(['acknowledge:data_source_run_batch.consolidated_report_ready']);
    expect(report.results.find((result) => result.outcome === 'fail')!.reason).toMatch(/^it was acknowledged after 1\d{3} ms; quickly means within 1000 ms$/);
    expect(skipped(report)).toEqual(['refuse:missing-authorization', 'refuse:wrong-bearer', 'refuse:other-scheme', ...PROCESSED]);
    expect(report.outcome).toBe('fail');
    expect(report.summary).toContain('Checked without authorization (auth none): right only for a receiver whose endpoint is configured with auth_type none');
  } finally {
    await slowReports.close();
  }
});

test('a receiver that is not there fails every check it is sent, as unreachable', async () => {
  const gone = await receiver(() => 200);
  await gone.close();
  const report = await checkReceiver({ url: gone.url, auth: { kind: 'none' } });
  expect(report.passed).toBe(0);
  expect(report.results.find((result) => result.check === 'acknowledge:data_source_run_batch.ready')!.reason).toMatch(
    /^it was not acknowledged: no HTTP answer \(unreachable\)$/,
  );
});

// Regression: an answer whose head declared Content-Length: 1000 and whose body stopped after 7 bytes passed as a
// 200 acknowledgement. A truncated answer is not an answer (spec §6 Subscription and delivery, rule 4).
test('an answer that ends before its declared Content-Length fails every acknowledgement, naming spec §6 rule 4', async () => {
  const raw = await startRawTcpReceiver('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabcdefg');
  try {
    const report = await checkReceiver({ url: raw.url, auth: { kind: 'none' } });
    expect(report.passed).toBe(0);
    const ready = report.results.find((result) => result.check === 'acknowledge:data_source_run_batch.ready')!;
    expect(ready.outcome).toBe('fail');
    expect(ready.reason).toMatch(/^it was not acknowledged: 200 cut short: the answer ended after 7 of the 1000 bytes its Content-Length declared/);
    expect(ready.reason).toContain('§6 Subscription and delivery, rule 4');
    expect(ready.reason).toContain('a truncated answer is not an answer');
    expect(ready.exchanges[0]!.answer).toMatchObject({ status: 200, error: expect.stringMatching(/^answer_truncated/), body_excerpt: 'abcdefg' });
    expect(raw.requests()).toBeGreaterThan(0);
  } finally {
    await raw.close();
  }
});

test('a receiver without deduplication fails the duplicate and redelivery checks when it gives a probe, naming how many times it processed', async () => {
  const report = await checkObserved({ verifies: true, deduplicates: false, processes: true });
  expect(failing(report)).toEqual(['processed:duplicate-once', 'processed:redelivery-once']);
  expect(report.outcome).toBe('fail');
  const duplicate = report.results.find((result) => result.check === 'processed:duplicate-once')!;
  expect(duplicate.reason).toMatch(/^data_source_run_batch\.data_source_run\.ready dsr_probe\S+ was processed 2 times, not once$/);
  expect(duplicate.rule).toContain('make handling idempotent');
});

test('a receiver that answers 2xx to everything and does nothing fails the refuse checks and, with a probe, every processed check', async () => {
  const report = await checkObserved({ verifies: false, deduplicates: false, processes: false }, 200);
  expect(failing(report)).toEqual(['refuse:missing-authorization', 'refuse:wrong-bearer', 'refuse:other-scheme', ...PROCESSED]);
  expect(report.results.find((result) => result.check === 'processed:duplicate-once')!.reason).toMatch(/was processed 0 times, not once \(within 200 ms\)$/);
  expect(report.results.find((result) => result.check === 'processed:forged-ignored')!.reason).toMatch(
    /^the valid delivery sent after the forged ones \(\S+ \S+\) was not processed within 200 ms/,
  );
});

test('a receiver that processes forged deliveries fails processed:forged-ignored; a callback probe grades as a URL does', async () => {
  const target = await observedReceiver({ verifies: false, deduplicates: true, processes: true });
  try {
    const observe = async () => (await (await fetch(target.observe)).json()) as ProcessedState;
    const report = await checkReceiver({ url: target.url, auth: { kind: 'secret', value: SECRET }, observe });
    expect(report.observe).toBe('callback');
    expect(failing(report)).toEqual(['refuse:missing-authorization', 'refuse:wrong-bearer', 'refuse:other-scheme', 'processed:forged-ignored']);
    const forged = report.results.find((result) => result.check === 'processed:forged-ignored')!;
    expect(forged.reason).toContain('(a forged delivery was processed)');
    expect(forged.processed!.map((event) => event.times)).toEqual([1, 1, 1, 1]);
  } finally {
    await target.close();
  }
});

test('a probe that answers something else fails the processed:* checks naming what is wrong; a check without auth is refused naming the forms', async () => {
  const target = await receiver(correct);
  try {
    const report = await checkReceiver({
      url: target.url,
      auth: { kind: 'secret', value: SECRET },
      observe: async () => ({ processed: [{ type: 'x' }] }) as never,
    });
    expect(failing(report)).toEqual(PROCESSED);
    expect(report.results.find((result) => result.check === 'processed:duplicate-once')!.reason).toBe(
      'the observe callback answered a body that is not a ProcessedState (docs/receiver-probe.md): $.processed[0].id: required field is missing (expected a string)',
    );
    await expect(checkReceiver({ url: target.url } as never)).rejects.toThrow(
      "checkReceiver: auth is required: how the receiver's endpoint authenticates deliveries, { kind: 'none' } (an endpoint with auth_type none)",
    );
  } finally {
    await target.close();
  }
});
