import type { EngineEvent } from '../engine';
import type { DeliveryAttempt, DeliveryEvent, DeliveryStatus, ReceiverFindings } from '../schemas';
import { laneOf, renderDelivery, type DeliveryRecord, type DeliveryTarget } from './delivery-record';
import { moveStatus, type DeliveryEnding } from './delivery-status';
import type { Trigger } from './delivery-policy';
import { EndedRecords } from './ended-records';
import type { PostResult } from './http-post';
import { receiverFindings } from './receiver-findings';

/** Filters of {@link DeliveryLog.page}, as `GET /_mock/events` takes them. */
export interface DeliveryFilter {
  organizationId?: string;
  type?: string;
  status?: string;
  resourceId?: string;
  endpointId?: string;
  validationId?: string;
  /** Only the records of validations created under this label (`x-bvs-mock-label`). */
  label?: string;
  /** Only records after this one (the cursor of the previous page); with `newestFirst`, only records before it. */
  after?: number;
  /** Newest first instead of oldest first (the dashboard shows the latest deliveries on top). */
  newestFirst?: boolean;
  /** At most this many. */
  limit?: number;
  /** Whether a rendered record still fits the page (its byte budget); the first that does not ends the page. */
  fits?: (event: DeliveryEvent) => boolean;
}

/** A delivery record as plain data: its timer is the clock's (tagged), and no attempt runs in a snapshot. */
export type DeliveryRecordData = Omit<DeliveryRecord, 'retryTimer' | 'running'>;

/** The delivery log as plain data (a world's snapshot). */
export interface DeliveryLogSnapshot {
  /** Every record kept, in the order of creation. */
  records: DeliveryRecordData[];
  /** The ids of the records that have ended, in the order they ended (what retention forgets first). */
  ended: string[];
  sequence: number;
  evicted: number;
}

/** Limits of {@link DeliveryLog}. */
export interface DeliveryLogLimits {
  /** Delivery records kept; the oldest ended ones are forgotten first. */
  maxRecords: number;
  /** Deliveries one receiver may have pending; one more fails at once (docs/fidelity.md row 99). */
  maxPendingPerReceiver: number;
  /** The wall clock an attempt's `real_at` is read from (the world's, so a test may inject it). */
  wallNow: () => number;
}

/** What a new record is made of: the event, where it goes, and the body as sent. */
export interface NewDelivery {
  id: string;
  event: Pick<EngineEvent, 'type' | 'organizationId' | 'validationId' | 'resourceId'>;
  target: DeliveryTarget;
  body: string;
  createdAt: string;
  /** The label of the request that created its validation, if it had one. */
  label?: string;
}

/**
 * The delivery log: every delivery record, what is asked of them (a record, pages, counts, the contract
 * report's findings) and what retention keeps (docs/fidelity.md row 99). It is the one place a record's
 * status moves ({@link end}, by the rule of `delivery-status.ts`) and the one place attempts are written.
 * It sends nothing: the dispatcher does, and writes here.
 */
export class DeliveryLog {
  private readonly records = new Map<string, DeliveryRecord>();
  /** The records that have ended, in the order they ended: what retention forgets first. */
  private readonly ended = new EndedRecords();
  /** Pending records per receiver (lane), for the cap of row 99; a receiver with none is not listed. */
  private readonly pendingByLane = new Map<string, number>();
  private sequence = 0;
  private evicted = 0;

  constructor(private readonly limits: DeliveryLogLimits) {}

  /**
   * A new pending record, in its receiver's backlog until it ends, and how many that receiver had pending
   * before it (see {@link backlogFull}).
   */
  create(delivery: NewDelivery): { record: DeliveryRecord; backlog: number } {
    const { event, target } = delivery;
    this.sequence += 1;
    const lane = laneOf(target);
    const record: DeliveryRecord = {
      id: delivery.id,
      sequence: this.sequence,
      type: event.type,
      organizationId: event.organizationId,
      target,
      status: 'pending',
      reason: null,
      validationId: event.validationId,
      resourceId: event.resourceId,
      createdAt: delivery.createdAt,
      nextAttemptAt: null,
      attempts: [],
      body: delivery.body,
      queueKey: `${lane}\u0000${event.validationId}`,
      duplicate: false,
      retryTimer: null,
      running: 0,
    };
    if (delivery.label !== undefined) record.label = delivery.label;
    this.records.set(record.id, record);
    const backlog = this.pendingByLane.get(lane) ?? 0;
    this.pendingByLane.set(lane, backlog + 1);
    return { record, backlog };
  }

