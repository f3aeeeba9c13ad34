import { systemTime } from '../wall';

/**
 * How simulated time moves (docs/design.md "One simulated clock").
 *
 * - `manual`: only `advance`, `runNext` and `runAll` move time (the control API's lever).
 * - `instant`: everything scheduled plays as fast as the machine allows, in due order, jumping time
 *   forward to each timer's due time, while still yielding to I/O between batches.
 * - `realtime`: simulated time follows the wall clock times `speed` from the moment the mode was entered.
 */
export type ClockMode = 'manual' | 'instant' | 'realtime';

/** Every {@link ClockMode}, in the order the CLI and the control API list them. */
const CLOCK_MODES: readonly ClockMode[] = ['manual', 'instant', 'realtime'];

/**
 * Whether `value` names a {@link ClockMode}; for the edges (CLI flags, control API bodies) that
 * receive the mode as a string.
 */
export function isClockMode(value: unknown): value is ClockMode {
  return typeof value === 'string' && (CLOCK_MODES as readonly string[]).includes(value);
}

/**
 * Where an error reported to `onError` came from: a timer callback that threw (or rejected), or an
 * instant-mode run stopped by `maxSteps` (which has no caller to throw to).
 */
export type ClockErrorContext =
  | { readonly source: 'timer'; /** The failing timer's due time, epoch ms. */ readonly at: number }
  | { readonly source: 'step-limit'; /** Simulated time when the run stopped, epoch ms. */ readonly at: number };

/** Receives errors the clock isolates instead of throwing (see {@link ClockErrorContext}). */
export type ClockErrorHandler = (error: unknown, context: ClockErrorContext) => void;

/**
 * The default `onError`: log and carry on. A failing webhook or scenario step must not stop every
 * other timer, and nothing up the stack could handle the error anyway (the timer fired from the clock,
 * not from a caller).
 */
const logClockError: ClockErrorHandler = (error, context) => {
  const what = context.source === 'timer' ? 'a timer callback' : 'an instant-mode run';
  console.error(
    `bvs-mock: clock: ${what} failed at ${new Date(context.at).toISOString()}; the clock carries on. ` +
      'Pass onError to createClock() to collect these errors.',
    error,
  );
};

/** Hands `error` to `onError`; a hook that throws is logged, as it must not break the clock either. */
export function reportClockError(onError: ClockErrorHandler, error: unknown, context: ClockErrorContext): void {
  try {
    onError(error, context);
  } catch (hookError) {
    logClockError(hookError, context);
  }
}

/**
 * The fixed instant a clock starts at when nothing else is said: `createClock()` without `start`, and
 * bvs-mock given a seed but no start time, so two runs of the same seed and scenario produce
 * byte-identical timestamps (docs/design.md "One simulated clock", docs/fidelity.md row 73).
 */
export const DEFAULT_CLOCK_START = '2026-01-15T10:00:00.000Z';

/**
 * When bvs-mock's clock starts (`--start-time`, `BVS_MOCK_START_TIME`, `startTime` when embedding):
 * `now` (the wall clock at start, rounded down to the whole second), an ISO 8601 date and time with
 * `Z` or an offset (or a bare date, midnight UTC), epoch milliseconds or a Date.
 */
export type StartTime = 'now' | string | number | Date;

/** The forms a start time may take, for messages. */
export const START_TIME_FORMS =
  'now, or an ISO 8601 date and time with Z or an offset, like 2026-01-15T10:00:00Z (a bare date, like 2026-01-15, is midnight UTC)';

/** Start times end here, so 100 years of simulated time (docs/fidelity.md row 66) still fit four-digit years. */
const LATEST_START = Date.UTC(9899, 11, 31, 23, 59, 59, 999);

const ISO_START = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** Options of {@link resolveStartTime}. */
export interface StartTimeOptions {
  /** The start asked for; undefined: {@link DEFAULT_CLOCK_START} when `seeded`, else `now`. */
  readonly startTime?: StartTime;
  /** Whether a seed was given explicitly: a seeded run without a start time starts at the fixed instant. */
  readonly seeded: boolean;
  /** Wall clock, epoch ms, read once for `now`. Default `Date.now` (through {@link systemTime}). */
  readonly wallNow?: () => number;
}

/**
 * The instant bvs-mock's clock starts at, in epoch ms, read once at start so `reset()` returns to the
 * same instant (docs/fidelity.md rows 72 and 73). A client's tokens, timestamps and pre-signed URL
 * expiries are then near the wall clock it lives on, unless a seed asks for reproducible bytes.
 *
 * @throws RangeError naming the value and the accepted forms ({@link START_TIME_FORMS}).
 */
export function resolveStartTime({ startTime, seeded, wallNow = systemTime.wallNow }: StartTimeOptions): number {
  const chosen = startTime ?? (seeded ? DEFAULT_CLOCK_START : 'now');
  if (chosen === 'now') return Math.floor(wallNow() / 1000) * 1000;
  const ms = typeof chosen === 'number' ? chosen : chosen instanceof Date ? chosen.getTime() : parseIsoStart(chosen);
  if (!Number.isFinite(ms) || ms < 0 || ms > LATEST_START) {
    throw new RangeError(
      `bvs-mock: the start time (--start-time, BVS_MOCK_START_TIME) ${describeStart(chosen)} is not valid: use ${START_TIME_FORMS}, from 1970 to 9899`,
    );
  }
  return ms;
}

/** An ISO 8601 string as an instant; NaN unless it is one and names a real date (no 2026-02-30). */
function parseIsoStart(text: string): number {
  const match = ISO_START.exec(text.trim());
  if (!match) return NaN;
  const [, year, month, day, hour, minute, second] = match;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCFullYear() !== Number(year) || calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) return NaN;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59)) return NaN;
  return Date.parse(hour === undefined ? `${text.trim()}T00:00:00Z` : text.trim());
}

function describeStart(start: StartTime): string {
  if (start instanceof Date) return Number.isNaN(start.getTime()) ? 'Invalid Date' : start.toISOString();
  return JSON.stringify(start);
}

/** Default `maxSteps`: far above any real scenario, low enough to stop a runaway loop in seconds. */
const DEFAULT_MAX_STEPS = 1_000_000;

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
  const mode = checkMode(options.mode ?? 'manual');
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

/** Validates a mode; shared by the options and `setMode`. */
export function checkMode(mode: ClockMode): ClockMode {
  if (!isClockMode(mode)) throw new RangeError(`bvs-mock: clock: mode ${JSON.stringify(mode)} is not one of ${CLOCK_MODES.join(', ')}`);
  return mode;
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
