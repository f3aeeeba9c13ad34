import { setTimeout as wait } from 'node:timers/promises';

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
export const systemTime: SystemTime = { wallNow: () => Date.now(), delay: (ms) => realDelay(ms) };

/**
 * Waits real milliseconds. For the few things that are about the wall clock,
 * not the simulated one: injected API latency is felt by a real client.
 */
export function realDelay(ms: number): Promise<void> {
  return wait(ms, undefined, { ref: false });
}

/**
 * Calls `callback` after `ms` real milliseconds unless the returned function is
 * called first. Unref'd, so it never holds a process open. For bounds on real
 * waits outside the simulation (how long the instant clock waits for a slow receiver).
 */
export function afterRealTime(ms: number, callback: () => void): () => void {
  const timer = setTimeout(callback, ms).unref();
  return () => clearTimeout(timer);
}
