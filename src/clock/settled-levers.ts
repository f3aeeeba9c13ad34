import { DEFAULT_MAX_STEPS } from './clock-options';
import type { SimulatedClock } from './simulated-clock';
import { StepLimitError } from './step-limit-error';

/** Work outside the clock that must end before time moves past an instant (deliveries in flight), or undefined when none. */
export type InstantBarrier = () => Promise<void> | undefined;

/**
 * Moves a manual clock forward by `ms` as the instant mode moves: instant by instant, waiting after
 * each for what `barrier` names (the deliveries its timers started, within the bound for slow
 * receivers) before time passes it. So a retry is scheduled from its attempt's start and fires at its
 * exact due time, however the clock is moved: one long advance, many short ones, or a run to the end
 * (docs/fidelity.md row 75). Returns how many timers fired. A reset while it waits ends it there.
 *
 * @example
 * await advanceSettled(clock, 400_000, () => deliveries.instantBarrier());
 */
export async function advanceSettled(clock: SimulatedClock, ms: number, barrier: InstantBarrier): Promise<number> {
  const end = clock.now() + ms;
  let fired = 0;
  for (let next = clock.nextAt(); next !== null && next <= end; next = clock.nextAt()) {
    const ok = await step(clock, next, barrier);
    if (ok === null) return fired;
    fired += ok;
    if (fired > DEFAULT_MAX_STEPS) throw new StepLimitError({ operation: 'advance', limit: DEFAULT_MAX_STEPS, at: clock.now() });
  }
  if (end > clock.now()) {
    const reached = clock.now();
    await atBarrier(barrier);
    if (clock.now() < reached) return fired;
    fired += clock.advance(Math.max(0, end - clock.now()));
  }
  return fired;
}

/**
 * Runs a manual clock until nothing is scheduled, instant by instant, waiting at each for `barrier`
 * (see {@link advanceSettled}). Returns how many timers fired; a reset while it waits ends it there,
 * and so does `signal` (the real-time bound of `POST /_mock/clock/run`, docs/fidelity.md row 98):
 * time stays at the instant reached, and a later run goes on from there.
 */
export async function runSettled(clock: SimulatedClock, barrier: InstantBarrier, signal?: AbortSignal): Promise<number> {
  let fired = 0;
  for (let next = clock.nextAt(); next !== null && signal?.aborted !== true; next = clock.nextAt()) {
    const ok = await step(clock, next, barrier, signal);
    if (ok === null) return fired;
    fired += ok;
    if (fired > DEFAULT_MAX_STEPS) throw new StepLimitError({ operation: 'clock run', limit: DEFAULT_MAX_STEPS, at: clock.now() });
  }
  return fired;
}

/**
 * Fires the timers due at `at`, then waits for the barrier (or for `signal`); null when the clock
 * was reset meanwhile (time went back).
 */
async function step(clock: SimulatedClock, at: number, barrier: InstantBarrier, signal?: AbortSignal): Promise<number | null> {
  // What the present already queued (an action's deliveries) goes out at the present, before time moves.
  if (at > clock.now()) {
    const present = clock.now();
    await atBarrier(barrier, signal);
    if (clock.now() < present) return null;
    if (signal?.aborted === true) return 0;
  }
  const fired = clock.advance(Math.max(0, at - clock.now()));
  const reached = clock.now();
  const outstanding = barrier();
  if (outstanding) await (signal === undefined ? outstanding : untilAborted(outstanding, signal));
  return clock.now() < reached ? null : fired;
}

async function atBarrier(barrier: InstantBarrier, signal?: AbortSignal): Promise<void> {
  const outstanding = barrier();
  if (outstanding) await (signal === undefined ? outstanding : untilAborted(outstanding, signal));
}

/**
 * Resolves true when `work` resolves, false as soon as `signal` aborts (the work goes on, nobody waits
 * for it any more); rejects when `work` rejects first. A rejection after the abort is still handled.
 */
export function untilAborted(work: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(false);
  }
  return new Promise((resolve, reject) => {
    const aborted = () => resolve(false);
    signal.addEventListener('abort', aborted, { once: true });
    work.then(
      () => {
        signal.removeEventListener('abort', aborted);
        resolve(true);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error as Error);
      },
    );
  });
}
