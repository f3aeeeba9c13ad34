import { performance } from 'node:perf_hooks';
import type { ClockErrorContext } from './clock-error-handler';
import type { ClockMode } from './clock-mode';
import { RealTimer } from './real-timer';
import { StepLimitError } from './step-limit-error';

/**
 * An automatic run (instant, or realtime catching up) yields to I/O after this many timers or this
 * much CPU time, whichever comes first, so an HTTP server in the same process keeps answering while
 * a scenario with 100k events plays.
 */
const TURN_MAX_TIMERS = 1_000;
const TURN_MAX_MS = 4;

/** What the driver reads of the clock it drives, and the few things it asks of it. */
export interface DrivenClock {
  mode(): ClockMode;
  speed(): number;
  /** Simulated time now (the last instant fired, or reached). */
  current(): number;
  /** Due time of the earliest timer, or undefined when none is scheduled. */
  nextDue(): number | undefined;
  /** Simulated time the wall clock has reached in realtime mode. */
  wallTarget(): number;
  /** Whether a request holds time still (SimulatedClock.hold): no timer fires meanwhile. */
  held(): boolean;
  readonly maxSteps: number;
  /** Fires the earliest timer. */
  fireNext(): void;
  /** Resolves idle() waiters when nothing is left. */
  settleIdle(): void;
  /** An instant-mode run reached maxSteps: reject idle() waiters with it. */
  halted(error: StepLimitError): void;
  report(error: unknown, context: ClockErrorContext): void;
}

/**
 * The automatic modes of the clock (docs/design.md "One simulated clock"): one real timer at a time,
 * armed for the next due time in realtime mode or for the next turn in instant mode, firing what is
 * due in turns that yield to I/O; in instant mode it waits at the barrier (deliveries in flight)
 * before time moves past the present. The manual mode arms nothing.
 */
export class AutoDriver {
  private readonly realTimer = new RealTimer();
  /** Instant mode: work outside the clock that must finish before time moves on (see SimulatedClock.setInstantBarrier). */
  private barrier: (() => Promise<void> | undefined) | null = null;
  private waitingAtBarrier = false;
  /** Timers fired by instant mode since the queue was last empty, checked against maxSteps. */
  private stepsThisRun = 0;

  constructor(private readonly clock: DrivenClock) {}

  /** Whether a turn is already armed for the next event-loop turn (instant mode batches schedules into it). */
  get armedForNextTurn(): boolean {
    return this.realTimer.armedForNextTurn;
  }

  setBarrier(barrier: (() => Promise<void> | undefined) | null): void {
    this.barrier = barrier;
  }

  /** Forgets the instant run's step count (the queue emptied, the mode changed, or the clock was reset). */
  restartSteps(): void {
    this.stepsThisRun = 0;
  }

  /** Releases the real timer: nothing runs until the next drive(). */
  release(): void {
    this.realTimer.release();
  }

  /** Arms the one real timer the current mode needs, or none; never more than one at a time. */
  drive(): void {
    const next = this.clock.nextDue();
    if (next === undefined || this.clock.mode() === 'manual') return this.realTimer.release();
    if (this.clock.mode() === 'realtime') {
      const wait = Math.ceil((next - this.clock.wallTarget()) / this.clock.speed());
      if (wait > 0) return this.realTimer.armAfter(wait, () => this.pump());
    }
    this.realTimer.armNextTurn(() => this.pump());
  }

  /** One turn of an automatic mode: fire what is due, within the turn budget, then drive again. */
  private pump(): void {
    const clock = this.clock;
    const mode = clock.mode();
    // A held request sees one instant; the last hold to end drives again.
    if (mode === 'manual' || this.waitingAtBarrier || clock.held()) return;
    const limit = mode === 'realtime' ? clock.wallTarget() : Infinity;
    const deadline = performance.now() + TURN_MAX_MS;
    let fired = 0;
    for (let next = clock.nextDue(); next !== undefined && next <= limit; next = clock.nextDue()) {
      if (clock.mode() !== mode || fired === TURN_MAX_TIMERS) break;
      if (fired % 64 === 0 && fired > 0 && performance.now() > deadline) break;
      if (mode === 'instant') {
        if (next > clock.current() && this.waitAtBarrier()) return;
        if (this.stepsThisRun >= clock.maxSteps) return this.haltRun();
        this.stepsThisRun++;
      }
      clock.fireNext();
      fired++;
    }
    clock.settleIdle();
    this.drive();
  }

  /** Before time moves past the present: whether work outside the clock runs, in which case the turn waits for it. */
  private waitAtBarrier(): boolean {
    const outstanding = this.barrier?.();
    if (!outstanding) return false;
    this.waitingAtBarrier = true;
    const resume = () => {
      this.waitingAtBarrier = false;
      this.drive();
    };
    outstanding.then(resume, (error: unknown) => {
      this.clock.report(error, { source: 'timer', at: this.clock.current() });
      resume();
    });
    return true;
  }

  private haltRun(): void {
    const error = new StepLimitError({ operation: 'instant mode', limit: this.clock.maxSteps, at: this.clock.current() });
    this.stepsThisRun = 0;
    this.realTimer.release();
    this.clock.report(error, { source: 'step-limit', at: this.clock.current() });
    this.clock.halted(error);
  }
}
