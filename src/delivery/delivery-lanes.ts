import { performance } from 'node:perf_hooks';
import { afterRealTime } from '../clock';

/** Attempts in flight at once to one receiver (one endpoint, or one legacy URL). */
export const DEFAULT_LANE_CONCURRENCY = 16;

/**
 * How long, in real milliseconds, the instant clock waits for a receiver before
 * it treats the receiver as slow and lets simulated time go on without it
 * (docs/fidelity.md, "Slow receivers").
 */
export const DEFAULT_SLOW_RECEIVER_MS = 1_000;

/** Idle slow receivers remembered at most (legacy URLs can be many); the oldest are forgotten first. */
const MAX_IDLE_SLOW_LANES = 1_000;

/** The work of one receiver: how much is queued or running, and whether it is slow. */
class Lane {
  /** Records waiting in a queue of this receiver. */
  queued = 0;
  /** Attempts under way, from their start to their end (a slot is held only while sending). */
  attempts = 0;
  /** Attempts holding one of this receiver's slots. */
  running = 0;
  /** Attempts waiting for a slot. */
  readonly waiting: Array<() => void> = [];
  /** A slow receiver no longer holds the instant clock back, until it answers quickly again. */
  slow = false;

  get active(): boolean {
    return this.queued > 0 || this.attempts > 0;
  }
}

/**
 * One lane per receiver, so receivers are isolated from each other: each has
 * its own concurrency, and one that hangs holds up only its own deliveries.
 * Lanes belong to one generation of the delivery state; `POST /_mock/reset`
 * starts a new one and the old lanes are dropped with their waiters.
 */
export class DeliveryLanes {
  private readonly lanes = new Map<string, Lane>();
  private readonly settledWaiters: Array<() => void> = [];
  private readonly quietWaiters: Array<() => void> = [];

  constructor(private readonly options: { concurrency: number; slowReceiverMs: number }) {}

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = new Lane();
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** A record joined a queue of this receiver. */
  queued(key: string): void {
    this.lane(key).queued += 1;
  }

  /** A queued record left its queue (its attempt has begun, or it was dropped). */
  dequeued(key: string): void {
    this.lane(key).queued -= 1;
    this.changed(key);
  }

  /** An attempt begins: until {@link end}, the receiver has work. */
  begin(key: string): void {
    this.lane(key).attempts += 1;
  }

  /** An attempt ended. */
  end(key: string): void {
    this.lane(key).attempts -= 1;
    this.changed(key);
  }

  /** Waits for a slot of this receiver; resolves with the function that frees it. */
  async acquire(key: string): Promise<() => void> {
    const lane = this.lane(key);
    if (lane.running >= this.options.concurrency) await new Promise<void>((resolve) => lane.waiting.push(resolve));
    lane.running += 1;
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.running -= 1;
      // A receiver that answers within the bound is not slow (any more).
      if (performance.now() - started < this.options.slowReceiverMs) lane.slow = false;
      lane.waiting.shift()?.();
    };
  }

  /** Whether nothing is queued, waiting or running for any receiver. */
  isSettled(): boolean {
    for (const lane of this.lanes.values()) if (lane.active) return false;
    return true;
  }

  /** Resolves once nothing is queued, waiting or running; a waiter whose `signal` aborts is let go (and forgotten). */
  settled(signal?: AbortSignal): Promise<void> {
    if (this.isSettled() || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal?.removeEventListener('abort', done);
        const index = this.settledWaiters.indexOf(done);
        if (index >= 0) this.settledWaiters.splice(index, 1);
        resolve();
      };
      this.settledWaiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * For the instant clock: undefined when no receiver that is not slow has work,
   * else a promise that resolves when none has, or after `slowReceiverMs` real
   * milliseconds, when receivers still busy are marked slow. So a receiver that
   * hangs stalls simulated time once, for the bound, and never again while it
   * stays slow; the others go on at full speed.
   */
  quiet(): Promise<void> | undefined {
    if (this.isQuiet()) return undefined;
    return new Promise((resolve) => {
      const cancel = afterRealTime(this.options.slowReceiverMs, () => {
        for (const lane of this.lanes.values()) if (lane.active) lane.slow = true;
        const index = this.quietWaiters.indexOf(done);
        if (index >= 0) this.quietWaiters.splice(index, 1);
        resolve();
      });
      const done = () => {
        cancel();
        resolve();
      };
      this.quietWaiters.push(done);
    });
  }

  /** Lets every waiter go: the generation ends (`POST /_mock/reset`). */
  release(): void {
    for (const resolve of this.quietWaiters.splice(0)) resolve();
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  /** Attempts under way (sending or waiting for a slot) and records queued to start, over every receiver. */
  inFlight(): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.queued + lane.attempts;
    return count;
  }

  /** How many receivers are slow now (health). */
  slowCount(): number {
    let count = 0;
    for (const lane of this.lanes.values()) if (lane.slow && lane.active) count += 1;
    return count;
  }

  private isQuiet(): boolean {
    for (const lane of this.lanes.values()) if (lane.active && !lane.slow) return false;
    return true;
  }

  private changed(key: string): void {
    const lane = this.lanes.get(key);
    // An idle lane is forgotten, unless it is slow: slowness lasts until the receiver answers quickly again.
    if (lane && !lane.active && !lane.slow) this.lanes.delete(key);
    if (this.lanes.size > MAX_IDLE_SLOW_LANES) {
      for (const [other, candidate] of this.lanes) {
        if (this.lanes.size <= MAX_IDLE_SLOW_LANES) break;
        if (!candidate.active) this.lanes.delete(other);
      }
    }
    if (this.quietWaiters.length > 0 && this.isQuiet()) for (const resolve of this.quietWaiters.splice(0)) resolve();
    if (this.settledWaiters.length > 0 && this.isSettled()) for (const resolve of this.settledWaiters.splice(0)) resolve();
  }
}
