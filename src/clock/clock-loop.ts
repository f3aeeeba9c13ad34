import { performance } from 'node:perf_hooks';
import { RealTimer } from '../wall';
import type { ClockErrorContext, ClockMode } from './clock-options';

/**
 * A run yields to I/O after this many timers or this much CPU time, whichever comes first, so an HTTP
 * server in the same process keeps answering while a scenario with 100k events plays.
 */
const TURN_MAX_TIMERS = 1_000;
const TURN_MAX_MS = 4;

/**
 * Work outside the clock that must end before simulated time moves past the present (the deliveries of
 * the events already emitted), or undefined when none runs. See `SimulatedClock.setBarrier`.
 */
export type Barrier = () => Promise<void> | undefined;

/** Options of {@link StepLimitError}. */
export interface StepLimitErrorOptions {
  /** What was running: `advance()`, `runAll()`, `runUntil()` or `instant mode`. */
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

/** What the loop reads of the clock it runs, and the few things it asks of it. */
export interface LoopClock {
  /** Simulated time now (the last instant fired, or reached). */
  current(): number;
  /** Due time of the earliest timer, or undefined when none is scheduled. */
  nextDue(): number | undefined;
  /** Fires the earliest timer, moving time to its due time. */
  fireNext(): void;
  /** Moves time forward to `at` without firing anything (nothing is due before it). */
  moveTo(at: number): void;
  /** Changes with every reset: a run of the time before a reset ends there. */
  epoch(): number;
  barrier(): Promise<void> | undefined;
  /** Resolves idle() waiters when nothing is left. */
  settleIdle(): void;
  report(error: unknown, context: ClockErrorContext): void;
}

/** Options of {@link runLoop}. */
export interface LoopOptions {
  /** What runs, for the step limit's message. */
  readonly operation: string;
  /** Fires the timers due at or before this instant; read again before each timer (realtime follows the wall clock). */
  readonly limit: () => number;
  /** Whether time ends at the limit (the levers), or at the last timer fired (the automatic modes). */
  readonly reach: boolean;
  /** Whether time waits at the barrier before it moves (not in realtime mode: the wall clock does not wait). */
  readonly waits: boolean;
  /** Timers the run may fire; one more due throws {@link StepLimitError}. */
  readonly maxSteps: number;
  /** Whether the run goes on (the automatic modes end when the mode changes). */
  readonly goesOn: () => boolean;
  /** Ends the run where it got to (the real-time bound of `POST /_mock/clock/run`). */
  readonly signal?: AbortSignal;
}

/**
 * The one loop that moves simulated time, as fake-timers' `doTick(…, isAsync)` does: fires the timers
 * due up to the limit in order, and before each move of time past the present, the first and the last
 * one included, awaits the barrier until nothing it names runs. So whatever the present queued (the
 * deliveries of an API call, a control action, a timer just fired) goes out at the present, and a
 * retry is scheduled from its attempt's start (docs/fidelity.md rows 48 and 75). It yields to I/O
 * every turn, and ends early, where it got to, on a reset or when `signal` aborts. Returns how many
 * timers fired. The instant and realtime modes run it from {@link AutoDriver}; `SimulatedClock.runUntil`
 * for the control API's levers.
 */
export async function runLoop(clock: LoopClock, options: LoopOptions): Promise<number> {
  const { signal } = options;
  const epoch = clock.epoch();
  const goesOn = () => clock.epoch() === epoch && signal?.aborted !== true && options.goesOn();
  let fired = 0;
  let turn = startTurn();
  while (goesOn()) {
    const limit = options.limit();
    const next = clock.nextDue();
    const due = next !== undefined && next <= limit;
    const target = due ? next : limit;
    if (!due && (!options.reach || target <= clock.current())) break;
    if (options.waits && target > clock.current()) {
      const outstanding = clock.barrier();
      if (outstanding !== undefined) {
        // Whatever was waited for may have scheduled or cancelled timers: look again before moving.
        if (!(await settles(outstanding, signal, (error) => clock.report(error, { source: 'timer', at: clock.current() })))) break;
        turn = startTurn();
        continue;
      }
    }
    if (!due) {
      clock.moveTo(target);
      break;
    }
    if (turn.fired === TURN_MAX_TIMERS || (turn.fired % 64 === 0 && turn.fired > 0 && performance.now() > turn.deadline)) {
      clock.settleIdle();
      await nextTurn();
      turn = startTurn();
      continue;
    }
    if (fired >= options.maxSteps) throw new StepLimitError({ operation: options.operation, limit: options.maxSteps, at: clock.current() });
    clock.fireNext();
    fired += 1;
    turn.fired += 1;
  }
  return fired;
}

/**
 * The synchronous loop of the levers `advance` and `runAll`: fires every timer due up to `limit` at
 * once, waiting for nothing (a test that drives the clock by hand decides itself what to await).
 */
export function fireUpTo(clock: LoopClock, options: { readonly operation: string; readonly limit: number; readonly maxSteps: number }): number {
  let fired = 0;
  for (let next = clock.nextDue(); next !== undefined && next <= options.limit; next = clock.nextDue()) {
    if (fired >= options.maxSteps) throw new StepLimitError({ operation: options.operation, limit: options.maxSteps, at: clock.current() });
    clock.fireNext();
    fired += 1;
  }
  return fired;
}

function startTurn(): { fired: number; deadline: number } {
  return { fired: 0, deadline: performance.now() + TURN_MAX_MS };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Whether `work` ended (a rejection is reported and counts as ended) before `signal` aborted. */
async function settles(work: Promise<void>, signal: AbortSignal | undefined, report: (error: unknown) => void): Promise<boolean> {
  try {
    if (signal !== undefined) return await untilAborted(work, signal);
    await work;
    return true;
  } catch (error) {
    report(error);
    return true;
  }
}

/**
 * Resolves true when `work` resolves, false as soon as `signal` aborts (the work goes on, nobody waits
 * for it any more); rejects when `work` rejects first. A rejection after the abort is still handled.
 */
export function untilAborted(work: Promise<unknown>, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(false);
  }
  return new Promise((resolve, reject) => {
    const aborted = () => resolve(false);
    signal.addEventListener('abort', aborted, { once: true });
    work.then(
      () => {
        signal.removeEventListener('abort', aborted);
        resolve(true);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error as Error);
      },
    );
  });
}

