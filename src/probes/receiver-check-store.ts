import type { EndpointReceiverCheck } from '../schemas';
import { probePayloads, type ProbePayloads } from './probe-payloads';

/** Receiver checks kept, the newest: enough for a test run's report, bounded for a mock left running. */
const MAX_RECEIVER_CHECKS = 50;

/**
 * The receiver checks run through the control API since the last reset (`GET /_mock/receiver-checks`, the
 * contract report). A check still running when a reset comes is not kept: it belongs to the old state.
 */
export class ReceiverCheckStore {
  private checks: EndpointReceiverCheck[] = [];
  private counter = 0;
  private generation = 0;
  /** The probe payloads, played once for this world's checks (the same bytes every time; a reset keeps them). */
  private played: Promise<ProbePayloads> | undefined;

  /** The probe payloads of this world's checks, played on first use. */
  payloads(): Promise<ProbePayloads> {
    this.played ??= probePayloads();
    return this.played;
  }

  /** The state a check starts in; hand it back to {@link add}. */
  begin(): number {
    return this.generation;
  }

  /** Keeps a finished check, unless a reset came since it began; returns it with its id. */
  add(check: Omit<EndpointReceiverCheck, 'id'>, generation: number): EndpointReceiverCheck {
    this.counter += 1;
    const kept = { id: `rck_${this.counter}`, ...check };
    if (generation !== this.generation) return kept;
    this.checks.push(kept);
    if (this.checks.length > MAX_RECEIVER_CHECKS) this.checks.shift();
    return kept;
  }

  /** The checks kept, oldest first; of one organization when given. */
  list(organizationId?: string): EndpointReceiverCheck[] {
    return organizationId === undefined ? [...this.checks] : this.checks.filter((check) => check.organization_id === organizationId);
  }

  /** The checks kept and their numbering, as plain data (a world's snapshot). */
  snapshot(): { checks: EndpointReceiverCheck[]; counter: number } {
    return { checks: [...this.checks], counter: this.counter };
  }

  /** Takes what a snapshot kept, into this new store. */
  restore(snapshot: { checks: EndpointReceiverCheck[]; counter: number }): void {
    this.checks = [...snapshot.checks];
    this.counter = snapshot.counter;
  }

  clear(): void {
    this.checks = [];
    this.generation += 1;
  }
}
