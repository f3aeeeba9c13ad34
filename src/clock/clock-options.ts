import { logClockError, type ClockErrorHandler } from './clock-error-handler';
import { isClockMode, type ClockMode, CLOCK_MODES } from './clock-mode';
import { systemTime } from './system-time';

/**
 * Where every clock starts unless told otherwise: a fixed instant, so two runs of the same scenario
 * produce byte-identical timestamps (docs/design.md "One simulated clock"). Not "now", on purpose.
 */
export const DEFAULT_CLOCK_START = '2026-01-15T10:00:00.000Z';

/** Default `maxSteps`: far above any real scenario, low enough to stop a runaway loop in seconds. */
export const DEFAULT_MAX_STEPS = 1_000_000;

/** Options of `createClock`. Every field is optional. */
export interface ClockOptions {
  /** Start time (epoch ms, Date or ISO 8601 string); `reset()` returns here. Default {@link DEFAULT_CLOCK_START}. */
  readonly start?: number | Date | string;
  /** Initial mode. Default `manual`: nothing moves unless a test or the control API says so. */
  readonly mode?: ClockMode;
  /** Realtime speed factor, > 0 (1 = wall clock, 10 = ten times faster). Default 1. */
  readonly speed?: number;
  /** Most timers one `advance`, `runAll` or instant-mode run may fire before failing. Default 1,000,000. */
  readonly maxSteps?: number;
  /** Receives errors thrown by timer callbacks. Default: log with console.error and carry on. */
  readonly onError?: ClockErrorHandler;
  /** Wall clock for realtime mode, epoch ms. Default `Date.now`; inject a fake one in tests. */
  readonly wallNow?: () => number;
}

/** {@link ClockOptions} with defaults applied and every value checked. */
export interface ResolvedClockOptions {
  readonly start: number;
  readonly mode: ClockMode;
  readonly speed: number;
  readonly maxSteps: number;
  readonly onError: ClockErrorHandler;
  readonly wallNow: () => number;
}

/**
 * Applies defaults and validates, failing at construction rather than at the first timer
 * (stripe-mock style: fail at start).
 */
export function resolveClockOptions(options: ClockOptions = {}): ResolvedClockOptions {
  const mode = options.mode ?? 'manual';
  if (!isClockMode(mode)) {
    throw new RangeError(`bvs-mock: clock: mode ${JSON.stringify(mode)} is not one of ${CLOCK_MODES.join(', ')}`);
  }
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) {
    throw new RangeError(`bvs-mock: clock: maxSteps must be a positive integer, got ${String(maxSteps)}`);
  }
  return {
    start: parseStart(options.start ?? DEFAULT_CLOCK_START),
    mode,
    speed: checkSpeed(options.speed ?? 1),
    maxSteps,
    onError: options.onError ?? logClockError,
    wallNow: options.wallNow ?? systemTime.wallNow,
  };
}

/** Validates a realtime speed factor; shared by the options and `setMode`. */
export function checkSpeed(speed: number): number {
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0) {
    throw new RangeError(`bvs-mock: clock: speed must be a finite number > 0 (1 = wall clock, 10 = ten times faster), got ${String(speed)}`);
  }
  return speed;
}

function parseStart(start: number | Date | string): number {
  const ms = typeof start === 'number' ? start : typeof start === 'string' ? Date.parse(start) : start.getTime();
  // The Date range check matters: iso() must always be able to format the clock's time.
  if (!Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime())) {
    throw new RangeError(
      `bvs-mock: clock: start ${JSON.stringify(String(start))} is not a valid time; ` +
        'use epoch milliseconds or an ISO 8601 string such as 2026-01-15T10:00:00.000Z',
    );
  }
  return ms;
}
