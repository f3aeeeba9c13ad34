import { setTimeout as wait } from 'node:timers/promises';

/**
 * Waits real milliseconds. For the few things that are about the wall clock,
 * not the simulated one: injected API latency is felt by a real client.
 */
export function realDelay(ms: number): Promise<void> {
  return wait(ms, undefined, { ref: false });
}

/**
 * Calls `callback` after `ms` real milliseconds unless the returned function is
 * called first. Unref'd, so it never holds a process open. For bounds on real
 * waits outside the simulation (how long the instant clock waits for a slow receiver).
 */
export function afterRealTime(ms: number, callback: () => void): () => void {
  const timer = setTimeout(callback, ms).unref();
  return () => clearTimeout(timer);
}
