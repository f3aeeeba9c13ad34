import { untilAborted } from './clock-loop';
import type { SimulatedClock } from './simulated-clock';
import { afterRealTime } from '../wall';

/**
 * Real milliseconds `POST /_mock/clock/run` waits at most, unless the server (`--max-run-wait`) or
 * the call (`max_wait_seconds`) says otherwise (docs/fidelity.md row 98). A run with receivers that
 * answer ends in well under a second per hundred validations; one that hangs makes each attempt wait
 * its whole delivery timeout (10 s), 21 attempts a delivery, so an unbounded run took about 21
 * minutes. 30 s is far above a healthy run, below the request timeouts of common HTTP clients and
 * CI steps, and short enough that a test learns quickly what is still pending.
 */
export const DEFAULT_MAX_RUN_WAIT_MS = 30_000;

/**
 * The longest bound a server or a call may choose: a day. Beyond it a run is not a test step any
 * more, and the number is more likely a unit mistake (milliseconds given as seconds).
 */
export const MAX_RUN_WAIT_MS = 86_400_000;

/** Options of {@link runUntilSettled}. */
export interface RunUntilSettledOptions {
  /** The clock, its barrier set (`SimulatedClock.setBarrier`): each instant waits for it before time moves on. */
  clock: SimulatedClock;
  /**
   * Resolves once the work outside the clock has ended (every delivery attempt, nothing queued, slow
   * receivers too); `signal` aborts when nobody waits for it any more.
   */
  work: (signal: AbortSignal) => Promise<void>;
  /** Real milliseconds to wait at most; undefined: until the end, however long it takes. */
  maxWaitMs?: number;
}

/** How a run ended: `settled` is false when the real-time bound came first. */
export interface RunOutcome {
  settled: boolean;
}

/**
 * Plays everything: runs a manual clock with `runUntil` (or waits for an instant or realtime one, whose
 * own loop runs) and waits for the work outside it, until nothing is scheduled or in flight, or until
 * `maxWaitMs` real milliseconds have passed. At the bound it stops waiting and moving time: what is in
 * flight goes on, a manual clock stays at the instant reached, and a later run goes on from there.
 *
 * @example
 * const { settled } = await runUntilSettled({ clock, work: (signal) => deliveries.settled(signal), maxWaitMs: 30_000 });
 */
export async function runUntilSettled(options: RunUntilSettledOptions): Promise<RunOutcome> {
  const { clock, work, maxWaitMs } = options;
  const deadline = new AbortController();
  const cancel = maxWaitMs === undefined ? () => undefined : afterRealTime(maxWaitMs, () => deadline.abort());
  const { signal } = deadline;
  try {
    for (;;) {
      // The manual clock runs as the instant mode does, so retries keep their gaps (row 75).
      if (clock.mode === 'manual') await clock.runUntil(Infinity, { signal });
      else if (!(await untilAborted(clock.idle(), signal))) return { settled: false };
      if (signal.aborted) return { settled: false };
      if (!(await untilAborted(work(signal), signal))) return { settled: false };
      if (clock.pending === 0) return { settled: true };
      if (signal.aborted) return { settled: false };
    }
  } finally {
    cancel();
    // Frees whatever still listens (the work's waiter), the bound or not.
    deadline.abort();
  }
}