  /** Whether a receiver that had `backlog` deliveries pending had no room for one more (row 99). */
  backlogFull(backlog: number): boolean {
    return backlog >= this.limits.maxPendingPerReceiver;
  }

  /** The error of an attempt refused because its receiver's backlog was full. */
  backlogError(backlog: number): string {
    return (
      `receiver_backlog: this receiver already has ${backlog} deliveries pending (--max-pending-per-receiver ${this.limits.maxPendingPerReceiver}), ` +
      'so this one was not sent; check that it answers (GET /_mock/events?status=pending), or raise the limit'
    );
  }

  /**
   * A record ends, by the rule of {@link moveStatus} (which throws on a move outside it): its status and
   * why. A pending one leaves its receiver's backlog for the queue of ended records that retention
   * forgets from; one that had already ended only changes its status (a redelivery that succeeded).
   */
  end(record: DeliveryRecord, ending: DeliveryEnding): void {
    const { leftPending } = moveStatus(record.status, ending);
    record.status = ending.status;
    record.reason = ending.reason;
    if (!leftPending || this.records.get(record.id) !== record) return;
    this.ended.push(record);
    const lane = laneOf(record.target);
    const pending = (this.pendingByLane.get(lane) ?? 0) - 1;
    if (pending > 0) this.pendingByLane.set(lane, pending);
    else this.pendingByLane.delete(lane);
  }

  /** Writes one attempt to its record: when it began on the simulated clock, the wall clock's instant, and what came back. */
  recordAttempt(record: DeliveryRecord, trigger: Trigger, at: string, result: PostResult): DeliveryAttempt {
    const attempt: DeliveryAttempt = {
      number: record.attempts.length + 1,
      at,
      real_at: new Date(this.limits.wallNow()).toISOString(),
      response_code: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      trigger,
      ...(result.requestHeaders === undefined ? {} : { request_headers: result.requestHeaders }),
    };
    record.attempts.push(attempt);
    return attempt;
  }

  /** A record of an organization, as kept. */
  find(organizationId: string, id: string): DeliveryRecord | undefined {
    const record = this.records.get(id);
    return record && record.organizationId === organizationId ? record : undefined;
  }

  /** The pending records of an endpoint that wait for a scheduled attempt (a retry, or a delay fault). */
  *waitingFor(endpointId: string): Generator<DeliveryRecord> {
    for (const record of this.records.values()) {
      if (record.target.endpointId === endpointId && record.status === 'pending' && record.retryTimer !== null) yield record;
    }
  }

  /** One page of deliveries, oldest first (or newest first), filtered, and the cursor of the next page (null on the last). */
  page(filter: DeliveryFilter = {}): { events: DeliveryEvent[]; next: number | null } {
    const out: DeliveryEvent[] = [];
    const limit = filter.limit ?? Infinity;
    let last = 0;
    const newest = filter.newestFirst === true;
    for (const record of newest ? [...this.records.values()].reverse() : this.records.values()) {
      if (filter.after !== undefined && (newest ? record.sequence >= filter.after : record.sequence <= filter.after)) continue;
      if (filter.organizationId !== undefined && record.organizationId !== filter.organizationId) continue;
      if (filter.type !== undefined && record.type !== filter.type) continue;
      if (filter.status !== undefined && record.status !== filter.status) continue;
      if (filter.resourceId !== undefined && record.resourceId !== filter.resourceId) continue;
      if (filter.endpointId !== undefined && record.target.endpointId !== filter.endpointId) continue;
      if (filter.validationId !== undefined && record.validationId !== filter.validationId) continue;
      if (filter.label !== undefined && record.label !== filter.label) continue;
      if (out.length === limit) return { events: out, next: last };
      const event = renderDelivery(record);
      if (filter.fits?.(event) === false) return { events: out, next: last };
      out.push(event);
      last = record.sequence;
    }
    return { events: out, next: null };
  }

