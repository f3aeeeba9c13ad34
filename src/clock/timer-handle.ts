/**
 * What a timer runs. It may return a promise: a rejection is reported to the clock's `onError`
 * like a synchronous throw, but the clock does not wait for it (simulated time does not stall on I/O).
 */
export type TimerCallback = () => unknown;

/**
 * A scheduled timer, as returned by `clock.schedule` and `clock.scheduleIn`.
 *
 * @example
 * const handle = clock.scheduleIn(60_000, expireToken);
 * handle.cancel(); // true: it had not fired yet
 */
export interface TimerHandle {
  /** Due time in epoch milliseconds (after clamping a past time to the clock's `now()`). */
  readonly at: number;
  /** True until the timer fires, is cancelled, or the clock is reset. */
  readonly pending: boolean;
  /** Stops the timer from firing; returns false when it had already fired or been cancelled. */
  cancel(): boolean;
}
