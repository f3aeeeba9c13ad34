import type { Issue } from '../schemas';

/** One API request as the journal records it (`GET /_mock/requests`). */
export interface JournalEntry {
  id: string;
  at: string;
  method: string;
  path: string;
  operation: string | null;
  organization_id: string | null;
  status: number;
  duration_ms: number;
  /** Contract violations found in the request, answered or tolerated. */
  violations: Issue[];
}

/**
 * The journal of API requests with their contract violations. It keeps the
 * most recent `capacity` entries so a long CI run cannot exhaust memory, and
 * counts every operation it saw for the contract report.
 */
export class RequestJournal {
  private readonly entries: JournalEntry[] = [];
  private readonly operations = new Map<string, number>();
  private violations = 0;

  constructor(private readonly capacity = 5_000) {}

  record(entry: JournalEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.capacity) this.entries.shift();
    if (entry.operation !== null) this.operations.set(entry.operation, (this.operations.get(entry.operation) ?? 0) + 1);
    this.violations += entry.violations.length;
  }

  /** Recent entries, oldest first, optionally those with violations only. */
  list(options: { violationsOnly?: boolean; organizationId?: string } = {}): JournalEntry[] {
    return this.entries.filter(
      (entry) => (!options.violationsOnly || entry.violations.length > 0) && (options.organizationId === undefined || entry.organization_id === options.organizationId),
    );
  }

  /** How many times each operation was called since the last reset. */
  operationCounts(): Record<string, number> {
    return Object.fromEntries(this.operations);
  }

  /** How many violations were recorded since the last reset. */
  violationCount(): number {
    return this.violations;
  }

  clear(): void {
    this.entries.length = 0;
    this.operations.clear();
    this.violations = 0;
  }
}
