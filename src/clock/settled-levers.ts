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
  fired += clock.advance(Math.max(0, end - clock.now()));
  return fired;
}

/**
 * Runs a manual clock until nothing is scheduled, instant by instant, waiting at each for `barrier`
 * (see {@link advanceSettled}). Returns how many timers fired; a reset while it waits ends it there.
 */
export async function runSettled(clock: SimulatedClock, barrier: InstantBarrier): Promise<number> {
  let fired = 0;
  for (let next = clock.nextAt(); next !== null; next = clock.nextAt()) {
    const ok = await step(clock, next, barrier);
    if (ok === null) return fired;
    fired += ok;
    if (fired > DEFAULT_MAX_STEPS) throw new StepLimitError({ operation: 'clock run', limit: DEFAULT_MAX_STEPS, at: clock.now() });
  }
  return fired;
}

/** Fires the timers due at `at`, then waits for the barrier; null when the clock was reset meanwhile (time went back). */
async function step(clock: SimulatedClock, at: number, barrier: InstantBarrier): Promise<number | null> {
  const fired = clock.advance(Math.max(0, at - clock.now()));
  const reached = clock.now();
  const outstanding = barrier();
  if (outstanding) await outstanding;
  return clock.now() < reached ? null : fired;
}
