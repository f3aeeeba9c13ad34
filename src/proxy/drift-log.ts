import type { DriftAnswer, DriftDifference } from '../schemas';
import type { Finding } from './check-exchange';

/** Distinct differences kept: far more than a real service's drift, bounded for a proxy left running for days. */
const MAX_DIFFERENCES = 1_000;

/**
 * The differences the proxy found, each counted once per operation, side, JSON path and kind, with the first
 * exchange that showed it. Bounded: past {@link MAX_DIFFERENCES} distinct ones, new ones are counted, not kept.
 */
export class DriftLog {
  private readonly differences = new Map<string, DriftDifference>();
  private omitted = 0;
  private exchanges = 0;

  constructor(private readonly max = MAX_DIFFERENCES) {}

  /** Counts one checked exchange and the differences it showed. */
  record(requestId: string, findings: readonly Finding[]): void {
    this.exchanges++;
    for (const finding of findings) {
      // Every item of a list is one place: `$.data_source_run_batches[*].status`.
      const path = finding.path.replace(/\[\d+\]/g, '[*]');
      const key = [finding.operation, finding.side, path, finding.kind].join('\u0000');
      const known = this.differences.get(key);
      if (known !== undefined) known.count++;
      else if (this.differences.size < this.max) this.differences.set(key, { ...finding, path, count: 1, first_request_id: requestId });
      else this.omitted++;
    }
  }

  /** The differences found so far, in the order they were first seen (`GET /_mock/drift`). */
  answer(): DriftAnswer {
    return {
      differences: [...this.differences.values()].map((difference) => ({ ...difference })),
      differences_omitted: this.omitted,
      exchanges: this.exchanges,
    };
  }
}
