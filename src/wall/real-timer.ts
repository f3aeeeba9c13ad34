/** Node's setTimeout fires after 1 ms past 2^31 - 1 ms; longer waits wake early and re-arm. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * The one real timer a clock holds at any moment: a setImmediate (run as soon as I/O has had its
 * turn) or an unref'd setTimeout. Kept in one place so the clock can never leak a second one, and
 * `release()` always leaves nothing behind for jest's open-handle check.
 */
export class RealTimer {
  private immediate: NodeJS.Immediate | undefined;
  private timeout: NodeJS.Timeout | undefined;

  /** Whether a setImmediate is armed. */
  get armedForNextTurn(): boolean {
    return this.immediate !== undefined;
  }

  /**
   * Runs `callback` on the next turn of the event loop, after pending I/O. Keeps an already armed
   * turn instead of queueing a second one. Left ref'd on purpose: it stands for finite work in
   * progress, and an unref'd immediate would let `await clock.idle()` in a script exit half way.
   */
  armNextTurn(callback: () => void): void {
    if (this.timeout !== undefined) clearTimeout(this.timeout);
    this.timeout = undefined;
    this.immediate ??= setImmediate(() => {
      this.immediate = undefined;
      callback();
    });
  }

  /**
   * Runs `callback` after `ms` real milliseconds, replacing whatever was armed. Unref'd: a far-future
   * timer must not hold a process open; the HTTP server is what keeps bvs-mock alive.
   */
  armAfter(ms: number, callback: () => void): void {
    this.release();
    this.timeout = setTimeout(
      () => {
        this.timeout = undefined;
        callback();
      },
      Math.min(ms, MAX_TIMEOUT_MS),
    ).unref();
  }

  /** Cancels whatever is armed. */
  release(): void {
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    if (this.timeout !== undefined) clearTimeout(this.timeout);
    this.immediate = undefined;
    this.timeout = undefined;
  }
}
