import { EVENT_TYPES } from '../../src/schemas';
import { PROBE_HEADER, checkReceiver, type ReceiverCheckReport } from '../../src/probes/receiver-check';
import { probePayloads } from '../../src/probes/probe-payloads';
import { startRawTcpReceiver } from '../support/raw-tcp-receiver';
import { RECEIVER_SECRET as SECRET, asyncReceiver, correct, receiver, strictSeverities, trustsAnyone, type Handle } from '../support/graded-receivers';

// The receiver check grades three receivers written for it, over real HTTP on loopback: a correct one passes
// every check; one that accepts any Authorization fails exactly the forged-delivery checks; one that throws on
// a severity it does not know fails exactly that tolerance check.

const failing = (report: ReceiverCheckReport) => report.results.filter((result) => result.outcome === 'fail').map((result) => result.check);

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

test('a correct receiver passes every check; each probe names its check in X-Bvs-Mock-Probe and never uses a real id', async () => {
  const { report, seen } = await check(correct);
  expect(failing(report)).toEqual([]);
  expect(report).toMatchObject({ failed: 0, skipped: 0 });
  expect(report.passed).toBe(report.results.length);
  expect(report.results.length).toBeGreaterThanOrEqual(12 + 3 + 4 + 5 + 3);
  expect(new Set(seen.map((request) => request.headers[PROBE_HEADER]))).toEqual(new Set(report.results.map((result) => result.check)));
  // The excerpt may end inside an id: only whole ids are looked at.
  for (const result of report.results)
    for (const { request } of result.exchanges) expect(request.body_excerpt).not.toMatch(/"(evl|dsrb|dsr|rlal|irq)_(?!probe)[^"]*"/);
});

test('a receiver that accepts any Authorization fails exactly the forged-delivery checks, naming spec §5.5 and showing the request', async () => {
  const { report } = await check(trustsAnyone);
  expect(failing(report)).toEqual(['verify:missing-authorization', 'verify:wrong-bearer', 'verify:other-scheme']);
  const wrong = report.results.find((result) => result.check === 'verify:wrong-bearer')!;
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

test('a receiver slow to answer one event type fails its "quickly" check; with --auth none the verify checks are skipped, not passed', async () => {
  const slowReports = await asyncReceiver(async (body) => {
    if (body.type === 'data_source_run_batch.consolidated_report_ready') await new Promise((resolve) => setTimeout(resolve, 1_100));
    return 200;
  });
  try {
    const report = await checkReceiver({ url: slowReports.url, auth: { kind: 'none' } });
    expect(failing(report)).toEqual(['acknowledge:data_source_run_batch.consolidated_report_ready']);
    expect(report.results.find((result) => result.outcome === 'fail')!.reason).toMatch(/^it was acknowledged after 1\d{3} ms; quickly means within 1000 ms$/);
    expect(report.results.filter((result) => result.outcome === 'skipped').map((result) => result.check)).toEqual([
      'verify:missing-authorization',
      'verify:wrong-bearer',
      'verify:other-scheme',
    ]);
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
