import { createClock, type SimulatedClock } from '../../src/clock';

// One instant per request, across its awaits (SimulatedClock.hold). A hold around an async action used to
// hold only the part before its first await: on a realtime clock the rest of a request saw time move, and
// timers due meanwhile fired in the middle of it.

let clock: SimulatedClock;
let wall: number;
const wallNow = (): number => wall;
const realSleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  wall = 1_700_000_000_000;
});
afterEach(() => clock.stop());

test('a hold around an async action keeps one instant across its awaits', async () => {
  clock = createClock({ mode: 'realtime', speed: 600, wallNow });
  const [before, after] = await clock.hold(async () => {
    const first = clock.now();
    wall += 1_000; // 600 simulated seconds pass on the wall clock
    await Promise.resolve();
    await realSleep(5);
    return [first, clock.now()];
  });
  expect(after).toBe(before);
  expect(clock.now()).toBe(before + 600_000);
});

test('a timer due during a held async action fires only once the hold ends, never in the middle of it', async () => {
  clock = createClock({ mode: 'realtime', speed: 1, wallNow });
  const fired: number[] = [];
  const start = clock.now();
  clock.scheduleIn(10, () => fired.push(clock.now()));
  const seenInside = await clock.hold(async () => {
    wall += 100;
    await realSleep(40);
    return [...fired];
  });
  expect(seenInside).toEqual([]);
  await realSleep(20);
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
