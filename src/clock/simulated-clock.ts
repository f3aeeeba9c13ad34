import type { ClockDescription } from './clock-description';
import { logClockError, type ClockErrorContext } from './clock-error-handler';
import { isClockMode, CLOCK_MODES, type ClockMode } from './clock-mode';
import { checkSpeed, resolveClockOptions, type ClockOptions, type ResolvedClockOptions } from './clock-options';
import { IdleWaiters } from './idle-waiters';
import { AutoDriver } from './auto-driver';
import { StepLimitError } from './step-limit-error';
import type { TimerCallback, TimerHandle } from './timer-handle';
import { TimerQueue, type QueuedTimer } from './timer-queue';

/**
 * The one simulated clock: every time-based behaviour of bvs-mock (run durations, retries and
 * backoff, token and URL expiry, timestamps) reads `now()` and schedules on it
 * (docs/design.md "One simulated clock"). Timers fire in order of due time, then of scheduling, in every
 * mode, so the same scenario and requests always give the same events in the same order.
 *
 * Invariant the whole class leans on: no pending timer is due before `now()` (schedule clamps a past
 * time to now), so firing a timer only ever moves time forward.
 *
 * @example
 * const clock = createClock({ mode: 'manual' });
 * clock.scheduleIn(1_000, () => console.log(clock.iso())); // 2026-01-15T10:00:01.000Z
 * clock.advance(5_000);
 * clock.iso(); // 2026-01-15T10:00:05.000Z
 */
export class SimulatedClock {
  /** Start time in epoch ms; `reset()` returns here. */
  readonly startedAt: number;
  private readonly options: ResolvedClockOptions;
  private readonly queue = new TimerQueue<TimerCallback>();
  private currentMode: ClockMode;
  private currentSpeed: number;
  /** Simulated time; in realtime mode the last value observed (now() never reports less). */
  private current: number;
  /** Realtime: simulated time `anchorSim` corresponds to wall time `anchorWall`. */
  private anchorSim: number;
  private anchorWall: number;
  private firing = false;
  /** Drives the automatic modes (auto-driver.ts). */
  private readonly driver: AutoDriver;
  /**
   * How many hold() calls are running, async ones until they settle: while any is, realtime now() does
   * not move and the automatic modes fire no timer, so a request sees one instant across its awaits.
   */
  private holding = 0;
  private readonly idleWaiters = new IdleWaiters();
  private firedCount = 0;
  /** The last instant {@link iso} formatted, and its text. */
  private isoAt = Number.NaN;
  private isoText = '';

  constructor(options: ClockOptions = {}) {
    this.options = resolveClockOptions(options);
    this.startedAt = this.options.start;
    this.currentMode = this.options.mode;
    this.currentSpeed = this.options.speed;
    this.current = this.startedAt;
    this.anchorSim = this.startedAt;
    this.anchorWall = this.options.wallNow();
    this.driver = new AutoDriver({
      mode: () => this.currentMode,
      speed: () => this.currentSpeed,
      current: () => this.current,
      held: () => this.holding > 0,
      maxSteps: this.options.maxSteps,
      nextDue: () => this.queue.peek()?.at,
      wallTarget: () => this.wallTarget(),
      fireNext: () => this.fireNext(),
      settleIdle: () => this.settleIdle(),
      halted: (error) => this.idleWaiters.rejectAll(error),
      report: (error, context) => this.report(error, context),
    });
  }

  /** Current mode. */
  get mode(): ClockMode {
    return this.currentMode;
  }

  /** Realtime speed factor. */
  get speed(): number {
    return this.currentSpeed;
  }

  /** Number of timers fired since the clock was made (never reset): any of them may have changed state. */
  get fired(): number {
    return this.firedCount;
  }

  /** Number of timers not yet fired. */
  get pending(): number {
    return this.queue.size;
  }

  /** Current simulated time in epoch ms; inside a timer callback, that timer's due time. */
  now(): number {
    if (this.currentMode === 'realtime' && !this.firing && this.holding === 0) {
      // Hold at an unfired due time until its timer runs (real timers are late by a few ms), so
      // nobody observes a time past a timer that then fires with an earlier now().
      const reached = Math.min(this.wallTarget(), this.queue.peek()?.at ?? Infinity);
      if (reached > this.current) this.current = reached;
    }
    return this.current;
  }

  /**
   * Runs `action` with time standing still: every now() inside it reads the same instant, and when
   * `action` returns a promise, until that promise settles (the automatic modes fire no timer
   * meanwhile; they go on when the last hold ends). Timer callbacks already see one instant; this is
   * for actions that come from outside (an API request), which in realtime mode at a high speed would
   * otherwise see time move between two reads (one real ms is `speed` simulated ms). The explicit
   * levers (advance, runAll) still move time inside a hold. Never await, inside a hold, something
   * only the automatic modes can bring about (idle(), a timer): it would wait for ever.
   */
  hold<T>(action: () => T): T {
    this.now();
    this.holding += 1;
    let result: T;
    try {
      result = action();
    } catch (error) {
      this.release();
      throw error;
    }
    if (isThenable(result)) {
      result.then(
        () => this.release(),
        () => this.release(),
      );
      return result;
    }
    this.release();
    return result;
  }

