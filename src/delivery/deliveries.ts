import { setMaxListeners } from 'node:events';
import { systemTime, type SimulatedClock } from '../clock';
import type { OrganizationRegistry } from '../config';
import type { EngineEvent, IdSource } from '../engine';
import type { FaultPlan } from '../faults/fault-plan';
import type { DeliveryAttempt, DeliveryEndReason, DeliveryEvent, DeliveryStatus, ReceiverFindings } from '../schemas';
import { renderDelivery, type DeliveryRecord, type DeliveryTarget } from './delivery-record';
import { acknowledged, post, type PostResult } from './http-post';
import {
  DEFAULT_LANE_CONCURRENCY,
  DEFAULT_SLOW_RECEIVER_MS,
  DEFAULT_SUSPEND_AFTER_TIMEOUTS,
  DeliveryLanes,
  type Admission,
  type DeliveryLanesOptions,
} from './delivery-lanes';
import { deliveryAuthorization } from './delivery-authorization';
import { EndedRecords } from './ended-records';
import { receiverFindings } from './receiver-findings';
import { OAuthTokenCache } from './oauth-token-cache';
import { tolerantBody } from './tolerance';
import { MAX_RETRIES, retryDelayMs } from './retry-policy';
import type { WebhookEndpointStore } from './webhook-endpoint-store';

/** Real milliseconds a receiver has to answer before the attempt counts as `timeout` (docs/fidelity.md). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/** Delivery records kept at most; the oldest ended ones are forgotten first (docs/fidelity.md, "Retention"). */
export const DEFAULT_MAX_DELIVERY_RECORDS = 20_000;

/**
 * Deliveries one receiver (an endpoint, or a legacy URL) may have pending at once; one more fails at
 * once with `reason: receiver_backlog` (docs/fidelity.md row 99). Pending records are never evicted, so
 * without a cap one receiver that hangs grew them without end (196,291 records, 638 MB). A receiver
 * that answers keeps a handful pending; 10,000 is a test suite of 800 validations of twelve events
 * each waiting on a manual clock for a receiver that is down, at about 3 KB each some 30 MB.
 */
export const DEFAULT_MAX_PENDING_PER_RECEIVER = 10_000;

/**
 * The header on every delivery that names the bvs-mock instance sending it, so
 * that bvs-mock refuses a delivery pointed at itself instead of looping.
 */
export const DELIVERY_ORIGIN_HEADER = 'x-bvs-mock-origin';

/** What one receiver did with its deliveries, for the contract report (see {@link Deliveries.receiverFindings}). */
/** What each receiver did with its deliveries; its schema: src/schemas/control-answers.ts. */
export type { ReceiverFindings };

/** Options of {@link Deliveries}. */
export interface DeliveriesOptions {
  clock: SimulatedClock;
  ids: IdSource;
  endpoints: WebhookEndpointStore;
  registry: OrganizationRegistry;
  faults: FaultPlan;
  timeoutMs?: number;
  /** Accept receivers' self-signed certificates (`--insecure-webhook-tls`). */
  insecureTls?: boolean;
  /** Attempts in flight at once to one receiver. Default {@link DEFAULT_LANE_CONCURRENCY}. */
  concurrency?: number;
  /** Real milliseconds the instant clock waits for a receiver before it goes on without it. */
  slowReceiverMs?: number;
  /** Delivery records kept; default {@link DEFAULT_MAX_DELIVERY_RECORDS}. */
  maxRecords?: number;
  /** Deliveries one receiver may have pending; default {@link DEFAULT_MAX_PENDING_PER_RECEIVER}. */
  maxPendingPerReceiver?: number;
  /** Timeouts in a row after which a receiver is suspended; default `DEFAULT_SUSPEND_AFTER_TIMEOUTS` (docs/fidelity.md row 100). */
  suspendAfterTimeouts?: number;
  /** The value of {@link DELIVERY_ORIGIN_HEADER} on every delivery. */
  origin: string;
  /** Called after every attempt (`bvs-mock play` prints them). A hook that throws is reported, never fatal. */
  onAttempt?: (delivery: DeliveryEvent, attempt: DeliveryAttempt) => void;
  /**
   * Called after every attempt without the record (the change feed): unlike {@link onAttempt}, it costs no
   * rendering, which counts when a suspended receiver's attempts end by the thousand (docs/fidelity.md row 100).
   */
  onAttemptEnded?: () => void;
  /** Where unexpected errors of the delivery layer go (a throwing hook); default stderr. */
  onError?: (error: unknown) => void;
  userAgent: string;
  /** Tolerance mode for an event's deliveries (`--tolerance`, the scenario's `tolerance`; src/delivery/tolerance.ts). */
  tolerance?: (event: EngineEvent) => boolean;
  /** The seed tolerance mode draws its choices from. */
  seed?: number;
}

