import type { ClockOptions } from './clock-options';
import { SimulatedClock } from './simulated-clock';

/**
 * Creates a {@link SimulatedClock}; the entry point the engine, the server and tests use.
 *
 * @example
 * const clock = createClock({ mode: 'instant' });
 * clock.scheduleIn(3_600_000, finishRun);
 * await clock.idle(); // the hour played in milliseconds
 */
export function createClock(options: ClockOptions = {}): SimulatedClock {
  return new SimulatedClock(options);
}
