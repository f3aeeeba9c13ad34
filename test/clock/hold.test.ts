import { createClock, type SimulatedClock } from '../../src/clock';

// One instant per request (SimulatedClock.hold): on a fast realtime clock, two reads of one action must not
// see time move. A hold covers what an action does before it returns; a promise-returning action is held up
// to its first await (docs/decisions/0004): it used to be held until its promise settled, which stopped the
// automatic modes meanwhile and needed an opt-out on every route that waits for the clock.

let clock: SimulatedClock;
let wall: number;
const wallNow = (): number => wall;

beforeEach(() => {
  wall = 1_700_000_000_000;
});
afterEach(() => clock.stop());

test('a hold keeps one instant across an action while the wall clock moves', () => {
  clock = createClock({ mode: 'realtime', speed: 600, wallNow });
  const [before, after] = clock.hold(() => {
    const first = clock.now();
    wall += 1_000; // 600 simulated seconds pass on the wall clock
    return [first, clock.now()];
  });
  expect(after).toBe(before);
  expect(clock.now()).toBe(before + 600_000);
});

test('a promise-returning action is held up to its first await, and time moves after it', async () => {
  clock = createClock({ mode: 'realtime', speed: 600, wallNow });
  const seen: number[] = [];
  await clock.hold(async () => {
    seen.push(clock.now());
    wall += 1_000;
    seen.push(clock.now());
    await Promise.resolve();
    seen.push(clock.now());
  });
  expect(seen).toEqual([seen[0], seen[0], seen[0]! + 600_000]);
});

test('a timer due while an action is held fires after it, never in the middle of it', async () => {
  clock = createClock({ mode: 'realtime', speed: 1, wallNow });
  const fired: number[] = [];
  const start = clock.now();
  clock.scheduleIn(10, () => fired.push(clock.now()));
  const seenInside = clock.hold(() => {
    wall += 100;
    return [...fired];
  });
  expect(seenInside).toEqual([]);
  await clock.idle();
  expect(fired).toEqual([start + 10]);
});

test('a hold that throws or rejects is released: time moves again afterwards', async () => {
  clock = createClock({ mode: 'realtime', speed: 10, wallNow });
  expect(() =>
    clock.hold(() => {
      throw new Error('sync failure');
    }),
  ).toThrow('sync failure');
  await expect(clock.hold(async () => Promise.reject(new Error('async failure')))).rejects.toThrow('async failure');
  const before = clock.now();
  wall += 1_000;
  expect(clock.now()).toBe(before + 10_000);
});

test('the explicit levers still move time inside a hold (a clock advance is a request too)', () => {
  clock = createClock({ mode: 'manual' });
  const start = clock.now();
  const inside = clock.hold(() => {
    clock.advance(5_000);
    return clock.now();
  });
  expect(inside).toBe(start + 5_000);
});

test('a held action that waits for the instant clock does not wait for ever', async () => {
  clock = createClock({ mode: 'instant' });
  let fired = false;
  clock.scheduleIn(60_000, () => (fired = true));
  await clock.hold(() => clock.idle());
  expect(fired).toBe(true);
});