/** Filters of {@link Deliveries.list}, as `GET /_mock/events` takes them. */
export interface DeliveryFilter {
  organizationId?: string;
  type?: string;
  status?: string;
  resourceId?: string;
  endpointId?: string;
  validationId?: string;
  /** Only records after this one (the cursor of the previous page); with `newestFirst`, only records before it. */
  after?: number;
  /** Newest first instead of oldest first (the dashboard shows the latest deliveries on top). */
  newestFirst?: boolean;
  /** At most this many. */
  limit?: number;
  /** Whether a rendered record still fits the page (its byte budget); the first that does not ends the page. */
  fits?: (event: DeliveryEvent) => boolean;
}

type Trigger = DeliveryAttempt['trigger'];

/**
 * The state that one `POST /_mock/reset` ends: queues, lanes and every attempt
 * in flight (through the abort signal). Attempts hold the generation they
 * started in and stop touching anything once it is over.
 */
class Generation {
  readonly abort = new AbortController();
  readonly queues = new Map<string, DeliveryRecord[]>();
  readonly busy = new Set<string>();
  readonly lanes: DeliveryLanes;

  constructor(options: DeliveryLanesOptions) {
    this.lanes = new DeliveryLanes(options);
    // Every attempt in flight listens to it (16 a receiver, many receivers), each until it ends: not a leak.
    setMaxListeners(0, this.abort.signal);
  }

  get over(): boolean {
    return this.abort.signal.aborted;
  }
}

/**
 * Webhook delivery (spec §5.5, §5.6, §6 Subscription and delivery, §8): every
 * engine event becomes one delivery record per target, each ending succeeded,
 * failed or expired, never dropped. Deliveries to one target keep the engine's
 * order per validation (a queue per target and validation), unless a delay
 * fault holds one back or a retry comes later (docs/fidelity.md row 48).
 * Receivers are isolated: each has its own lane of concurrent attempts, and the
 * instant clock stops waiting for one that is slow (docs/fidelity.md, "Slow receivers").
 * Sending is asynchronous: nothing here blocks the API or the engine, and no
 * promise is dropped: an attempt's failure is reported, never fatal.
 */
export class Deliveries {
  private readonly records = new Map<string, DeliveryRecord>();
  /** The records that have ended, in the order they ended: what retention forgets first. */
  private readonly ended = new EndedRecords();
  /** Pending records per receiver (lane), for the cap of row 99; a receiver with none is not listed. */
  private readonly pendingByLane = new Map<string, number>();
  private generation: Generation;
  private sequence = 0;
  private evicted = 0;
  private readonly timeoutMs: number;
  private readonly laneOptions: DeliveryLanesOptions;
  private readonly maxRecords: number;
  private readonly maxPendingPerReceiver: number;
  /** The error of an attempt that a suspended receiver's probe kept from going (docs/fidelity.md row 100). */
  private readonly suspendedError: string;
  readonly oauth: OAuthTokenCache;

  constructor(private readonly options: DeliveriesOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.laneOptions = {
      concurrency: options.concurrency ?? DEFAULT_LANE_CONCURRENCY,
      slowReceiverMs: options.slowReceiverMs ?? DEFAULT_SLOW_RECEIVER_MS,
      suspendAfterTimeouts: wholeAtLeastOne('suspendReceiverAfterTimeouts', options.suspendAfterTimeouts ?? DEFAULT_SUSPEND_AFTER_TIMEOUTS),
      probeIntervalMs: this.timeoutMs,
    };
    this.maxRecords = options.maxRecords ?? DEFAULT_MAX_DELIVERY_RECORDS;
    this.maxPendingPerReceiver = wholeAtLeastOne(
      'maxPendingPerReceiver (--max-pending-per-receiver)',
      options.maxPendingPerReceiver ?? DEFAULT_MAX_PENDING_PER_RECEIVER,
    );
    this.suspendedError =
      `receiver_suspended: its last ${this.laneOptions.suspendAfterTimeouts} attempts got no answer within ${this.timeoutMs} ms; ` +
      `while one attempt every ${this.timeoutMs * 2} ms at most checks whether it answers again, the others are not sent and wait for their retry`;
    this.generation = new Generation(this.laneOptions);
    this.oauth = new OAuthTokenCache(options.clock, { timeoutMs: this.timeoutMs, insecureTls: options.insecureTls ?? false });
    options.endpoints.onWithdrawn((endpointId) => this.endpointWithdrawn(endpointId));
  }

