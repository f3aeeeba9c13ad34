import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';
import { post, type PostResult } from '../../src/delivery/http-post';
import { startHangingTcpReceiver, type HangingTcpReceiver } from '../support/raw-tcp-receiver';

/**
 * Regression: an attempt to a receiver that never answers could wait for ever. Its timeout was an
 * `AbortSignal.timeout` inside `AbortSignal.any`, which node holds only weakly: once garbage collected,
 * the timeout never fired, the attempt never ended, its receiver's queue never moved and
 * `POST /_mock/clock/run` had nothing left to wait for but it.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let hanging: HangingTcpReceiver | undefined;

afterEach(async () => {
  await hanging?.close();
  hanging = undefined;
});

test('an attempt to a receiver that never answers ends as timeout, even when garbage is collected while it waits', async () => {
  hanging = await startHangingTcpReceiver();
  let result: PostResult | undefined;
  const attempt = post({ url: hanging.url, headers: {}, body: '{}', timeoutMs: 500, insecureTls: false, signal: new AbortController().signal }).then(
    (ended) => (result = ended),
  );
  // Garbage is collected until the attempt ends by itself; one that never ends fails at jest's timeout.
  while (result === undefined) {
    gc();
    await sleep(100);
  }
  await attempt;
  expect(result).toMatchObject({ status: null, error: 'timeout' });
  expect(result.durationMs).toBeGreaterThanOrEqual(500);
});

test('an attempt without a reset signal times out too, and a reset ends an attempt at once as cancelled', async () => {
  hanging = await startHangingTcpReceiver();
  const alone = post({ url: hanging.url, headers: {}, body: '{}', timeoutMs: 300, insecureTls: false });
  gc();
  expect(await alone).toMatchObject({ status: null, error: 'timeout' });
  const abort = new AbortController();
  const cancelled = post({ url: hanging.url, headers: {}, body: '{}', timeoutMs: 60_000, insecureTls: false, signal: abort.signal });
  await sleep(50);
  abort.abort();
  expect(await cancelled).toMatchObject({ status: null, error: 'cancelled' });
  // Already reset before it starts: nothing waits.
  expect(await post({ url: hanging.url, headers: {}, body: '{}', timeoutMs: 60_000, insecureTls: false, signal: abort.signal })).toMatchObject({
    status: null,
    error: 'cancelled',
  });
});
