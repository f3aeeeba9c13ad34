/**
 * What a timer runs. It may return a promise: a rejection is reported to the clock's `onError`
 * like a synchronous throw, but the clock does not wait for it (simulated time does not stall on I/O).
 */
export type TimerCallback = () => unknown;

/** A queued timer of the clock: what it runs, and the descriptor its scheduler gave it (what a world's snapshot keeps of it). */
export interface Timer {
  readonly run: TimerCallback;
  readonly tag: unknown;
}

/** A timer still due, as `SimulatedClock.pendingTimers` lists it. */
export interface PendingTimer {
  /** Due time, epoch ms. */
  readonly at: number;
  /** The descriptor given to `schedule`, or undefined when none was. */
  readonly tag: unknown;
}

/**
 * A scheduled timer, as returned by `clock.schedule` and `clock.scheduleIn`.
 *
 * @example
 * const handle = clock.scheduleIn(60_000, expireToken);
 * handle.cancel(); // true: it had not fired yet
 */
export interface TimerHandle {
  /** Due time in epoch milliseconds (after clamping a past time to the clock's `now()`). */
  readonly at: number;
  /** True until the timer fires, is cancelled, or the clock is reset. */
  readonly pending: boolean;
  /** Stops the timer from firing; returns false when it had already fired or been cancelled. */
  cancel(): boolean;
}

/**
 * One entry of a {@link TimerQueue}: the value plus the key it is ordered by.
 */
export interface QueuedTimer<T> {
  /** Due time, epoch milliseconds. */
  readonly at: number;
  /** Insertion number; breaks ties between equal `at` so equal times keep insertion order. */
  readonly seq: number;
  /** What was queued (for the clock: the callback). */
  readonly value: T;
}

/** The heap's own view of an entry: the slot lets `remove` run in O(log n) instead of a linear search. */
interface Slot<T> extends QueuedTimer<T> {
  index: number;
}

/**
 * A min-heap of timers keyed by (at, seq).
 *
 * A binary heap rather than a sorted array because scenarios schedule tens of thousands of
 * deliveries and retries: push, pop and remove are all O(log n), so 100k timers schedule and
 * fire in milliseconds. The `seq` tie-breaker makes the order total, hence deterministic: two timers
 * due at the same instant always fire in the order they were scheduled.
 *
 * @example
 * const queue = new TimerQueue<string>();
 * queue.push(20, 'late');
 * queue.push(10, 'early');
 * queue.pop()?.value; // 'early'
 */
export class TimerQueue<T> {
  private readonly heap: Slot<T>[] = [];
  private nextSeq = 0;

  /** Number of queued entries. */
  get size(): number {
    return this.heap.length;
  }

  /** Queues `value` due at `at` and returns its entry (keep it to `remove` it later). */
  push(at: number, value: T): QueuedTimer<T> {
    const slot: Slot<T> = { at, seq: this.nextSeq++, value, index: this.heap.length };
    this.heap.push(slot);
    this.siftUp(slot.index);
    return slot;
  }

  /** The earliest entry, without removing it. */
  peek(): QueuedTimer<T> | undefined {
    return this.heap[0];
  }

  /** Every queued entry in the order they would pop: by due time, then by insertion (same-instant ties keep their order). */
  ordered(): Array<QueuedTimer<T>> {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : 1));
  }

  /** Removes and returns the earliest entry. */
  pop(): QueuedTimer<T> | undefined {
    const first = this.heap[0];
    if (first !== undefined) this.removeAt(0);
    return first;
  }

  /** Whether `entry` is still queued (not popped, removed or cleared). */
  has(entry: QueuedTimer<T>): boolean {
    const index = (entry as Slot<T>).index;
    return index >= 0 && this.heap[index] === entry;
  }

  /** Removes `entry`; returns false when it was no longer queued. */
  remove(entry: QueuedTimer<T>): boolean {
    if (!this.has(entry)) return false;
    this.removeAt((entry as Slot<T>).index);
    return true;
  }

  /** Empties the queue; every entry's `has` becomes false. */
  clear(): void {
    for (const slot of this.heap) slot.index = -1;
    this.heap.length = 0;
  }

  private removeAt(index: number): void {
    const removed = this.heap[index] as Slot<T>;
    const last = this.heap.pop() as Slot<T>;
    removed.index = -1;
    if (last === removed) return;
    last.index = index;
    this.heap[index] = last;
    // The moved entry may belong above or below its new slot; one of the two sifts is a no-op.
    this.siftUp(index);
    this.siftDown(last.index);
  }

  private siftUp(start: number): void {
    const heap = this.heap;
    const slot = heap[start] as Slot<T>;
    let index = start;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = heap[parentIndex] as Slot<T>;
      if (!before(slot, parent)) break;
      heap[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    heap[index] = slot;
    slot.index = index;
  }

  private siftDown(start: number): void {
    const heap = this.heap;
    const length = heap.length;
    const slot = heap[start] as Slot<T>;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = heap[left] as Slot<T>;
      let childIndex = left;
      if (right < length && before(heap[right] as Slot<T>, child)) {
        child = heap[right] as Slot<T>;
        childIndex = right;
      }
      if (!before(child, slot)) break;
      heap[index] = child;
      child.index = index;
      index = childIndex;
    }
    heap[index] = slot;
    slot.index = index;
  }
}

function before(a: QueuedTimer<unknown>, b: QueuedTimer<unknown>): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** The handle of a queued timer: pending while `queue` holds it; `cancel` is the clock's. */
export function timerHandle<T>(queue: TimerQueue<T>, entry: QueuedTimer<T>, cancel: () => boolean): TimerHandle {
  return {
    at: entry.at,
    get pending() {
      return queue.has(entry);
    },
    cancel,
  };
}