  /** Takes one engine event: a record per target, queued in order. Subscribe it to the engine. */
  accept(event: EngineEvent): void {
    const { clock, ids } = this.options;
    const targets = this.targetsOf(event);
    if (targets.length === 0) return;
    const faults = this.options.faults.forDelivery(event);
    const tolerant = faults.tolerance || (this.options.tolerance?.(event) ?? false);
    const body = JSON.stringify(tolerant ? tolerantBody(event.body, this.options.seed ?? 1, event.sequence) : event.body);
    for (const { target, enabled } of targets) {
      this.sequence += 1;
      const record: DeliveryRecord = {
        id: ids.next('evt'),
        sequence: this.sequence,
        type: event.type,
        organizationId: event.organizationId,
        target,
        status: 'pending',
        reason: null,
        validationId: event.validationId,
        resourceId: event.resourceId,
        createdAt: clock.iso(),
        nextAttemptAt: null,
        attempts: [],
        body,
        queueKey: `${laneOf(target)}\u0000${event.validationId}`,
        duplicate: false,
        retryTimer: null,
        running: 0,
      };
      this.records.set(record.id, record);
      // Every record starts pending in its receiver's backlog; `end` takes it out.
      const lane = laneOf(target);
      const pending = this.pendingByLane.get(lane) ?? 0;
      this.pendingByLane.set(lane, pending + 1);
      if (!enabled) {
        // A disabled endpoint receives nothing: the delivery fails at once, without retry (spec §6, §7.3).
        this.end(record, 'failed', 'endpoint_disabled');
        this.finishAttempt(record, 'first', clock.iso(), { status: null, body: '', durationMs: 0, error: 'endpoint_disabled' });
        continue;
      }
      if (pending >= this.maxPendingPerReceiver) {
        // The receiver's backlog is full: this one fails at once, so one receiver cannot grow the records without end (row 99).
        this.end(record, 'failed', 'receiver_backlog');
        this.finishAttempt(record, 'first', clock.iso(), { status: null, body: '', durationMs: 0, error: this.backlogError(pending) });
        continue;
      }
      record.duplicate = faults.duplicate;
      if (faults.delayMs > 0) {
        // Held back: it joins its queue only when the delay is over, behind what was emitted meanwhile.
        record.nextAttemptAt = clock.now() + faults.delayMs;
        record.retryTimer = clock.schedule(record.nextAttemptAt, () => {
          record.retryTimer = null;
          this.enqueue(record);
        });
        continue;
      }
      this.enqueue(record);
    }
    this.evictEnded();
  }

  private enqueue(record: DeliveryRecord): void {
    const generation = this.generation;
    const queue = generation.queues.get(record.queueKey) ?? [];
    queue.push(record);
    generation.queues.set(record.queueKey, queue);
    generation.lanes.queued(laneOf(record.target));
    this.pump(generation, record.queueKey);
  }

  private targetsOf(event: EngineEvent): Array<{ target: DeliveryTarget; enabled: boolean }> {
    const targets: Array<{ target: DeliveryTarget; enabled: boolean }> = this.options.endpoints.subscribers(event.organizationId, event.type).map((stored) => ({
      target: { model: 'endpoint' as const, endpointId: stored.endpoint.id, url: stored.endpoint.url, authType: stored.endpoint.auth_type },
      enabled: stored.endpoint.enabled,
    }));
    if (event.legacyWebhookUrl !== null) {
      targets.push({ target: { model: 'legacy', endpointId: null, url: event.legacyWebhookUrl, authType: 'legacy_token' }, enabled: true });
    }
    return targets;
  }

  private backlogError(pending: number): string {
    return (
      `receiver_backlog: this receiver already has ${pending} deliveries pending (--max-pending-per-receiver ${this.maxPendingPerReceiver}), ` +
      'so this one was not sent; check that it answers (GET /_mock/events?status=pending), or raise the limit'
    );
  }

