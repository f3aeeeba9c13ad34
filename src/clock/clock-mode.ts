/**
 * How simulated time moves (docs/design.md "One simulated clock").
 *
 * - `manual`: only `advance`, `runNext` and `runAll` move time (the control API's lever).
 * - `instant`: everything scheduled plays as fast as the machine allows, in due order, jumping time
 *   forward to each timer's due time, while still yielding to I/O between batches.
 * - `realtime`: simulated time follows the wall clock times `speed` from the moment the mode was entered.
 */
export type ClockMode = 'manual' | 'instant' | 'realtime';

/** Every {@link ClockMode}, in the order the CLI and the control API list them. */
export const CLOCK_MODES: readonly ClockMode[] = ['manual', 'instant', 'realtime'];

/**
 * Whether `value` names a {@link ClockMode}; for the edges (CLI flags, control API bodies) that
 * receive the mode as a string.
 */
export function isClockMode(value: unknown): value is ClockMode {
  return typeof value === 'string' && (CLOCK_MODES as readonly string[]).includes(value);
}
