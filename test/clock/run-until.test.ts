import { createClock, StepLimitError, type SimulatedClock } from '../../src/clock';

// SimulatedClock.runUntil, the one loop that moves time as the instant mode does: before every move past the
// present, the first and the last one included, it waits at the barrier (docs/decisions/0004).

const START = Date.parse('2026-01-15T10:00:00.000Z');
let clock: SimulatedClock;

afterEach(() => clock.stop());

/** Work outside the clock that the barrier names until the function `start()` returned is called. */
function outsideWork(target: SimulatedClock): { start(): () => void } {
  let running: Promise<void> | undefined;
  target.setBarrier(() => running);
  return {
    start() {
      let resolve = (): void => undefined;
      running = new Promise<void>((done) => (resolve = done));
      return () => {
        running = undefined;
        resolve();
      };
    },
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('waits at the barrier before its first move: what the present queued ends at the present', async () => {
  clock = createClock();
  const work = outsideWork(clock);
  const finish = work.start();
  clock.scheduleIn(60_000, () => undefined);
  const run = clock.runUntil(START + 1_800_000);
  await nextTurn();
  const finishedAt = clock.now();
  finish();
  await expect(run).resolves.toBe(1);
  expect(finishedAt).toBe(START);
  expect(clock.now()).toBe(START + 1_800_000);
});

test('waits at the barrier before the last move, to the limit, even with nothing scheduled', async () => {
  clock = createClock();
  const work = outsideWork(clock);
  const finish = work.start();
  const run = clock.runUntil(START + 60_000);
  await nextTurn();
  const finishedAt = clock.now();
  finish();
  await run;
  expect(finishedAt).toBe(START);
  expect(clock.now()).toBe(START + 60_000);
});

test('fires a timer that the awaited work scheduled within the limit at its own time', async () => {
  clock = createClock();
  const work = outsideWork(clock);
  const fired: number[] = [];
  clock.scheduleIn(10_000, () => {
    fired.push(clock.now());
    const finish = work.start();
    // The work ends later in real time and schedules its retry 15 s after the attempt started.
    setImmediate(() => {
      clock.scheduleIn(15_000, () => fired.push(clock.now()));
      finish();
    });
  });
  await clock.runUntil(START + 400_000);
  expect(fired).toEqual([START + 10_000, START + 25_000]);
  expect(clock.now()).toBe(START + 400_000);
});

test('runs until nothing is scheduled with an infinite limit, leaving time at the last timer', async () => {
  clock = createClock();
  for (const delay of [5_000, 1_000, 3_000]) clock.scheduleIn(delay, () => undefined);
  await expect(clock.runUntil(Infinity)).resolves.toBe(3);
  expect(clock.now()).toBe(START + 5_000);
  expect(clock.pending).toBe(0);
});

test('ends where it got to when the clock is reset while it waits', async () => {
  clock = createClock();
  const work = outsideWork(clock);
  const finish = work.start();
  clock.scheduleIn(1_000, () => undefined);
  const run = clock.runUntil(START + 60_000);
  clock.reset();
  finish();
  await expect(run).resolves.toBe(0);
  expect(clock.now()).toBe(START);
});

test('ends where it got to when its signal aborts while it waits', async () => {
  clock = createClock();
  const work = outsideWork(clock);
  work.start();
  clock.scheduleIn(1_000, () => undefined);
  const bound = new AbortController();
  const run = clock.runUntil(START + 60_000, { signal: bound.signal });
  bound.abort();
  await expect(run).resolves.toBe(0);
  expect(clock.now()).toBe(START);
  expect(clock.pending).toBe(1);
});

test('rejects with a StepLimitError when a timer reschedules itself forever', async () => {
  clock = createClock({ maxSteps: 100 });
  const again = (): void => void clock.scheduleIn(1, again);
  clock.scheduleIn(1, again);
  await expect(clock.runUntil(Infinity)).rejects.toThrow(StepLimitError);
});

test('rejects a limit that is not a number', async () => {
  clock = createClock();
  await expect(clock.runUntil(Number.NaN)).rejects.toThrow(/runUntil\(limit\) needs a time in epoch milliseconds or Infinity, got NaN/);
});