  /**
   * A pending record ends: its status and why, and it leaves its receiver's backlog for the queue of
   * ended records that retention forgets from. One that had already ended only changes its status (a
   * redelivery that succeeded).
   */
  private end(record: DeliveryRecord, status: Exclude<DeliveryStatus, 'pending'>, reason: DeliveryEndReason | null): void {
    const wasPending = record.status === 'pending';
    record.status = status;
    record.reason = reason;
    if (!wasPending || this.records.get(record.id) !== record) return;
    this.ended.push(record);
    const lane = laneOf(record.target);
    const pending = (this.pendingByLane.get(lane) ?? 0) - 1;
    if (pending > 0) this.pendingByLane.set(lane, pending);
    else this.pendingByLane.delete(lane);
  }

  /** Starts the next delivery of a queue when none of it is running; the promise goes back to this loop, never dropped. */
  private pump(generation: Generation, key: string): void {
    if (generation.over || generation.busy.has(key)) return;
    const queue = generation.queues.get(key);
    const next = queue?.shift();
    if (!next) {
      generation.queues.delete(key);
      return;
    }
    generation.busy.add(key);
    // The attempt begins (synchronously) before the record leaves the queue's count: the receiver never looks idle in between.
    const attempt = this.attempt(next, 'first', generation);
    generation.lanes.dequeued(laneOf(next.target));
    attempt.then(
      () => this.pumped(generation, key),
      (error: unknown) => {
        this.reportError(error);
        this.pumped(generation, key);
      },
    );
  }

  private pumped(generation: Generation, key: string): void {
    if (generation.over) return;
    generation.busy.delete(key);
    this.pump(generation, key);
  }

  /**
   * One attempt in three phases, as svix's worker has them: prepare (is the
   * target still there?), send (authorization and POST), settle (record, status,
   * retry). It never rejects: anything unexpected is reported.
   */
  private async attempt(record: DeliveryRecord, trigger: Trigger, generation = this.generation): Promise<void> {
    const lane = laneOf(record.target);
    generation.lanes.begin(lane);
    try {
      if (generation.over || !this.prepare(record, trigger)) return;
      const startedAt = this.options.clock.now();
      const at = new Date(startedAt).toISOString();
      record.running += 1;
      let result: PostResult;
      try {
        result = await this.send(record, trigger, generation);
      } finally {
        record.running -= 1;
      }
      // A reset while the attempt ran: the record belongs to the old state, nothing more happens to it.
      if (generation.over) return;
      await this.settle(record, trigger, { at, startedAt, result, generation });
    } catch (error) {
      this.reportError(error);
    } finally {
      generation.lanes.end(lane);
    }
  }

  /** Whether the attempt goes ahead: an endpoint disabled or deleted since receives nothing (spec §2, §3). */
  private prepare(record: DeliveryRecord, trigger: Trigger): boolean {
    if (trigger === 'redelivery') {
      // A redelivery replaces a waiting retry: one schedule at a time.
      record.retryTimer?.cancel();
    }
    record.retryTimer = null;
    record.nextAttemptAt = null;
    if (record.target.model !== 'endpoint' || trigger === 'duplicate_fault') return true;
    const stored = this.options.endpoints.get(record.organizationId, record.target.endpointId!);
    if (stored?.endpoint.enabled) return true;
    const reason = stored ? 'endpoint_disabled' : 'endpoint_deleted';
    if (trigger === 'redelivery') {
      if (record.status === 'pending') this.end(record, 'expired', reason);
      this.finishAttempt(record, trigger, this.options.clock.iso(), { status: null, body: '', durationMs: 0, error: reason });
    } else {
      this.end(record, 'expired', reason);
    }
    return false;
  }

