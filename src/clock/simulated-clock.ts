import type { ClockDescription } from '../schemas';
import { AutoDriver, fireUpTo, IdleWaiters, isThenable, runLoop, type Barrier, type DrivenClock } from './clock-loop';
import { checkMode, checkSpeed, reportClockError, resolveClockOptions, type ClockMode, type ClockOptions, type ResolvedClockOptions } from './clock-options';
import { timerHandle, TimerQueue, type PendingTimer, type QueuedTimer, type Timer, type TimerCallback, type TimerHandle } from './timer-queue';

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
  private readonly queue = new TimerQueue<Timer>();
  private currentMode: ClockMode;
  private currentSpeed: number;
  /** Simulated time; in realtime mode the last value observed (now() never reports less). */
  private current: number;
  /** Realtime: simulated time `anchorSim` corresponds to wall time `anchorWall`. */
  private anchorSim: number;
  private anchorWall: number;
  private firing = false;
  /** What the loop and the driver of the automatic modes read and do (clock-loop.ts). */
  private readonly driven: DrivenClock;
  /** Drives the automatic modes. */
  private readonly driver: AutoDriver;
  /** How many hold() calls are running: while any is, realtime now() does not move. */
  private holding = 0;
  /** Counts resets: a run of the time before a reset ends there. */
  private resets = 0;
  private barrier: Barrier | null = null;
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
    this.driven = {
      mode: () => this.currentMode,
      speed: () => this.currentSpeed,
      current: () => this.current,
      maxSteps: this.options.maxSteps,
      nextDue: () => this.queue.peek()?.at,
      wallTarget: () => this.wallTarget(),
      fireNext: () => this.fireNext(),
      moveTo: (at) => (this.current = Math.max(this.current, at)),
      epoch: () => this.resets,
      barrier: () => this.barrier?.(),
      settleIdle: () => this.settleIdle(),
      halted: (error) => this.idleWaiters.rejectAll(error),
      report: (error, context) => reportClockError(this.options.onError, error, context),
    };
    this.driver = new AutoDriver(this.driven);
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
   * Runs `action` with time standing still: every now() inside it reads one instant, as in a timer
   * callback. For actions from outside (an API request), which in realtime mode at a high speed would
   * see time move between two reads. A promise-returning action is held up to its first await; every
   * API handler reads the clock before it (docs/decisions/0004). The levers still move time inside.
   */
  hold<T>(action: () => T): T {
    this.now();
    this.holding += 1;
    try {
      return action();
    } finally {
      this.holding -= 1;
    }
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

  /** Every timer still due with its tag, in the exact order they would fire (what a world's snapshot keeps). */
  pendingTimers(): PendingTimer[] {
    return this.queue.ordered().map((entry) => ({ at: entry.at, tag: entry.value.tag }));
  }

  /** Puts time at `at` without firing anything (a world restored from a snapshot), while no timer is scheduled. */
  restoreTime(at: number): void {
    if (this.queue.size > 0 || this.firing || !Number.isFinite(at))
      throw new Error(`bvs-mock: clock: restoreTime(${String(at)}) needs a finite time and a clock with nothing scheduled`);
    this.current = this.anchorSim = at;
    this.anchorWall = this.options.wallNow();
  }

  /** Due time of the next timer in epoch ms, or null when nothing is scheduled. */
  nextAt(): number | null {
    return this.queue.peek()?.at ?? null;
  }

  /**
   * Runs `callback` at simulated time `at` (epoch ms or Date). A time in the past runs as soon as
   * possible, at `now()`: time never goes backwards. A callback scheduled for the current time from
   * inside another callback runs after everything already due at that time. `tag`: the timer as plain data ({@link pendingTimers}).
   */
  schedule(at: number | Date, callback: TimerCallback, tag?: unknown): TimerHandle {
    const ms = at instanceof Date ? at.getTime() : at;
    if (typeof ms !== 'number' || !Number.isFinite(ms)) {
      throw new RangeError(`bvs-mock: clock: schedule(at) needs a finite time in epoch milliseconds, got ${String(at)}`);
    }
    const entry = this.queue.push(Math.max(ms, this.now()), { run: callback, tag });
    const isHead = this.queue.peek() === entry;
    // Inside a callback the running loop drives afterwards; otherwise wake the automatic modes.
    if (!this.firing && (isHead || (this.currentMode === 'instant' && !this.driver.armedForNextTurn))) this.driver.drive();
    return timerHandle(this.queue, entry, () => this.cancel(entry));
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
      const fired = fireUpTo(this.driven, { operation: 'advance()', limit: target, maxSteps: this.options.maxSteps });
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
      return fireUpTo(this.driven, { operation: 'runAll()', limit: Infinity, maxSteps: this.options.maxSteps });
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
   * Moves time as the instant mode moves it, up to `limit` (epoch ms; Infinity: until nothing is
   * scheduled): fires every timer due by then in order, and before each move of time past the present,
   * the first and the last one (to `limit`) included, waits for the barrier ({@link setBarrier}). So
   * what an API call or a control action queued goes out at the instant it was queued, and a retry is
   * scheduled from its attempt's start, however the clock is moved (docs/fidelity.md rows 48 and 75).
   * A reset while it waits ends it there, and so does `signal`: time stays at the instant reached.
   * Resolves to how many timers fired; rejects with {@link StepLimitError} past `maxSteps`.
   *
   * @example
   * clock.setBarrier(() => deliveries.instantBarrier());
   * await clock.runUntil(clock.now() + 1_800_000); // half an hour, every delivery at its event's time
   */
  async runUntil(limit: number, options: { readonly signal?: AbortSignal } = {}): Promise<number> {
    if (typeof limit !== 'number' || Number.isNaN(limit)) {
      throw new RangeError(`bvs-mock: clock: runUntil(limit) needs a time in epoch milliseconds or Infinity, got ${String(limit)}`);
    }
    this.assertNotFiring('runUntil()');
    try {
      return await runLoop(this.driven, {
        operation: 'runUntil()',
        limit: () => limit,
        reach: Number.isFinite(limit),
        waits: true,
        maxSteps: this.options.maxSteps,
        goesOn: () => true,
        signal: options.signal,
      });
    } finally {
      this.afterLever();
    }
  }

  /**
   * Switches mode at run time without moving time. Entering realtime anchors simulated time to the
   * wall clock at this moment; `speed` (realtime factor) is kept for later if not given.
   */
  setMode(mode: ClockMode, options: { readonly speed?: number } = {}): void {
    checkMode(mode);
    const speed = options.speed === undefined ? this.currentSpeed : checkSpeed(options.speed);
    this.current = this.now();
    this.currentMode = mode;
    this.currentSpeed = speed;
    this.anchorSim = this.current;
    this.anchorWall = this.options.wallNow();
    if (!this.firing) this.driver.drive();
  }

  /** Cancels every timer and moves time back to the start; the mode stays. */
  reset(): void {
    this.assertNotFiring('reset()');
    this.queue.clear();
    this.current = this.startedAt;
    this.anchorSim = this.startedAt;
    this.anchorWall = this.options.wallNow();
    this.resets += 1;
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

  private cancel(entry: QueuedTimer<Timer>): boolean {
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

  private fireNext(): void {
    const entry = this.queue.pop() as QueuedTimer<Timer>;
    this.firedCount += 1;
    this.current = entry.at;
    this.firing = true;
    try {
      const result = entry.value.run();
      if (isThenable(result)) result.then(undefined, (error) => this.driven.report(error, { source: 'timer', at: entry.at }));
    } catch (error) {
      this.driven.report(error, { source: 'timer', at: entry.at });
    } finally {
      this.firing = false;
    }
  }

  /**
   * What time waits for before it moves past the present, in instant mode and in {@link runUntil}:
   * `barrier` says whether work outside the clock still runs (the webhook deliveries of the events
   * emitted so far) with a promise to wait for, or undefined when nothing runs. So deliveries happen at
   * their events' simulated time, in event order, instead of the clock racing ahead of them. The
   * synchronous levers (advance, runAll, runNext) and realtime mode do not wait.
   */
  setBarrier(barrier: Barrier | null): void {
    this.barrier = barrier;
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
    if (this.queue.size === 0) this.idleWaiters.resolveAll();
  }

  private assertNotFiring(operation: string): void {
    if (this.firing) {
      throw new Error(
        `bvs-mock: clock: ${operation} was called from inside a timer callback; ` + 'schedule a timer instead (time moves only between callbacks)',
      );
    }
  }
}
