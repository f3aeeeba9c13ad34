/**
 * How long {@link BvsMockControl.waitForEvent} and {@link BvsMockControl.waitForSettled} wait, in real milliseconds, by default.
 *
 * @example
 * await bvs.control.waitForSettled(id, { timeoutMs: 3 * DEFAULT_WAIT_MS }); // a large tree on a slow CI machine
 */
export const DEFAULT_WAIT_MS = 10_000;

/** Reads again every 20 real milliseconds until `read` answers a value; after `timeoutMs`, throws what `failure` says. */
export async function pollUntil<T>(read: () => Promise<T | undefined>, timeoutMs: number, failure: () => Promise<string>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await read();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(await failure());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
