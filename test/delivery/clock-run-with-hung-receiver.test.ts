import { connectBvsMock } from '../../src/testing';
import { expectApiError, startTestServer, type TestServer } from '../support/api-test-server';
import { HAPPY_PARTNERS } from '../support/built-in-tins';
import { startHangingTcpReceiver, type HangingTcpReceiver } from '../support/raw-tcp-receiver';

/**
 * Regression: `POST /_mock/clock/run` never answered while a receiver hung (it accepts the
 * connection and never answers): every attempt waited its delivery timeout, one after the other,
 * 21 attempts for each event, so a run took about 21 minutes and a CI `control.run()` hung with it.
 * The run is bounded in real time and says what it left (docs/fidelity.md row 98).
 */

interface RunAnswer {
  settled: boolean;
  max_wait_seconds: number;
  in_flight: number;
  pending: number;
  next_at: string | null;
  now: string;
  deliveries: { pending: number; succeeded: number; failed: number; expired: number };
}

let server: TestServer | undefined;
let hanging: HangingTcpReceiver | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  await hanging?.close();
  hanging = undefined;
});

/** A server whose only endpoint hangs; each attempt gives up after 2 real seconds, so playing it all would take many minutes. */
async function serverWithHungReceiver(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  hanging = await startHangingTcpReceiver();
  server = await startTestServer({ clock: 'instant', webhookUrl: hanging.url, deliveryTimeoutMs: 2_000, ...options });
  await server.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  return server;
}

test('POST /_mock/clock/run with max_wait_seconds answers 200 at the bound with what is still pending, and health answers meanwhile', async () => {
  const t = await serverWithHungReceiver();
  const running = t.json('POST', '/_mock/clock/run', { max_wait_seconds: 1 });
  expect((await t.call('/_mock/health')).status).toBe(200);
  const answer = await running;
  expect(answer.status).toBe(200);
  const body = answer.json<RunAnswer>();
  expect(body.settled).toBe(false);
  expect(body.max_wait_seconds).toBe(1);
  expect(body.deliveries.pending).toBeGreaterThan(0);
  expect(body.in_flight).toBeGreaterThan(0);
  expect(hanging!.connections()).toBeGreaterThan(0);
});

test("a run without a body stops at the server's own bound (maxRunWaitMs)", async () => {
  const t = await serverWithHungReceiver({ maxRunWaitMs: 500 });
  const answer = await t.call('/_mock/clock/run', { method: 'POST' });
  expect(answer.status).toBe(200);
  const body = answer.json<RunAnswer>();
  expect(body).toMatchObject({ settled: false, max_wait_seconds: 0.5 });
  expect(body.deliveries.pending).toBeGreaterThan(0);
});

test('control.run({ maxWaitSeconds }) of bvs-mock/testing resolves at the bound with settled: false', async () => {
  const t = await serverWithHungReceiver();
  const control = connectBvsMock(t.server.url, { ca: t.server.certificate ?? undefined });
  const run = await control.run({ maxWaitSeconds: 0.5 });
  expect(run.settled).toBe(false);
  expect(run.max_wait_seconds).toBe(0.5);
  expect(run.deliveries.pending).toBeGreaterThan(0);
});

test('the manual clock stops moving at the bound and a later run goes on from the instant it reached', async () => {
  const t = await serverWithHungReceiver({ clock: 'manual' });
  const first = (await t.json('POST', '/_mock/clock/run', { max_wait_seconds: 0.5 })).json<RunAnswer>();
  expect(first.settled).toBe(false);
  const clockAfter = (await t.call('/_mock/clock')).json<{ now: string }>();
  // Nothing moves the manual clock once the run has answered.
  expect(clockAfter.now).toBe(first.now);
  const second = (await t.json('POST', '/_mock/clock/run', { max_wait_seconds: 0.5 })).json<RunAnswer>();
  expect(second.settled).toBe(false);
  expect(Date.parse(second.now)).toBeGreaterThanOrEqual(Date.parse(first.now));
});

test('a run with healthy receivers still settles and says so', async () => {
  server = await startTestServer({ clock: 'manual' });
  await server.create({ tin: HAPPY_PARTNERS, country: 'CL' });
  const body = (await server.json('POST', '/_mock/clock/run', {})).json<RunAnswer>();
  expect(body).toMatchObject({ settled: true, in_flight: 0, pending: 0, next_at: null, max_wait_seconds: 30 });
});

test.each([0, -1, 86_401, 'soon'])('max_wait_seconds %p is refused with 422 at $.max_wait_seconds', async (value) => {
  server = await startTestServer();
  const error = expectApiError(await server.json('POST', '/_mock/clock/run', { max_wait_seconds: value }), 422, 'validation_failed');
  expect(error.issues.map((issue) => issue.path)).toEqual(['$.max_wait_seconds']);
});
