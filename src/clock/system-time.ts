import { realDelay } from './real-delay';

/**
 * The one injection point for the machine's wall clock (`createMock`'s `wallClock`).
 *
 * Only `realtime` mode (to turn elapsed wall time into simulated time), a start time of `now` (read
 * once, docs/fidelity.md row 72), wall-clock access tokens, the real times the client observer grades
 * and injected API latency use it. Tests inject a fake one to drive these without sleeping; everything
 * else in bvs-mock reads time from the simulated clock, never from here (CONTRIBUTING.md rule 4).
 */
export interface SystemTime {
  /** Wall-clock time in epoch milliseconds. */
  readonly wallNow: () => number;
  /** Waits real milliseconds (an `api_latency` fault: latency is felt by a real client). */
  readonly delay: (ms: number) => Promise<void>;
}

/** The real wall clock: `Date.now` and real timers. */
export const systemTime: SystemTime = { wallNow: () => Date.now(), delay: realDelay };