/** What the driver reads of the clock it drives, beside what the loop reads. */
export interface DrivenClock extends LoopClock {
  mode(): ClockMode;
  speed(): number;
  /** Simulated time the wall clock has reached in realtime mode. */
  wallTarget(): number;
  readonly maxSteps: number;
  /** An instant-mode run reached maxSteps: reject idle() waiters with it. */
  halted(error: StepLimitError): void;
}

/**
 * The automatic modes of the clock (docs/design.md "One simulated clock"): one real timer at a time,
 * armed for the next due time in realtime mode or for the next turn in instant mode, which starts
 * {@link runLoop}; one run at a time, which drives again when it ends. The manual mode arms nothing.
 */
export class AutoDriver {
  private readonly realTimer = new RealTimer();
  private running = false;

  constructor(private readonly clock: DrivenClock) {}

  /** Whether a run is armed or under way (instant mode batches schedules into it). */
  get armedForNextTurn(): boolean {
    return this.running || this.realTimer.armedForNextTurn;
  }

  /** Releases the real timer: nothing starts until the next drive(); a run under way ends at its next turn. */
  release(): void {
    this.realTimer.release();
  }

  /** Arms the one real timer the current mode needs, or none; never more than one at a time. */
  drive(): void {
    if (this.running) return;
    const next = this.clock.nextDue();
    if (next === undefined || this.clock.mode() === 'manual') return this.realTimer.release();
    if (this.clock.mode() === 'realtime') {
      const wait = Math.ceil((next - this.clock.wallTarget()) / this.clock.speed());
      if (wait > 0) return this.realTimer.armAfter(wait, () => this.run());
    }
    this.realTimer.armNextTurn(() => this.run());
  }

  private run(): void {
    const clock = this.clock;
    const mode = clock.mode();
    if (mode === 'manual' || this.running) return;
    this.running = true;
    const instant = mode === 'instant';
    const run = runLoop(clock, {
      operation: 'instant mode',
      limit: instant ? () => Infinity : () => clock.wallTarget(),
      reach: false,
      waits: instant,
      maxSteps: instant ? clock.maxSteps : Infinity,
      goesOn: () => clock.mode() === mode,
    });
    run.then(
      () => this.ended(true),
      (error: unknown) => {
        if (!(error instanceof StepLimitError)) {
          clock.report(error, { source: 'timer', at: clock.current() });
          return this.ended(true);
        }
        clock.report(error, { source: 'step-limit', at: clock.current() });
        clock.halted(error);
        // Halted: nothing runs until something is scheduled or the mode is set again.
        this.ended(false);
      },
    );
  }

  private ended(driveAgain: boolean): void {
    this.running = false;
    this.clock.settleIdle();
    if (driveAgain) this.drive();
  }
}

/**
 * The promises handed out by `clock.idle()` that have not settled yet: a run resolves them when the
 * queue empties, a halted run or a stop rejects them. Settling swaps the list out first, so a waiter
 * that calls `idle()` again from its continuation joins the next round.
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
    for (const waiter of this.take()) waiter.resolve();
  }

  /** Rejects every waiting promise with `error`. */
  rejectAll(error: Error): void {
    for (const waiter of this.take()) waiter.reject(error);
  }

  private take(): Array<{ resolve(): void; reject(error: Error): void }> {
    const waiters = this.waiters;
    this.waiters = [];
    return waiters;
  }
}

/** Whether a timer's result is a promise (its rejection is reported, never awaited). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
