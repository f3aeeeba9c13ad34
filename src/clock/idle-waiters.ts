/**
 * The promises handed out by `clock.idle()` that have not settled yet. Settling swaps the list out
 * first, so a waiter that calls `idle()` again from its continuation joins the next round.
 */
export class IdleWaiters {
  private waiters: Array<{ resolve(): void; reject(error: Error): void }> = [];

  /** Number of unsettled promises. */
  get size(): number {
    return this.waiters.length;
  }

  /** A promise settled by the next `resolveAll` or `rejectAll`. */
  wait(): Promise<void> {
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Resolves every waiting promise. */
  resolveAll(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.resolve();
  }

  /** Rejects every waiting promise with `error`. */
  rejectAll(error: Error): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(error);
  }
}
