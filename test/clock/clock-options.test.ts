import { createClock, DEFAULT_CLOCK_START, isClockMode } from '../../src/clock';

test('starts at 2026-01-15T10:00:00.000Z by default', () => {
  const clock = createClock();
  expect(DEFAULT_CLOCK_START).toBe('2026-01-15T10:00:00.000Z');
  expect(clock.iso()).toBe('2026-01-15T10:00:00.000Z');
  expect(clock.now()).toBe(Date.parse(DEFAULT_CLOCK_START));
  expect(clock.nowDate()).toEqual(new Date(DEFAULT_CLOCK_START));
});

test('formats time as ISO 8601 UTC with milliseconds', () => {
  const clock = createClock({ start: '2030-06-01T23:59:59+02:00' });
  expect(clock.iso()).toBe('2030-06-01T21:59:59.000Z');
  clock.advance(7);
  expect(clock.iso()).toBe('2030-06-01T21:59:59.007Z');
  expect(clock.iso()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
});

test('accepts the start as epoch milliseconds or a Date', () => {
  expect(createClock({ start: 0 }).iso()).toBe('1970-01-01T00:00:00.000Z');
  expect(createClock({ start: new Date('2026-02-01T00:00:00Z') }).iso()).toBe('2026-02-01T00:00:00.000Z');
});

test('rejects invalid options at construction with actionable messages', () => {
  expect(() => createClock({ start: 'yesterday' })).toThrow(/start "yesterday" is not a valid time/);
  expect(() => createClock({ speed: 0 })).toThrow(/speed must be a finite number > 0/);
  expect(() => createClock({ maxSteps: 0 })).toThrow(/maxSteps must be a positive integer/);
  expect(() => createClock({ mode: 'fast' as never })).toThrow(/mode "fast" is not one of manual, instant, realtime/);
});

test('describes mode, speed, times and pending timers for the control API', () => {
  const clock = createClock({ speed: 10 });
  expect(clock.describe()).toEqual({
    mode: 'manual',
    speed: 10,
    now: '2026-01-15T10:00:00.000Z',
    started_at: '2026-01-15T10:00:00.000Z',
    pending: 0,
    next_at: null,
  });
  clock.scheduleIn(90_000, () => undefined);
  clock.scheduleIn(30_000, () => undefined);
  clock.advance(1_500);
  expect(clock.describe()).toEqual({
    mode: 'manual',
    speed: 10,
    now: '2026-01-15T10:00:01.500Z',
    started_at: '2026-01-15T10:00:00.000Z',
    pending: 2,
    next_at: '2026-01-15T10:00:30.000Z',
  });
});

test('recognises exactly the three clock modes', () => {
  expect(['manual', 'instant', 'realtime', 'fast', 1].map(isClockMode)).toEqual([true, true, true, false, false]);
});
