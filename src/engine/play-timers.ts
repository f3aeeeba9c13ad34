import type { SimulatedClock, TimerHandle } from '../clock';

/**
 * What a play's timer does, as plain data (a world's snapshot keeps it, and its restore schedules it again):
 * a run reaches its next scripted status, a formation or the consolidated report is ready (`play` names the
 * tree's main batch, `entity` the batch of the entity), or an information request's step or extraction comes.
 */
export type PlayTimerTag =
  | { kind: 'play.outcome'; play: string; entity: string; run: string; status: string; index: number }
  | { kind: 'play.formation'; play: string; entity: string }
  | { kind: 'play.report'; play: string }
  | { kind: 'flow.step'; flow: string; step: unknown }
  | { kind: 'flow.extract'; flow: string; item: string };

/**
 * The timers one play (a tree, or an information request flow) has scheduled and
 * not yet fired: none left means the play has settled, and retention may evict
 * it; `cancel` stops whatever it still had scheduled (docs/fidelity.md row 59).
 */
export class PlayTimers {
  /** Each timer still scheduled, with its due time. */
  private readonly timers = new Map<TimerHandle, number>();

  constructor(private readonly clock: SimulatedClock) {}

  /** Whether nothing is scheduled any more. */
  get settled(): boolean {
    return this.timers.size === 0;
  }

  /** The due time of the last timer still scheduled (epoch ms), or null when settled. */
  get lastDueAt(): number | null {
    let last: number | null = null;
    for (const at of this.timers.values()) if (last === null || at > last) last = at;
    return last;
  }

  /** Runs `callback` at simulated time `at`, as `clock.schedule` does (with its descriptor `tag`), and keeps track of it. */
  schedule(at: number, callback: () => void, tag: PlayTimerTag): void {
    const timer = this.clock.schedule(
      at,
      () => {
        this.timers.delete(timer);
        callback();
      },
      tag,
    );
    this.timers.set(timer, at);
  }

  /** Cancels everything still scheduled. */
  cancel(): void {
    for (const timer of this.timers.keys()) timer.cancel();
    this.timers.clear();
  }
}
