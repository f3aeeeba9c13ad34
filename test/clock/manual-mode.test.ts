import { createClock, StepLimitError, type ClockErrorContext } from '../../src/clock';

const START = Date.parse('2026-01-15T10:00:00.000Z');

test('fires timers in order of due time, then of scheduling', () => {
  const clock = createClock();
  const fired: string[] = [];
  clock.scheduleIn(20, () => fired.push('c'));
  clock.scheduleIn(10, () => fired.push('a'));
  clock.scheduleIn(20, () => fired.push('d'));
  clock.scheduleIn(10, () => fired.push('b'));
  clock.runAll();
  expect(fired).toEqual(['a', 'b', 'c', 'd']);
});

test('does not fire a cancelled timer', () => {
  const clock = createClock();
  const fired: string[] = [];
  const handle = clock.scheduleIn(10, () => fired.push('cancelled'));
  clock.scheduleIn(20, () => fired.push('kept'));
  expect(handle.pending).toBe(true);
  expect(handle.cancel()).toBe(true);
  expect(handle.cancel()).toBe(false);
  expect(handle.pending).toBe(false);
  clock.runAll();
  expect(fired).toEqual(['kept']);
});

test('runs a timer scheduled for the current time from a callback after those already due then', () => {
  const clock = createClock();
  const fired: string[] = [];
  clock.scheduleIn(10, () => {
    fired.push('a');
    clock.scheduleIn(0, () => fired.push('nested at 10'));
    clock.scheduleIn(5, () => fired.push('nested at 15'));
  });
  clock.scheduleIn(10, () => fired.push('b'));
  clock.scheduleIn(15, () => fired.push('c'));
  clock.advance(15);
  expect(fired).toEqual(['a', 'b', 'nested at 10', 'c', 'nested at 15']);
});

test('reports a throwing callback to onError and still fires the other timers', () => {
  const errors: Array<{ error: unknown; context: ClockErrorContext }> = [];
  const clock = createClock({ onError: (error, context) => errors.push({ error, context }) });
  const fired: number[] = [];
  clock.scheduleIn(1, () => fired.push(1));
  clock.scheduleIn(2, () => {
    throw new Error('boom');
  });
  clock.scheduleIn(3, () => fired.push(3));
  expect(clock.runAll()).toBe(3);
  expect(fired).toEqual([1, 3]);
  expect(errors).toEqual([{ error: new Error('boom'), context: { source: 'timer', at: START + 2 } }]);
});

test('reports a rejected promise from a callback to onError', async () => {
  const errors: unknown[] = [];
  const clock = createClock({ onError: (error) => errors.push(error) });
  clock.scheduleIn(1, async () => {
    throw new Error('async boom');
  });
  clock.runAll();
  await new Promise((resolve) => setImmediate(resolve));
  expect(errors).toEqual([new Error('async boom')]);
});

test('advance fires each timer with now equal to its due time and lands exactly on now + ms', () => {
  const clock = createClock();
  const seen: number[] = [];
  for (const delay of [250, 100, 999, 1_000]) clock.scheduleIn(delay, () => seen.push(clock.now()));
  clock.scheduleIn(1_001, () => seen.push(-1));
  expect(clock.advance(1_000)).toBe(4);
  expect(seen).toEqual([START + 100, START + 250, START + 999, START + 1_000]);
  expect(clock.now()).toBe(START + 1_000);
  expect(clock.pending).toBe(1);
});

test('runNext fires one timer and moves time to its due time', () => {
  const clock = createClock();
  const fired: number[] = [];
  clock.scheduleIn(30, () => fired.push(30));
  clock.scheduleIn(70, () => fired.push(70));
  expect(clock.runNext()).toBe(true);
  expect(fired).toEqual([30]);
  expect(clock.now()).toBe(START + 30);
  expect(clock.runNext()).toBe(true);
  expect(clock.runNext()).toBe(false);
  expect(clock.now()).toBe(START + 70);
});

test('runAll throws a StepLimitError naming the limit when a timer reschedules itself forever', () => {
  const clock = createClock({ maxSteps: 500 });
  const loop = (): void => void clock.scheduleIn(1_000, loop);
  clock.scheduleIn(0, loop);
  expect(() => clock.runAll()).toThrow(StepLimitError);
  expect(() => clock.runAll()).toThrow(/runAll\(\) fired 500 timers \(maxSteps = 500\)/);
});

test('advance throws a StepLimitError when timers keep rescheduling at the same time', () => {
  const clock = createClock({ maxSteps: 100 });
  const loop = (): void => void clock.scheduleIn(0, loop);
  clock.scheduleIn(0, loop);
  expect(() => clock.advance(10)).toThrow(/advance\(\) fired 100 timers/);
});

test('advance rejects a negative or non-finite duration with a RangeError', () => {
  const clock = createClock();
  for (const ms of [-1, Number.NaN, Infinity]) {
    expect(() => clock.advance(ms)).toThrow(RangeError);
  }
  expect(() => clock.advance(-1)).toThrow(/advance\(ms\) needs a finite number of milliseconds >= 0, got -1/);
  expect(clock.now()).toBe(START);
});

test('refuses to move time from inside a timer callback', () => {
  const errors: unknown[] = [];
  const clock = createClock({ onError: (error) => errors.push(error) });
  clock.scheduleIn(1, () => clock.advance(5));
  clock.runAll();
  expect(String(errors[0])).toMatch(/advance\(\) was called from inside a timer callback/);
  expect(clock.now()).toBe(START + 1);
});

test('runs a timer scheduled in the past at the current time', () => {
  const clock = createClock();
  clock.advance(1_000);
  let firedAt = 0;
  const handle = clock.schedule(START, () => (firedAt = clock.now()));
  expect(handle.at).toBe(START + 1_000);
  clock.runAll();
  expect(firedAt).toBe(START + 1_000);
});

test('reset cancels every timer and moves time back to the start', async () => {
  const clock = createClock();
  const handle = clock.scheduleIn(5_000, () => undefined);
  clock.advance(1_000);
  const idle = clock.idle();
  clock.reset();
  await expect(idle).resolves.toBeUndefined();
  expect(handle.pending).toBe(false);
  expect(clock.pending).toBe(0);
  expect(clock.now()).toBe(START);
});

test('never moves in manual mode unless told to', async () => {
  const clock = createClock({ mode: 'manual' });
  let fired = false;
  clock.scheduleIn(0, () => (fired = true));
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(fired).toBe(false);
  expect(clock.now()).toBe(START);
  clock.advance(0);
  expect(fired).toBe(true);
});
