/**
 * The simulated clock: the only place in bvs-mock that touches real time (docs/design.md "One simulated
 * clock", CONTRIBUTING.md rule 4). Everything else takes a {@link SimulatedClock} and reads `now()` from it.
 */
export { SimulatedClock, createClock } from './simulated-clock';
export { TimerQueue } from './timer-queue';
export type { QueuedTimer } from './timer-queue';
export { CLOCK_MODES, isClockMode } from './clock-mode';
export type { ClockMode } from './clock-mode';
export { DEFAULT_CLOCK_START, DEFAULT_MAX_STEPS, START_TIME_FORMS, resolveStartTime } from './clock-options';
export type { ClockOptions, StartTime, StartTimeOptions } from './clock-options';
export { logClockError } from './clock-error-handler';
export type { ClockErrorContext, ClockErrorHandler } from './clock-error-handler';
export { StepLimitError } from './step-limit-error';
export { advanceSettled, runSettled, untilAborted, type InstantBarrier } from './settled-levers';
export { DEFAULT_MAX_RUN_WAIT_MS, MAX_RUN_WAIT_MS, runUntilSettled, type RunOutcome, type RunUntilSettledOptions } from './run-until-settled';
export type { StepLimitErrorOptions } from './step-limit-error';
export { systemTime } from './system-time';
export type { SystemTime } from './system-time';
export type { TimerCallback, TimerHandle } from './timer-handle';
export type { ClockDescription } from './clock-description';
export { afterRealTime, realDelay } from './real-delay';
