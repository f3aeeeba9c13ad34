/**
 * Lets heavy requests (a control list page: up to a megabyte of JSON made in one go, page-query.ts) run one
 * per turn of the event loop, in arrival order. Between two of them node reads its sockets, so a crowd of
 * heavy requests (450 connections asking for a page of `/_mock/events` at once) delays each other, never a
 * health check or an API call (docs/fidelity.md row 102). One per mock, like every other service.
 */
export class Pacer {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves when it is the caller's turn: the next turn of the event loop that no earlier caller took. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /** Callers still waiting for their turn. */
  get size(): number {
    return this.waiting.length;
  }

  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    // setImmediate, not a microtask: the next caller runs after node has polled its sockets once more.
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()!();
      this.schedule();
    });
  }
}
