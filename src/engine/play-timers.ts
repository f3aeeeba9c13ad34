import type { SimulatedClock, TimerHandle } from '../clock';

/**
 * The timers one play (a tree, or an information request flow) has scheduled and
 * not yet fired: none left means the play has settled, and retention may evict
 * it; `cancel` stops whatever it still had scheduled (docs/fidelity.md row 59).
 */
export class PlayTimers {
  private readonly timers = new Set<TimerHandle>();

  constructor(private readonly clock: SimulatedClock) {}

  /** Whether nothing is scheduled any more. */
  get settled(): boolean {
    return this.timers.size === 0;
  }

  /** Runs `callback` at simulated time `at`, as `clock.schedule` does, and keeps track of it. */
  schedule(at: number, callback: () => void): void {
    const timer = this.clock.schedule(at, () => {
      this.timers.delete(timer);
      callback();
    });
    this.timers.add(timer);
  }

  /** Cancels everything still scheduled. */
  cancel(): void {
    for (const timer of this.timers) timer.cancel();
    this.timers.clear();
  }
}
