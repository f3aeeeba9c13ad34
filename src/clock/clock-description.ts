import type { ClockMode } from './clock-mode';

/**
 * The clock as the control API shows it (`GET /_mock/clock`); snake_case like every API body.
 */
export interface ClockDescription {
  /** Current mode. */
  readonly mode: ClockMode;
  /** Realtime speed factor (kept while in other modes, so switching back resumes at that speed). */
  readonly speed: number;
  /** Current simulated time, ISO 8601 UTC with milliseconds. */
  readonly now: string;
  /** The start time the clock returns to on `reset()`. */
  readonly started_at: string;
  /** Number of timers not yet fired. */
  readonly pending: number;
  /** Due time of the next timer, or null when nothing is scheduled. */
  readonly next_at: string | null;
}
