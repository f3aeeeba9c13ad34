import type { JournalEntry } from '../schemas';

/** One API request as the journal records it (`GET /_mock/requests`); its schema: src/schemas/report-answers.ts. */
export type { JournalEntry };

/** A {@link RequestJournal} as plain data: the entries kept, oldest first, and the position of the first (the pages' cursor). */
export interface RequestJournalSnapshot {
  entries: JournalEntry[];
  first: number;
  operations: Record<string, number>;
  violating_requests: number;
  violations: number;
}

/** Journal entries kept by default (`--max-journal-entries`). */
export const DEFAULT_MAX_JOURNAL_ENTRIES = 5_000;

/**
 * The journal of API requests with their contract violations. It keeps the
 * most recent `capacity` entries in a ring, so a long CI run cannot exhaust
 * memory and recording costs the same at any size, and counts every operation
 * it saw for the contract report.
 */
export class RequestJournal {
  private readonly ring: JournalEntry[] = [];
  /** Position of the next entry: entry n (0-based, since the last reset) sits at ring[n % capacity]. */
  private recorded = 0;
  private readonly operations = new Map<string, number>();
  /** Requests with at least one violation, and violations in all, since the last reset. */
  private violatingRequests = 0;
  private violations = 0;

  constructor(private readonly capacity = DEFAULT_MAX_JOURNAL_ENTRIES) {}

  record(entry: JournalEntry): void {
    this.ring[this.recorded % this.capacity] = entry;
    this.recorded += 1;
    if (entry.operation !== null) this.operations.set(entry.operation, (this.operations.get(entry.operation) ?? 0) + 1);
    this.violations += entry.violations.length + (entry.violations_omitted ?? 0);
    if (entry.violations.length > 0) this.violatingRequests += 1;
  }

  /** Recent entries, oldest first, optionally those with violations only. */
  list(options: { violationsOnly?: boolean; organizationId?: string } = {}): JournalEntry[] {
    return this.page({ ...options, limit: Infinity }).entries;
  }

  /** One page of recent entries, oldest first, after position `after`, and the position to continue from (null on the last page). */
  page(options: {
    violationsOnly?: boolean;
    organizationId?: string;
    /** Whether an entry belongs on the page at all (the query's filters). */
    where?: (entry: JournalEntry) => boolean;
    after?: number;
    limit: number;
    /** Whether an entry still fits the page (its byte budget); the first that does not ends the page. */
    fits?: (entry: JournalEntry) => boolean;
  }): { entries: JournalEntry[]; next: number | null } {
    const entries: JournalEntry[] = [];
    let last = -1;
    const first = Math.max(this.recorded - this.capacity, options.after === undefined ? 0 : options.after + 1);
    for (let position = first; position < this.recorded; position += 1) {
      const entry = this.ring[position % this.capacity]!;
      if (options.violationsOnly && entry.violations.length === 0) continue;
      if (options.organizationId !== undefined && entry.organization_id !== options.organizationId) continue;
      if (options.where?.(entry) === false) continue;
      if (entries.length === options.limit) return { entries, next: last };
      if (options.fits?.(entry) === false) return { entries, next: last };
      entries.push(entry);
      last = position;
    }
    return { entries, next: null };
  }

  /** Entries kept now, and the most kept (`GET /_mock/health`). */
  retention(): { entries: number; max_entries: number } {
    return { entries: Math.min(this.recorded, this.capacity), max_entries: this.capacity };
  }

  /** How many times each operation was called since the last reset. */
  operationCounts(): Record<string, number> {
    return Object.fromEntries(this.operations);
  }

  /** Since the last reset: how many requests had violations, and how many violations they had in all, kept or only counted (a request may have several). */
  violationCounts(): { requests: number; issues: number } {
    return { requests: this.violatingRequests, issues: this.violations };
  }

  /** The entries kept (oldest first) and the counts, as plain data (a world's snapshot). */
  snapshot(): RequestJournalSnapshot {
    const first = Math.max(0, this.recorded - this.capacity);
    const entries: JournalEntry[] = [];
    for (let position = first; position < this.recorded; position += 1) entries.push(this.ring[position % this.capacity]!);
    return { entries, first, operations: Object.fromEntries(this.operations), violating_requests: this.violatingRequests, violations: this.violations };
  }

  /** Takes what a snapshot kept, into this new journal (the latest entries that fit its capacity, at their positions). */
  restore(snapshot: RequestJournalSnapshot): void {
    const kept = snapshot.entries.slice(-this.capacity);
    this.recorded = snapshot.first + snapshot.entries.length - kept.length;
    for (const entry of kept) this.ring[this.recorded++ % this.capacity] = entry;
    for (const [operation, count] of Object.entries(snapshot.operations)) this.operations.set(operation, count);
    this.violatingRequests = snapshot.violating_requests;
    this.violations = snapshot.violations;
  }

  clear(): void {
    this.ring.length = 0;
    this.recorded = 0;
    this.operations.clear();
    this.violations = 0;
    this.violatingRequests = 0;
  }
}
