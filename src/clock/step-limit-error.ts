/** Options of {@link StepLimitError}. */
export interface StepLimitErrorOptions {
  /** What was running: `advance()`, `runAll()` or `instant mode`. */
  readonly operation: string;
  /** The `maxSteps` that was reached. */
  readonly limit: number;
  /** Simulated time (epoch ms) when the run stopped. */
  readonly at: number;
}

/**
 * A run fired `maxSteps` timers and more were still due: almost always a timer that reschedules
 * itself forever (a retry loop without a cap, a periodic job in instant mode). Failing loudly beats
 * spinning a CPU until the test times out.
 */
export class StepLimitError extends Error {
  /** What was running when the limit was reached. */
  readonly operation: string;
  /** The limit that was reached. */
  readonly limit: number;
  /** Simulated time (epoch ms) when the run stopped. */
  readonly at: number;

  constructor(options: StepLimitErrorOptions) {
    super(
      `bvs-mock: clock: ${options.operation} fired ${options.limit} timers (maxSteps = ${options.limit}) ` +
        `and more are still due at ${new Date(options.at).toISOString()}; a timer probably reschedules ` +
        'itself forever. Cancel it, or raise the limit with createClock({ maxSteps }).',
    );
    this.name = 'StepLimitError';
    this.operation = options.operation;
    this.limit = options.limit;
    this.at = options.at;
  }
}
