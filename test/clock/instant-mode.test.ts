import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClock, StepLimitError, type SimulatedClock } from '../../src/clock';

const START = Date.parse('2026-01-15T10:00:00.000Z');
let clock: SimulatedClock;

afterEach(() => clock.stop());

test('plays every timer with now equal to its due time and idle resolves', async () => {
  clock = createClock({ mode: 'instant' });
  const seen: number[] = [];
  for (const delay of [3_600_000, 5, 86_400_000, 5]) clock.scheduleIn(delay, () => seen.push(clock.now()));
  await clock.idle();
  expect(seen).toEqual([START + 5, START + 5, START + 3_600_000, START + 86_400_000]);
  expect(clock.now()).toBe(START + 86_400_000);
  expect(clock.pending).toBe(0);
});

test('resolves idle at once when nothing is scheduled', async () => {
  clock = createClock({ mode: 'instant' });
  await expect(clock.idle()).resolves.toBeUndefined();
});

test('starts playing after the scheduling code has finished, never inside schedule()', async () => {
  clock = createClock({ mode: 'instant' });
  let fired = false;
  clock.scheduleIn(1_000, () => (fired = true));
  expect(fired).toBe(false);
  expect(clock.now()).toBe(START);
  await clock.idle();
  expect(fired).toBe(true);
});

test('plays 100k timers, every one, in one run of the instant clock', async () => {
  clock = createClock({ mode: 'instant' });
  let count = 0;
  for (let i = 0; i < 100_000; i++) clock.scheduleIn((i * 7_919) % 100_003, () => count++);
  await clock.idle();
  expect(count).toBe(100_000);
});

test('answers a loopback HTTP request and a setImmediate while 200k chained timers play', async () => {
  clock = createClock({ mode: 'instant' });
  const total = 200_000;
  let fired = 0;
  const chain = (): void => {
    fired++;
    if (fired < total) clock.scheduleIn(1_000, chain);
  };
  const server: Server = createServer((_req, res) => res.end(`fired ${fired}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    clock.scheduleIn(0, chain);
    let firedAtImmediate = -1;
    setImmediate(() => setImmediate(() => (firedAtImmediate = fired)));
    const answeredAt = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(fired));
      });
      req.on('error', reject);
      req.end();
    });
    await clock.idle();
    expect(fired).toBe(total);
    expect(firedAtImmediate).toBeGreaterThan(0);
    expect(firedAtImmediate).toBeLessThan(total);
    expect(answeredAt).toBeLessThan(total);
    expect(clock.now()).toBe(START + (total - 1) * 1_000);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('stops a runaway run at maxSteps, rejects idle and reports to onError', async () => {
  const errors: unknown[] = [];
  clock = createClock({ mode: 'instant', maxSteps: 2_500, onError: (error) => errors.push(error) });
  const loop = (): void => void clock.scheduleIn(10, loop);
  clock.scheduleIn(0, loop);
  await expect(clock.idle()).rejects.toThrow(/instant mode fired 2500 timers \(maxSteps = 2500\)/);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toBeInstanceOf(StepLimitError);
  expect(clock.pending).toBe(1);
});

test('plays timers already scheduled when switched from manual to instant', async () => {
  clock = createClock();
  const fired: number[] = [];
  clock.scheduleIn(20, () => fired.push(20));
  clock.scheduleIn(10, () => fired.push(10));
  clock.setMode('instant');
  await clock.idle();
  expect(fired).toEqual([10, 20]);
  expect(clock.describe().mode).toBe('instant');
});

test('keeps time moving forward when advance is used as a lever in instant mode', async () => {
  clock = createClock({ mode: 'instant' });
  const seen: number[] = [];
  clock.scheduleIn(100, () => seen.push(clock.now()));
  clock.scheduleIn(5_000, () => seen.push(clock.now()));
  clock.advance(1_000);
  expect(seen).toEqual([START + 100]);
  expect(clock.now()).toBe(START + 1_000);
  await clock.idle();
  expect(seen).toEqual([START + 100, START + 5_000]);
});

test('stop leaves timers scheduled, rejects waiting idle promises and releases real timers', async () => {
  clock = createClock({ mode: 'instant' });
  let fired = false;
  clock.scheduleIn(10, () => (fired = true));
  const idle = clock.idle();
  clock.stop();
  await expect(idle).rejects.toThrow(/stopped with 1 timers pending/);
  await new Promise((resolve) => setImmediate(resolve));
  expect(fired).toBe(false);
  expect(clock.mode).toBe('manual');
  clock.runAll();
  expect(fired).toBe(true);
});
