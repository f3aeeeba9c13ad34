import type { DeliveryAttempt, DeliveryEvent, JournalEntry } from '../schemas';

/** How `bvs-mock serve` writes its log: lines a person reads, or one JSON object a line for a log pipeline. */
export type LogFormat = 'text' | 'json';

/**
 * The log of `bvs-mock serve` (docs/design.md, Command line): one line per request and per delivery attempt.
 * JSON lines carry stable field names: `time` (wall clock), `kind` (`start`, `warning`, `request`, `delivery`, `stop`),
 * then the fields of their kind, with `simulated_at` the simulated time.
 */
export class ServeLog {
  constructor(
    private readonly format: LogFormat,
    private readonly write: (line: string) => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  request(entry: JournalEntry, control: boolean): void {
    if (this.format === 'json') {
      this.json('request', {
        request_id: entry.id,
        method: entry.method,
        path: entry.path,
        operation: entry.operation,
        status: entry.status,
        duration_ms: round(entry.duration_ms),
        organization_id: entry.organization_id,
        control,
        violations: entry.violations.length + (entry.violations_omitted ?? 0),
        simulated_at: entry.at,
      });
      return;
    }
    const count = entry.violations.length + (entry.violations_omitted ?? 0);
    const more = entry.violations_omitted === undefined ? '' : `, and ${entry.violations_omitted} more`;
    const violations =
      count === 0 ? '' : `  ${count} violation${count === 1 ? '' : 's'}: ${entry.violations.map((issue) => `${issue.path} ${issue.code}`).join(', ')}${more}`;
    this.write(
      `${this.time()}  ${entry.method.padEnd(6)} ${entry.path} ${entry.status} ${round(entry.duration_ms)} ms  ${entry.id}${entry.organization_id === null ? '' : ` ${entry.organization_id}`}${violations}`,
    );
  }

  delivery(delivery: DeliveryEvent, attempt: DeliveryAttempt): void {
    if (this.format === 'json') {
      this.json('delivery', {
        event_id: delivery.id,
        type: delivery.type,
        url: delivery.url,
        attempt: attempt.number,
        trigger: attempt.trigger,
        status: attempt.response_code,
        error: attempt.error,
        duration_ms: round(attempt.duration_ms),
        delivery_status: delivery.status,
        next_attempt_at: delivery.next_attempt_at,
        simulated_at: attempt.at,
      });
      return;
    }
    // A status with an error: the answer broke off after its head, which is no acknowledgement.
    const outcome =
      attempt.response_code === null ? (attempt.error ?? 'no answer') : `${attempt.response_code}${attempt.error === null ? '' : ` (${attempt.error})`}`;
    const next =
      delivery.status === 'pending' && delivery.next_attempt_at !== null
        ? `, retry at ${delivery.next_attempt_at}`
        : delivery.status === 'failed'
          ? ', failed for good'
          : '';
    this.write(
      `${this.time()}  DELIVER ${delivery.type} -> ${delivery.url} ${outcome} ${round(attempt.duration_ms)} ms  ${delivery.id} attempt ${attempt.number}${next}`,
    );
  }

  /** A line of its own kind, for the start and the stop in JSON form. */
  json(kind: string, fields: Record<string, unknown>): void {
    this.write(JSON.stringify({ time: this.now().toISOString(), kind, ...fields }));
  }

  private time(): string {
    return this.now().toISOString();
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
