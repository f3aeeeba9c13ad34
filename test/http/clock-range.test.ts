import { CLOCK_RANGE_YEARS, clockLimit } from '../../src/api/routes/control-routes';
import { expectApiError, useTestServer } from '../support/api-test-server';

// Regression: 27,392 advances of ten years pushed the simulated date out of Date's range, and from then
// on GET /_mock/health answered 500 (toISOString threw RangeError). POST /_mock/clock/advance now refuses
// to move past 100 years after the clock's start.

const TEN_YEARS = 10 * 365 * 24 * 3600;

interface Clock {
  now: string;
  started_at: string;
}

const t = useTestServer();

async function clock(): Promise<Clock> {
  return (await t.call('/_mock/clock')).json<Clock>();
}

/** Advances in steps of at most ten years until the clock stands exactly at the limit. */
async function advanceToLimit(): Promise<string> {
  const limit = clockLimit(Date.parse((await clock()).started_at));
  for (;;) {
    const left = (limit - Date.parse((await clock()).now)) / 1000;
    if (left === 0) return new Date(limit).toISOString();
    await t.advance(Math.min(left, TEN_YEARS));
  }
}

test('the limit is 100 calendar years after the start, with the start time of day kept', () => {
  expect(CLOCK_RANGE_YEARS).toBe(100);
  expect(new Date(clockLimit(Date.parse('2026-01-15T10:00:00.000Z'))).toISOString()).toBe('2126-01-15T10:00:00.000Z');
});

test('the clock advances exactly to the limit, one more second is refused with 422 at $.seconds, and health still answers 200', async () => {
  const limit = await advanceToLimit();
  expect((await clock()).now).toBe(limit);
  const error = expectApiError(await t.json('POST', '/_mock/clock/advance', { seconds: 1 }), 422, 'validation_failed');
  expect(error.issues).toEqual([{ path: '$.seconds', code: 'too_big', message: `must be at most 0 at ${limit}: simulated time ends at ${limit}` }]);
  expect(error.message).toContain(`from ${limit}`);
  expect(error.message).toContain('POST /_mock/reset');
  expect((await clock()).now).toBe(limit);
  const health = await t.call('/_mock/health');
  expect(health.status).toBe(200);
  expect(health.json()).toMatchObject({ status: 'ok', clock: { now: limit } });
});

test('a refused advance names the current time, the limit and the largest advance still allowed', async () => {
  // Ten-year steps of 365-day years fall short of 100 calendar years by the leap days: step past them.
  for (let step = 0; step < 9; step += 1) await t.advance(TEN_YEARS);
  await t.advance(365 * 24 * 3600);
  const { now, started_at: startedAt } = await clock();
  const limit = clockLimit(Date.parse(startedAt));
  const allowed = (limit - Date.parse(now)) / 1000;
  const error = expectApiError(await t.json('POST', '/_mock/clock/advance', { seconds: TEN_YEARS }), 422, 'validation_failed');
  expect(error.message).toContain(`from ${now}`);
  expect(error.message).toContain(new Date(limit).toISOString());
  expect(error.message).toContain(`Advance at most ${allowed} s`);
  expect((await t.json('POST', '/_mock/clock/advance', { seconds: allowed })).status).toBe(200);
});

test('one advance is capped at ten years by the request schema', async () => {
  const error = expectApiError(await t.json('POST', '/_mock/clock/advance', { seconds: TEN_YEARS + 1 }), 422, 'validation_failed');
  expect(error.issues).toEqual([expect.objectContaining({ path: '$.seconds', message: 'must be at most ten years, got the number 315360001' })]);
});

test('POST /_mock/reset brings the clock back to its start, and advancing works again', async () => {
  await advanceToLimit();
  await t.call('/_mock/reset', { method: 'POST' });
  const { now, started_at: startedAt } = await clock();
  expect(now).toBe(startedAt);
  expect((await t.json('POST', '/_mock/clock/advance', { seconds: 60 })).status).toBe(200);
});
