/**
 * When a failed delivery is tried again (spec §6, §8: "up to 20, with exponential
 * backoff"; the intervals are bvs-mock's, docs/fidelity.md row 27): 15 s after
 * the first failure, doubling each time, capped at one hour. With the first
 * attempt that is 21 attempts over about 13 simulated hours.
 */
export const MAX_RETRIES = 20;
const FIRST_RETRY_DELAY_MS = 15_000;
const MAX_RETRY_DELAY_MS = 3_600_000;

/** The wait before retry number `retry` (1 to 20), in simulated milliseconds. */
export function retryDelayMs(retry: number): number {
  return Math.min(FIRST_RETRY_DELAY_MS * 2 ** (retry - 1), MAX_RETRY_DELAY_MS);
}
