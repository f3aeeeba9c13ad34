import { setTimeout as wait } from 'node:timers/promises';

/**
 * Waits real milliseconds. For the few things that are about the wall clock,
 * not the simulated one: injected API latency is felt by a real client.
 */
export function realDelay(ms: number): Promise<void> {
  return wait(ms, undefined, { ref: false });
}