  private release(): void {
    this.holding -= 1;
    if (this.holding === 0 && this.queue.size > 0 && this.currentMode !== 'manual' && !this.firing) this.driver.drive();
  }

  /** {@link now} as a Date. */
  nowDate(): Date {
    return new Date(this.now());
  }

  /** {@link now} as ISO 8601 UTC with milliseconds, e.g. `2026-01-15T10:00:00.000Z`. */
  iso(): string {
    const now = this.now();
    // Many reads share one instant (every record of a timer, every request of a millisecond): format it once.
    if (now !== this.isoAt) {
      this.isoAt = now;
      this.isoText = new Date(now).toISOString();
    }
    return this.isoText;
  }

  /** Due time of the next timer in epoch ms, or null when nothing is scheduled. */
  nextAt(): number | null {
    return this.queue.peek()?.at ?? null;
  }

  /**
   * Runs `callback` at simulated time `at` (epoch ms or Date). A time in the past runs as soon as
   * possible, at `now()`: time never goes backwards. A callback scheduled for the current time from
   * inside another callback runs after everything already due at that time.
   */
  schedule(at: number | Date, callback: TimerCallback): TimerHandle {
    const ms = at instanceof Date ? at.getTime() : at;
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      throw new RangeError(`bvs-mock: clock: schedule(at) needs a finite time in epoch milliseconds, got ${String(at)}`);
    }
    const entry = this.queue.push(Math.max(ms, this.now()), callback);
    const isHead = this.queue.peek() === entry;
    // Inside a callback the running loop drives afterwards; otherwise wake the automatic modes.
    if (!this.firing && (isHead || (this.currentMode === 'instant' && !this.driver.armedForNextTurn))) this.driver.drive();
    return this.handleFor(entry);
  }

  /** Runs `callback` `ms` milliseconds of simulated time from now; a negative delay means now. */
  scheduleIn(ms: number, callback: TimerCallback): TimerHandle {
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      throw new RangeError(`bvs-mock: clock: scheduleIn(ms) needs a finite number of milliseconds, got ${String(ms)}`);
    }
    return this.schedule(this.now() + ms, callback);
  }

  /**
   * Moves time forward by `ms`, firing every timer due up to then in order (`now()` equals each
   * timer's due time while it runs), and ends at exactly now + ms. In realtime mode `ms` counts from
   * where the wall clock has got to, so `advance(0)` fires what a (fake) wall clock has reached.
   * Returns the number of timers fired; throws {@link StepLimitError} past `maxSteps`.
   */
  advance(ms: number): number {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
      throw new RangeError(
        `bvs-mock: clock: advance(ms) needs a finite number of milliseconds >= 0, got ${String(ms)}; ` +
          'time only moves forward (use reset() to go back to the start)',
      );
    }
    this.assertNotFiring('advance()');
    const from = this.currentMode === 'realtime' ? Math.max(this.now(), this.wallTarget()) : this.current;
    const target = from + ms;
    try {
      const fired = this.fireUpTo('advance()', target);
      this.current = target;
      return fired;
    } finally {
      this.afterLever();
    }
  }

  /**
   * Fires timers until nothing is scheduled, including timers they schedule; returns how many fired.
   * Throws {@link StepLimitError} after `maxSteps` timers (a timer rescheduling itself forever).
   */
  runAll(): number {
    this.assertNotFiring('runAll()');
    try {
      return this.fireUpTo('runAll()', Infinity);
    } finally {
      this.afterLever();
    }
  }

  /** Fires the next timer, moving time to its due time; returns false when nothing is scheduled. */
  runNext(): boolean {
    this.assertNotFiring('runNext()');
    if (this.queue.size === 0) return false;
    try {
      this.fireNext();
      return true;
    } finally {
      this.afterLever();
    }
  }

  /**
   * Resolves once nothing is scheduled (at once when nothing is). Rejects when an instant-mode run
   * hits `maxSteps` or the clock is stopped with timers pending.
   */
  idle(): Promise<void> {
    if (this.queue.size === 0) return Promise.resolve();
    return this.idleWaiters.wait();
  }

  /**
   * Switches mode at run time without moving time. Entering realtime anchors simulated time to the
   * wall clock at this moment; `speed` (realtime factor) is kept for later if not given.
   */
  setMode(mode: ClockMode, options: { readonly speed?: number } = {}): void {
    if (!isClockMode(mode)) {
      throw new RangeError(`bvs-mock: clock: mode ${JSON.stringify(mode)} is not one of ${CLOCK_MODES.join(', ')}`);
    }
    const speed = options.speed === undefined ? this.currentSpeed : checkSpeed(options.speed);
    this.current = this.now();
    this.currentMode = mode;
    this.currentSpeed = speed;
    this.anchorSim = this.current;
    this.anchorWall = this.options.wallNow();
    this.driver.restartSteps();
    if (!this.firing) this.driver.drive();
  }

  /** Cancels every timer and moves time back to the start; the mode stays. */
  reset(): void {
    this.assertNotFiring('reset()');
    this.queue.clear();
    this.current = this.startedAt;
    this.anchorSim = this.startedAt;
    this.anchorWall = this.options.wallNow();
    this.driver.restartSteps();
    this.driver.release();
    this.settleIdle();
  }

  /**
   * Releases every real timer and switches to manual mode, so a process or a jest test can exit.
   * Timers stay scheduled (advance/runAll still work; setMode resumes). Pending idle() promises reject.
   */
  stop(): void {
    this.setMode('manual');
    this.driver.release();
    if (this.idleWaiters.size > 0) {
      this.idleWaiters.rejectAll(
        new Error(
          `bvs-mock: clock: stopped with ${this.queue.size} timers pending, so idle() cannot resolve; ` + 'call runAll() or setMode() before awaiting idle()',
        ),
      );
    }
  }

  /** Same as {@link stop}; for `afterEach(() => clock.dispose())`. */
  dispose(): void {
    this.stop();
  }

  /** The clock as the control API shows it. */
  describe(): ClockDescription {
    const nextAt = this.nextAt();
    return {
      mode: this.currentMode,
      speed: this.currentSpeed,
      now: this.iso(),
      started_at: new Date(this.startedAt).toISOString(),
      pending: this.queue.size,
      next_at: nextAt === null ? null : new Date(nextAt).toISOString(),
    };
  }

  private handleFor(entry: QueuedTimer<TimerCallback>): TimerHandle {
    const queue = this.queue;
    return {
      at: entry.at,
      get pending() {
        return queue.has(entry);
      },
      cancel: () => this.cancel(entry),
    };
  }

  private cancel(entry: QueuedTimer<TimerCallback>): boolean {
    if (!this.queue.remove(entry)) return false;
    if (!this.firing) {
      this.settleIdle();
      this.driver.drive();
    }
    return true;
  }

  /** Simulated time the wall clock has reached in realtime mode (whole milliseconds). */
  private wallTarget(): number {
    return Math.floor(this.anchorSim + (this.options.wallNow() - this.anchorWall) * this.currentSpeed);
  }

  private fireUpTo(operation: string, limit: number): number {
    let fired = 0;
    for (let next = this.queue.peek(); next !== undefined && next.at <= limit; next = this.queue.peek()) {
      if (fired >= this.options.maxSteps) {
        throw new StepLimitError({ operation, limit: this.options.maxSteps, at: this.current });
      }
      this.fireNext();
      fired++;
    }
    return fired;
  }

  private fireNext(): void {
    const entry = this.queue.pop() as QueuedTimer<TimerCallback>;
    this.firedCount += 1;
    this.current = entry.at;
    this.firing = true;
    try {
      const result = entry.value();
      if (isThenable(result)) result.then(undefined, (error) => this.report(error, { source: 'timer', at: entry.at }));
    } catch (error) {
      this.report(error, { source: 'timer', at: entry.at });
    } finally {
      this.firing = false;
    }
  }

  /**
   * In instant mode, before time moves past the present, asks `barrier` whether
   * work outside the clock is still running (webhook deliveries of the events
   * just emitted) and waits for it. So deliveries happen at their events'
   * simulated time, in event order, instead of the clock racing ahead of them.
   * `barrier` returns a promise to wait for, or undefined when nothing runs.
   */
  setInstantBarrier(barrier: (() => Promise<void> | undefined) | null): void {
    this.driver.setBarrier(barrier);
  }

  private afterLever(): void {
    // A lever in realtime mode may leave time ahead of the wall clock; continue from there.
    if (this.currentMode === 'realtime' && this.current > this.wallTarget()) {
      this.anchorSim = this.current;
      this.anchorWall = this.options.wallNow();
    }
    this.settleIdle();
    this.driver.drive();
  }

  private settleIdle(): void {
    if (this.queue.size > 0) return;
    this.driver.restartSteps();
    this.idleWaiters.resolveAll();
  }

  private report(error: unknown, context: ClockErrorContext): void {
    try {
      this.options.onError(error, context);
    } catch (hookError) {
      // A throwing hook must not break the clock either.
      logClockError(hookError, context);
    }
  }

  private assertNotFiring(operation: string): void {
    if (this.firing) {
      throw new Error(
        `bvs-mock: clock: ${operation} was called from inside a timer callback; ` + 'schedule a timer instead (time moves only between callbacks)',
      );
    }
  }
}

/**
 * Creates a {@link SimulatedClock}; the entry point the engine, the server and tests use.
 *
 * @example
 * const clock = createClock({ mode: 'instant' });
 * clock.scheduleIn(3_600_000, finishRun);
 * await clock.idle(); // the hour played in milliseconds
 */
export function createClock(options: ClockOptions = {}): SimulatedClock {
  return new SimulatedClock(options);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
