/**
 * The simulated clock: the only place in bvs-mock that decides when simulated time moves (docs/design.md
 * "One simulated clock", CONTRIBUTING.md rule 4). Everything else takes a {@link SimulatedClock} and reads
 * `now()` from it. Real time lives in `src/wall/`.
 */
export { SimulatedClock } from './simulated-clock';
export { createClock } from './create-clock';
export { TimerQueue } from './timer-queue';
export type { PendingTimer, QueuedTimer, TimerCallback, TimerHandle } from './timer-queue';
export { DEFAULT_CLOCK_START, START_TIME_FORMS, isClockMode, resolveStartTime } from './clock-options';
export type { ClockErrorContext, ClockErrorHandler, ClockMode, ClockOptions, StartTime, StartTimeOptions } from './clock-options';
export { StepLimitError, type Barrier, type StepLimitErrorOptions } from './clock-loop';
export { DEFAULT_MAX_RUN_WAIT_MS, MAX_RUN_WAIT_MS, runUntilSettled, type RunOutcome, type RunUntilSettledOptions } from './run-until-settled';
export type { ClockDescription } from '../schemas';
