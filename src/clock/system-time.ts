/**
 * The one injection point for the machine's wall clock.
 *
 * Only `realtime` mode (to turn elapsed wall time into simulated time) and a start time of `now` (read
 * once, docs/fidelity.md row 72) read it. Tests inject a fake
 * `wallNow` to drive realtime mode without sleeping; everything else in bvs-mock reads time from the
 * simulated clock, never from here (CONTRIBUTING.md rule 4).
 */
export interface SystemTime {
  /** Wall-clock time in epoch milliseconds. */
  readonly wallNow: () => number;
}

/** The real wall clock: `Date.now`. */
export const systemTime: SystemTime = { wallNow: () => Date.now() };
