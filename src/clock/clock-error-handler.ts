/**
 * Where an error reported to `onError` came from: a timer callback that threw (or rejected), or an
 * instant-mode run stopped by `maxSteps` (which has no caller to throw to).
 */
export type ClockErrorContext =
  | { readonly source: 'timer'; /** The failing timer's due time, epoch ms. */ readonly at: number }
  | { readonly source: 'step-limit'; /** Simulated time when the run stopped, epoch ms. */ readonly at: number };

/** Receives errors the clock isolates instead of throwing (see {@link ClockErrorContext}). */
export type ClockErrorHandler = (error: unknown, context: ClockErrorContext) => void;

/**
 * The default `onError`: log and carry on. A failing webhook or scenario step must not stop every
 * other timer, and nothing up the stack could handle the error anyway (the timer fired from the clock,
 * not from a caller).
 */
export const logClockError: ClockErrorHandler = (error, context) => {
  const what = context.source === 'timer' ? 'a timer callback' : 'an instant-mode run';
  console.error(
    `bvs-mock: clock: ${what} failed at ${new Date(context.at).toISOString()}; the clock carries on. ` +
      'Pass onError to createClock() to collect these errors.',
    error,
  );
};
