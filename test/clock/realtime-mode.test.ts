import { createClock, type SimulatedClock } from '../../src/clock';

const START = Date.parse('2026-01-15T10:00:00.000Z');
let clock: SimulatedClock;
let wall: number;
const wallNow = (): number => wall;

beforeEach(() => {
  wall = 1_700_000_000_000;
});
afterEach(() => clock.stop());

test('advances simulated time with the wall clock times the speed factor', () => {
  clock = createClock({ mode: 'realtime', speed: 10, wallNow });
  expect(clock.now()).toBe(START);
  wall += 1_500;
  expect(clock.now()).toBe(START + 15_000);
  clock.setMode('realtime', { speed: 2 });
  wall += 1_000;
  expect(clock.now()).toBe(START + 17_000);
});

test('holds at the due time of a timer the wall clock has reached until it fires', () => {
  clock = createClock({ mode: 'realtime', speed: 60, wallNow });
  const seen: number[] = [];
  clock.scheduleIn(60_000, () => seen.push(clock.now()));
  clock.scheduleIn(120_000, () => seen.push(clock.now()));
  wall += 5_000; // 300 s of simulated time
  expect(clock.now()).toBe(START + 60_000);
  expect(clock.advance(0)).toBe(2);
  expect(seen).toEqual([START + 60_000, START + 120_000]);
  expect(clock.now()).toBe(START + 300_000);
});

test('fires a timer from its real timeout once the wall clock reaches its due time', async () => {
  clock = createClock({ mode: 'realtime', speed: 1_000, wallNow });
  let firedAt = 0;
  clock.scheduleIn(1_000, () => (firedAt = clock.now())); // 1 ms of real time at this speed
  wall += 1;
  await clock.idle();
  expect(firedAt).toBe(START + 1_000);
});

test('continues from where advance left it, ahead of the wall clock', () => {
  clock = createClock({ mode: 'realtime', speed: 1, wallNow });
  const fired: number[] = [];
  clock.scheduleIn(10_000, () => fired.push(clock.now()));
  expect(clock.advance(60_000)).toBe(1);
  expect(fired).toEqual([START + 10_000]);
  expect(clock.now()).toBe(START + 60_000);
  wall += 250;
  expect(clock.now()).toBe(START + 60_250);
});

test('freezes time when switched from realtime to manual', () => {
  clock = createClock({ mode: 'realtime', speed: 4, wallNow });
  wall += 1_000;
  clock.setMode('manual');
  wall += 1_000;
  expect(clock.now()).toBe(START + 4_000);
  expect(clock.describe()).toMatchObject({ mode: 'manual', speed: 4, now: '2026-01-15T10:00:04.000Z' });
});

test('rejects a speed that is not a positive finite number', () => {
  clock = createClock({ wallNow });
  expect(() => clock.setMode('realtime', { speed: -2 })).toThrow(/speed must be a finite number > 0/);
  expect(clock.mode).toBe('manual');
});

// The clock's real timers under jest's fake timers (which fake Date.now too): what is proved is when a
// timer fires in real time, which a busy machine could only delay, never tell apart from a slow clock.

test('fires timers on the real wall clock at the speed factor', async () => {
  jest.useFakeTimers({ now: wall });
  try {
    clock = createClock({ mode: 'realtime', speed: 50 });
    let firedAt = 0;
    clock.scheduleIn(2_000, () => (firedAt = clock.now())); // 40 ms of real time
    await jest.advanceTimersByTimeAsync(39);
    expect(firedAt).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(firedAt).toBe(START + 2_000);
  } finally {
    jest.useRealTimers();
  }
});

test('re-arms its real timer when an earlier timer is scheduled', async () => {
  jest.useFakeTimers({ now: wall });
  try {
    clock = createClock({ mode: 'realtime', speed: 10 });
    const fired: string[] = [];
    clock.scheduleIn(100_000, () => fired.push('late')); // 10 s of real time
    await jest.advanceTimersByTimeAsync(10);
    clock.scheduleIn(500, () => fired.push('early')); // 50 ms of real time from now
    await jest.advanceTimersByTimeAsync(49);
    expect(fired).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(['early']);
    expect(clock.pending).toBe(1);
  } finally {
    jest.useRealTimers();
  }
});

test('hold keeps time still for one action while the wall clock moves, and lets it move after', () => {
  clock = createClock({ mode: 'realtime', speed: 600, wallNow });
  wall += 10; // 6 simulated seconds
  const seen = clock.hold(() => {
    const first = clock.now();
    wall += 5; // 3 more simulated seconds pass during the action
    return [first, clock.now(), clock.hold(() => clock.now())];
  });
  expect(seen).toEqual([START + 6_000, START + 6_000, START + 6_000]);
  expect(clock.now()).toBe(START + 9_000);
});
