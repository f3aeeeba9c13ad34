/**
 * How long the pacer rests after a heavy request, as a multiple of the time it took: twice as long leaves heavy
 * work a third of the event loop when a crowd of it waits, and the rest two thirds, which kept health checks
 * under half a second while 450 fresh connections asked for a megabyte page each (bench/hostile/06).
 */
const REST_PER_WORK = 2;

/**
 * Lets heavy requests (a control list page: up to a megabyte of JSON made in one go, page-query.ts) run one
 * at a time, in arrival order, each followed by a rest {@link REST_PER_WORK} times as long as it took. The rest is for everyone else:
 * node reads its sockets and accepts connections meanwhile (libuv accepts one connection per turn of the
 * event loop, so a loop kept busy with pages back to back leaves new connections, a health check's among
 * them, waiting in the kernel). A crowd of heavy requests (450 connections asking for a page of
 * `/_mock/events` at once) thus delays one another, never a health check or an API call (docs/fidelity.md
 * row 102). One per mock, like every other service.
 */
export class Pacer {
  private readonly waiting: Array<(release: () => void) => void> = [];
  /** A heavy request holds its turn, or the rest after it has not ended. */
  private busy = false;

  /** Resolves when it is the caller's turn (at once when nobody holds it), with the function that ends the turn: call it once the heavy work is done. */
  turn(): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.next();
    });
  }

  /** Callers still waiting for their turn. */
  get size(): number {
    return this.waiting.length;
  }

  private next(): void {
    if (this.busy || this.waiting.length === 0) return;
    this.busy = true;
    const start = this.waiting.shift()!;
    const started = performance.now();
    let ended = false;
    start(() => {
      if (ended) return;
      ended = true;
      const rest = (performance.now() - started) * REST_PER_WORK;
      const rested = () => {
        this.busy = false;
        this.next();
      };
      // Under a millisecond, one turn of the loop is rest enough.
      if (rest < 1) setImmediate(rested);
      else setTimeout(rested, rest);
    });
  }
}
