import { performance } from 'node:perf_hooks';
import { afterRealTime } from '../wall';

/** Attempts in flight at once to one receiver (one endpoint, or one legacy URL). */
export const DEFAULT_LANE_CONCURRENCY = 16;

/**
 * How long, in real milliseconds, the instant clock waits for a receiver before
 * it treats the receiver as slow and lets simulated time go on without it
 * (docs/fidelity.md row 60).
 */
export const DEFAULT_SLOW_RECEIVER_MS = 1_000;

/**
 * Attempts in a row without an answer within the delivery timeout after which a receiver is
 * suspended (docs/fidelity.md row 100). One timeout is a hiccup (a pause, a deploy); five in a row,
 * each having waited the whole delivery timeout (10 s by default) with no answer between them, is a
 * receiver that hangs. svix disables an endpoint that keeps failing; bvs-mock keeps the spec's
 * retries (§8) and sends nothing while suspended but a probe now and then, to see whether it answers again.
 */
export const DEFAULT_SUSPEND_AFTER_TIMEOUTS = 5;

/** What a receiver's state lets an attempt do: go as usual, go as the one probe of a suspended receiver, or fail at once. */
export type Admission = 'send' | 'probe' | 'suspended';

/** What an attempt that was admitted got: a timeout, anything else (an answer, a refusal, a reset), or nothing sent. */
export type AttemptOutcome = 'timeout' | 'other' | 'not_sent';

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
  /** Attempts in a row that got no answer within the delivery timeout. */
  timeouts = 0;
  /** Suspended: a probe still goes now and then (see `admit`), the others fail at once, until one is answered. */
  suspended = false;
  /** Whether the probe of a suspended receiver is under way. */
  probing = false;
  /** When (`performance.now()`) the last probe ended, or the suspension began. */
  probedAt = 0;
  /** When (`performance.now()`) each attempt holding a slot began sending: how long the receiver itself takes to answer. */
  readonly sending: number[] = [];

  get active(): boolean {
    return this.queued > 0 || this.attempts > 0;
  }

  /** Whether the lane must be remembered while idle: it is slow, suspended, or counting timeouts. */
  get marked(): boolean {
    return this.slow || this.suspended || this.timeouts > 0;
  }
}

/** Options of {@link DeliveryLanes}. */
export interface DeliveryLanesOptions {
  /** Attempts in flight at once to one receiver. */
  concurrency: number;
  /** Real milliseconds after which the instant clock stops waiting for a busy receiver. */
  slowReceiverMs: number;
  /** Timeouts in a row after which a receiver is suspended; default {@link DEFAULT_SUSPEND_AFTER_TIMEOUTS}. */
  suspendAfterTimeouts?: number;
  /** Real milliseconds between the end of a suspended receiver's probe and the next (the delivery timeout). */
  probeIntervalMs: number;
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

  constructor(private readonly options: DeliveryLanesOptions) {}

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

  /**
   * Waits for a slot of this receiver; resolves with the function that frees it, told whether the
   * receiver answered (an attempt not sent, or one that timed out, says nothing of its speed).
   */
  async acquire(key: string): Promise<(answered: boolean) => void> {
    const lane = this.lane(key);
    if (lane.running >= this.options.concurrency) await new Promise<void>((resolve) => lane.waiting.push(resolve));
    lane.running += 1;
    const started = performance.now();
    lane.sending.push(started);
    let released = false;
    return (answered) => {
      if (released) return;
      released = true;
      lane.running -= 1;
      lane.sending.splice(lane.sending.indexOf(started), 1);
      // A receiver that answers within the bound is not slow (any more).
      if (answered && performance.now() - started < this.options.slowReceiverMs) lane.slow = false;
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
   * For the instant clock: undefined when no receiver that is not slow has work, else a promise that resolves
   * when none has. A receiver is slow when an attempt of its own has waited `slowReceiverMs` real milliseconds
   * for its answer: it is marked so, and simulated time goes on without it. Time queued behind its other
   * deliveries does not count (five events at one instant to a receiver answering in 200 ms
   * kept it busy over a second, and it was called slow). So a receiver that hangs stalls simulated time once, for
   * the bound, and never again while it stays slow; one that answers each delivery in time is waited for.
   */
  quiet(): Promise<void> | undefined {
    if (this.isQuiet()) return undefined;
    return new Promise((resolve) => {
      let cancel: () => void = () => undefined;
      const done = () => {
        cancel();
        resolve();
      };
      const check = () => {
        const now = performance.now();
        let wait = this.options.slowReceiverMs;
        for (const lane of this.lanes.values()) {
          if (!lane.active || lane.slow || lane.suspended || lane.sending.length === 0) continue;
          const waited = now - Math.min(...lane.sending);
          if (waited >= this.options.slowReceiverMs) lane.slow = true;
          else wait = Math.min(wait, this.options.slowReceiverMs - waited);
        }
        if (this.isQuiet()) {
          const index = this.quietWaiters.indexOf(done);
          if (index >= 0) this.quietWaiters.splice(index, 1);
          resolve();
          return;
        }
        cancel = afterRealTime(Math.max(1, Math.ceil(wait)), check);
      };
      this.quietWaiters.push(done);
      check();
    });
  }

  /** Lets every waiter go: the generation ends (`POST /_mock/reset`). */
  release(): void {
    for (const resolve of this.quietWaiters.splice(0)) resolve();
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  /**
   * Whether an attempt that holds a slot may reach the receiver (docs/fidelity.md row 100): always,
   * unless the receiver is suspended; then one goes as its probe, once `probeIntervalMs` have passed
   * since the last probe ended, and the others fail at once. So a suspended receiver gets at most one
   * attempt per two delivery timeouts, however many deliveries retry meanwhile (a lone delivery
   * included, whose every retry would otherwise wait the whole timeout). Every admission is followed
   * by one {@link observe}.
   */
  admit(key: string): Admission {
    const lane = this.lane(key);
    if (!lane.suspended) return 'send';
    if (lane.probing || performance.now() - lane.probedAt < this.options.probeIntervalMs) return 'suspended';
    lane.probing = true;
    return 'probe';
  }

  /**
   * What an admitted attempt got: a timeout counts toward suspension; any other outcome (an answer,
   * even a 500, or a quick refusal) ends the count and the suspension, as the receiver is back.
   */
  observe(key: string, admission: Admission, outcome: AttemptOutcome): void {
    const lane = this.lanes.get(key);
    if (!lane) return;
    if (admission === 'probe') {
      lane.probing = false;
      lane.probedAt = performance.now();
    }
    if (outcome === 'timeout') {
      lane.timeouts += 1;
      if (!lane.suspended && lane.timeouts >= (this.options.suspendAfterTimeouts ?? DEFAULT_SUSPEND_AFTER_TIMEOUTS)) {
        lane.suspended = true;
        lane.probedAt = performance.now();
      }
    } else if (outcome === 'other') {
      lane.timeouts = 0;
      lane.suspended = false;
    }
  }

  /** How many receivers are suspended now (health). */
  suspendedCount(): number {
    let count = 0;
    for (const lane of this.lanes.values()) if (lane.suspended) count += 1;
    return count;
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

  /** Whether no receiver the instant clock waits for has work: slow and suspended ones are not waited for. */
  private isQuiet(): boolean {
    for (const lane of this.lanes.values()) if (lane.active && !lane.slow && !lane.suspended) return false;
    return true;
  }

  private changed(key: string): void {
    const lane = this.lanes.get(key);
    // An idle lane is forgotten, unless it is marked: slowness and suspension last until the receiver answers again.
    if (lane && !lane.active && !lane.marked) this.lanes.delete(key);
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