  /**
   * Sends one attempt, holding one of the receiver's slots. A suspended receiver gets it only as its
   * probe, one at a time; the others come back at once as not sent (row 100). A redelivery always goes:
   * someone asked for it, and its answer tells whether the receiver is back.
   */
  private async send(record: DeliveryRecord, trigger: Trigger, generation: Generation): Promise<PostResult> {
    const lane = laneOf(record.target);
    const release = await generation.lanes.acquire(lane);
    let result: PostResult = { status: null, body: '', durationMs: 0, error: 'cancelled' };
    let admission: Admission | null = null;
    let sent = false;
    try {
      if (generation.over) return result;
      admission = trigger === 'redelivery' ? 'send' : generation.lanes.admit(lane);
      if (admission === 'suspended') return { status: null, body: '', durationMs: 0, error: this.suspendedError };
      const auth = await deliveryAuthorization(record, { endpoints: this.options.endpoints, registry: this.options.registry, oauth: this.oauth });
      if (generation.over) return result;
      sent = auth.ok;
      result = auth.ok
        ? await post({
            url: record.target.url,
            headers: {
              'content-type': 'application/json',
              'user-agent': this.options.userAgent,
              [DELIVERY_ORIGIN_HEADER]: this.options.origin,
              ...auth.headers,
            },
            body: record.body,
            timeoutMs: this.timeoutMs,
            insecureTls: this.options.insecureTls ?? false,
            signal: generation.abort.signal,
          })
        : { status: null, body: '', durationMs: 0, error: auth.error };
      return result;
    } finally {
      const outcome = !sent || result.error === 'cancelled' ? 'not_sent' : result.error === 'timeout' ? 'timeout' : 'other';
      if (admission !== null && admission !== 'suspended') generation.lanes.observe(lane, admission, outcome);
      release(outcome === 'other');
    }
  }

  private async settle(
    record: DeliveryRecord,
    trigger: Trigger,
    outcome: { at: string; startedAt: number; result: PostResult; generation: Generation },
  ): Promise<void> {
    const attempt = this.recordAttempt(record, trigger, outcome.at, outcome.result);
    if (trigger !== 'duplicate_fault') {
      // A 2xx whose answer broke off is not an acknowledgement: retried like any failure (spec §6 rules 2 and 4; docs/fidelity.md row 107).
      if (acknowledged(outcome.result)) this.end(record, 'succeeded', null);
      // Only a pending record waits for a retry: one a redelivery ended meanwhile stays ended.
      else if (record.status === 'pending') this.scheduleRetry(record, outcome.startedAt);
    }
    this.report(record, attempt);
    if (trigger === 'first' && record.duplicate) {
      // A duplicate fault sends the same body once more, as a retry or a manual redelivery might (spec §6.3).
      record.duplicate = false;
      await this.attempt(record, 'duplicate_fault', outcome.generation);
    }
  }

  /** The next try counts from the attempt's own start, however the clock was moved meanwhile. */
  private scheduleRetry(record: DeliveryRecord, startedAt: number): void {
    const tries = record.attempts.filter((attempt) => attempt.trigger === 'first' || attempt.trigger === 'retry').length;
    if (tries > MAX_RETRIES) {
      this.end(record, 'failed', 'retries_exhausted');
      return;
    }
    record.nextAttemptAt = Math.max(startedAt + retryDelayMs(tries), this.options.clock.now());
    record.retryTimer = this.options.clock.schedule(record.nextAttemptAt, () => this.attempt(record, 'retry'));
  }

  /** Records an attempt whose outcome needs no further decision, and reports it. */
  private finishAttempt(record: DeliveryRecord, trigger: Trigger, at: string, result: PostResult): void {
    this.report(record, this.recordAttempt(record, trigger, at, result));
  }

  /** Tells the attempt hooks; a hook that throws is reported and changes nothing. The record is rendered only for `onAttempt`. */
  private report(record: DeliveryRecord, attempt: DeliveryAttempt): void {
    try {
      this.options.onAttemptEnded?.();
      this.options.onAttempt?.(renderDelivery(record), attempt);
    } catch (error) {
      this.reportError(error);
    }
  }

  private reportError(error: unknown): void {
    try {
      (this.options.onError ?? defaultOnError)(error);
    } catch {
      // The last resort must not throw either.
    }
  }

  private recordAttempt(record: DeliveryRecord, trigger: Trigger, at: string, result: PostResult): DeliveryAttempt {
    const attempt: DeliveryAttempt = {
      number: record.attempts.length + 1,
      at,
      real_at: new Date(systemTime.wallNow()).toISOString(),
      response_code: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      trigger,
    };
    record.attempts.push(attempt);
    return attempt;
  }

  /** Sends a delivery again now, as the dashboard's redelivery does; it may duplicate (spec §6.3). */
  async redeliver(organizationId: string, id: string): Promise<DeliveryEvent | undefined> {
    const record = this.records.get(id);
    if (!record || record.organizationId !== organizationId) return undefined;
    await this.attempt(record, 'redelivery');
    return renderDelivery(record);
  }