  /** How many deliveries are in each state. */
  counts(): Record<DeliveryStatus, number> {
    const counts: Record<DeliveryStatus, number> = { pending: 0, succeeded: 0, failed: 0, expired: 0 };
    for (const record of this.records.values()) counts[record.status] += 1;
    return counts;
  }

  /** Deliveries kept, by event type and status (the contract report), without rendering a record. */
  countsByType(): Map<string, Record<DeliveryStatus, number>> {
    const byType = new Map<string, Record<DeliveryStatus, number>>();
    for (const record of this.records.values()) {
      let counts = byType.get(record.type);
      if (counts === undefined) byType.set(record.type, (counts = { pending: 0, succeeded: 0, failed: 0, expired: 0 }));
      counts[record.status] += 1;
    }
    return byType;
  }

  /** What each receiver did with its deliveries (the records kept, docs/fidelity.md row 83); see `receiver-findings.ts`. */
  receiverFindings(slowMs: number): ReceiverFindings[] {
    return receiverFindings(this.records.values(), slowMs);
  }

  /** Records kept, records forgotten by retention, and the limits (`GET /_mock/health`). */
  retention(): { records: number; max_records: number; evicted_records: number; max_pending_per_receiver: number } {
    return {
      records: this.records.size,
      max_records: this.limits.maxRecords,
      evicted_records: this.evicted,
      max_pending_per_receiver: this.limits.maxPendingPerReceiver,
    };
  }

  /**
   * Keeps at most `maxRecords`: the records that ended first go first, taken from the front of the
   * queue of ended records, so no pending record is walked over (docs/fidelity.md row 99); pending ones
   * are never dropped. One with an attempt under way (a redelivery) goes to the back and waits its turn.
   */
  evictEnded(): void {
    let busy = 0;
    while (this.records.size > this.limits.maxRecords && busy < this.ended.size) {
      const record = this.ended.shift();
      if (record === undefined) return;
      if (record.running > 0) {
        this.ended.push(record);
        busy += 1;
        continue;
      }
      if (this.records.delete(record.id)) this.evicted += 1;
    }
  }

  /** Every record and count, as plain data (sharing the attempts: the world's snapshot copies the whole). */
  snapshot(): DeliveryLogSnapshot {
    return {
      records: [...this.records.values()].map(({ retryTimer: _timer, running: _running, ...data }) => data),
      ended: [...this.ended.list()].map((record) => record.id),
      sequence: this.sequence,
      evicted: this.evicted,
    };
  }

  /** Takes a snapshot's records into this empty log; throws, naming what, on one that does not hold together. */
  restore(snapshot: DeliveryLogSnapshot): void {
    if (!Array.isArray(snapshot.records) || !Array.isArray(snapshot.ended)) throw new Error('deliveries.log.records and .ended must be lists');
    snapshot.records.forEach((data, index) => {
      if (typeof data?.id !== 'string' || typeof data.target?.url !== 'string' || !Array.isArray(data.attempts) || typeof data.body !== 'string') {
        throw new Error(`deliveries.log.records[${index}] is not a delivery record (id, target, attempts, body)`);
      }
      const record: DeliveryRecord = { ...data, retryTimer: null, running: 0 };
      this.records.set(record.id, record);
      if (record.status === 'pending') this.pendingByLane.set(laneOf(record.target), (this.pendingByLane.get(laneOf(record.target)) ?? 0) + 1);
    });
    for (const id of snapshot.ended) {
      const record = this.records.get(id);
      if (record === undefined || record.status === 'pending') throw new Error(`deliveries.log.ended names ${id}, which is no ended record of the snapshot`);
      this.ended.push(record);
    }
    this.sequence = snapshot.sequence;
    this.evicted = snapshot.evicted;
  }

  /** The record of that id, in whichever organization. */
  byId(id: string): DeliveryRecord | undefined {
    return this.records.get(id);
  }

  /** Forgets every record (`POST /_mock/reset`), cancelling the attempts they wait for on the clock. */
  clear(): void {
    for (const record of this.records.values()) record.retryTimer?.cancel();
    this.records.clear();
    this.ended.clear();
    this.pendingByLane.clear();
    this.sequence = 0;
    this.evicted = 0;
  }
}
