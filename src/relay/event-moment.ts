/** An ISO 8601 date and time, as the service writes its timestamps (§2). */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** How deep into a body the moment is looked for: a tree's batches nest runs and child batches a few levels down. */
const MAX_DEPTH = 8;

/**
 * The moment an event's body says it is from: the latest timestamp it carries (a run's `succeeded_at`, a batch's
 * `updated_at`, the latest run of the children in `child_batches_ready`). An event fires no earlier than the latest
 * thing it reports, and every attempt of it carries the same body, so a retry has the moment of its first attempt.
 * In epoch milliseconds; null when the body carries no timestamp.
 */
export function eventMoment(body: unknown, depth = 0): number | null {
  if (typeof body === 'string') {
    const at = TIMESTAMP.test(body) ? Date.parse(body) : Number.NaN;
    return Number.isNaN(at) ? null : at;
  }
  if (depth >= MAX_DEPTH || typeof body !== 'object' || body === null) return null;
  let latest: number | null = null;
  for (const value of Array.isArray(body) ? body : Object.values(body)) {
    const found = eventMoment(value, depth + 1);
    if (found !== null && (latest === null || found > latest)) latest = found;
  }
  return latest;
}