  /** A delivery of an organization. */
  get(organizationId: string, id: string): DeliveryEvent | undefined {
    const record = this.records.get(id);
    return record && record.organizationId === organizationId ? renderDelivery(record) : undefined;
  }

  /** Deliveries, oldest first, filtered. */
  list(filter: DeliveryFilter = {}): DeliveryEvent[] {
    return this.page(filter).events;
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

  /**
   * What each receiver did with its deliveries (the records kept, docs/fidelity.md row 83): how many
   * deliveries and attempts it got, the answers that were not 2xx (or no answer at all), the deliveries
   * that needed more than one attempt, and the answers slower than `slowMs`.
   */
  receiverFindings(slowMs: number): ReceiverFindings[] {
    return receiverFindings(this.records.values(), slowMs);
  }

  /**
   * Records kept, records forgotten by retention, the cap on a receiver's pending deliveries, and
   * receivers now treated as slow or suspended (`GET /_mock/health`).
   */
  retention(): {
    records: number;
    max_records: number;
    evicted_records: number;
    max_pending_per_receiver: number;
    slow_receivers: number;
    suspended_receivers: number;
  } {
    const { lanes } = this.generation;
    return {
      records: this.records.size,
      max_records: this.maxRecords,
      evicted_records: this.evicted,
      max_pending_per_receiver: this.maxPendingPerReceiver,
      slow_receivers: lanes.slowCount(),
      suspended_receivers: lanes.suspendedCount(),
    };
  }

  /**
   * An endpoint was disabled or deleted (the store tells): its deliveries waiting
   * for a retry expire now, as no attempt will reach it (docs/fidelity.md row 15).
   */
  private endpointWithdrawn(endpointId: string): void {
    for (const record of this.records.values()) {
      if (record.target.endpointId !== endpointId || record.status !== 'pending' || record.retryTimer === null) continue;
      record.retryTimer.cancel();
      record.retryTimer = null;
      record.nextAttemptAt = null;
      this.end(record, 'expired', this.options.endpoints.get(record.organizationId, endpointId) ? 'endpoint_disabled' : 'endpoint_deleted');
    }
  }

  /** Resolves once no attempt is running, waiting or queued (scheduled retries wait on the clock), or once `signal` aborts. */
  settled(signal?: AbortSignal): Promise<void> {
    return this.generation.lanes.settled(signal);
  }

  /** Delivery attempts running or waiting for a slot, and records queued to start (`POST /_mock/clock/run`'s `in_flight`). */
  inFlight(): number {
    return this.generation.lanes.inFlight();
  }

  /** Whether no attempt is running, waiting or queued. */
  isSettled(): boolean {
    return this.generation.lanes.isSettled();
  }

  /**
   * What the instant clock waits for before time moves on: the deliveries in
   * flight to receivers that are not slow (docs/fidelity.md, "Slow receivers").
   * Undefined when there are none.
   */
  instantBarrier(): Promise<void> | undefined {
    return this.generation.lanes.quiet();
  }

  /**
   * Forgets every delivery and ends every attempt of the old state at once:
   * requests in flight are aborted, queued ones never start, and whoever waits
   * for the old deliveries (the instant clock, `clock/run`) is let go.
   */
  reset(): void {
    const old = this.generation;
    this.generation = new Generation(this.laneOptions);
    old.abort.abort();
    old.lanes.release();
    for (const record of this.records.values()) record.retryTimer?.cancel();
    this.records.clear();
    this.ended.clear();
    this.pendingByLane.clear();
    this.sequence = 0;
    this.evicted = 0;
    this.oauth.clear();
  }

  /**
   * Keeps at most `maxRecords`: the records that ended first go first, taken from the front of the
   * queue of ended records, so no pending record is walked over (docs/fidelity.md row 99); pending ones
   * are never dropped. One with an attempt under way (a redelivery) goes to the back and waits its turn.
   */
  private evictEnded(): void {
    let busy = 0;
    while (this.records.size > this.maxRecords && busy < this.ended.size) {
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
}

/** Receivers are told apart by endpoint, or by URL for the legacy model. */
function laneOf(target: DeliveryTarget): string {
  return target.endpointId ?? target.url;
}

function defaultOnError(error: unknown): void {
  process.stderr.write(`bvs-mock: delivery: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
}

/** A limit given when embedding: a whole number of at least 1, or a start-up error naming it. */
function wholeAtLeastOne(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`bvs-mock: ${name} must be a whole number of at least 1, got ${JSON.stringify(value)}`);
  return value;
}
