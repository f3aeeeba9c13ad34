import { systemTime } from '../wall';
import type { SimulatedClock } from '../clock';
import type { OrganizationRegistry } from '../config';
import type { EngineEvent, IdSource } from '../engine';
import type { FaultPlan } from '../faults/fault-plan';
import type { DeliveryAttempt, DeliveryEvent, DeliveryStatus, Readings, ReceiverFindings } from '../schemas';
import { OutboundAuth } from './delivery-authorization';
import { DeliveryDispatcher, type DeliveryTimerTag } from './delivery-dispatcher';
import { DEFAULT_LANE_CONCURRENCY, DEFAULT_SLOW_RECEIVER_MS, DEFAULT_SUSPEND_AFTER_TIMEOUTS, type DeliveryLanesOptions } from './delivery-lanes';
import { DeliveryLog, type DeliveryFilter, type DeliveryLogSnapshot } from './delivery-log';
import { renderDelivery, type DeliveryTarget } from './delivery-record';
import type { OAuthTokenCache } from './oauth-token-cache';
import { tolerantBody } from './tolerance';
import type { WebhookEndpointStore } from './webhook-endpoint-store';

export { DELIVERY_ORIGIN_HEADER } from './delivery-dispatcher';
export type { DeliveryFilter } from './delivery-log';
export type { DeliveryTimerTag } from './delivery-dispatcher';

/**
 * The deliveries as plain data (a world's snapshot): the log's records, and the pending ones that were under
 * way or queued (no timer of theirs on the clock), which a restored world sends again from the snapshot's instant.
 */
export interface DeliveriesSnapshot {
  log: DeliveryLogSnapshot;
  /** Ids of pending records under way or queued, in the order of creation. */
  resume: string[];
}

/** Real milliseconds a receiver has to answer before the attempt counts as `timeout` (docs/fidelity.md). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/** Delivery records kept at most; the oldest ended ones are forgotten first (docs/fidelity.md row 59). */
export const DEFAULT_MAX_DELIVERY_RECORDS = 20_000;

/**
 * Deliveries one receiver (an endpoint, or a legacy URL) may have pending at once; one more fails at
 * once with `reason: receiver_backlog` (docs/fidelity.md row 99). Pending records are never evicted, so
 * without a cap one receiver that hangs grew them without end (196,291 records, 638 MB). A receiver
 * that answers keeps a handful pending; 10,000 is a test suite of 800 validations of twelve events
 * each waiting on a manual clock for a receiver that is down, at about 3 KB each some 30 MB.
 */
export const DEFAULT_MAX_PENDING_PER_RECEIVER = 10_000;

/** What each receiver did with its deliveries; its schema: src/schemas/report-answers.ts. */
export type { ReceiverFindings };

/** Options of {@link Deliveries}. */
export interface DeliveriesOptions {
  clock: SimulatedClock;
  /** The wall clock attempts' real times are read from; default the machine's. */
  wallNow?: () => number;
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
  /** The value of `DELIVERY_ORIGIN_HEADER` on every delivery. */
  origin: string;
  /** The readings played (src/schemas/readings.ts): `legacy-url-and-endpoints` decides whether a legacy URL's events also reach endpoints. */
  readings?: Pick<Readings, 'legacy-url-and-endpoints'>;
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
  /** The label of the request that created a validation (its records show it); default none. */
  labelOf?: (validationId: string) => string | undefined;
}

/**
 * Webhook delivery (spec §5.5, §5.6, §6 Subscription and delivery, §8): every engine event becomes one
 * delivery record per target, each ending succeeded, failed or expired, never dropped. Three parts, as
 * svix has them: the delivery log (`delivery-log.ts`: records, pages, counts, findings, retention), the
 * dispatcher (`delivery-dispatcher.ts`: lanes, and each attempt's prepare, send and settle by its
 * trigger's policy, `delivery-policy.ts`) and outbound auth (`delivery-authorization.ts`). This class
 * takes engine events in and answers the rest of the mock; docs/decisions/0005-deliveries-in-phases.md.
 */
export class Deliveries {
  private readonly log: DeliveryLog;
  private readonly dispatcher: DeliveryDispatcher;
  private readonly auth: OutboundAuth;
  /** The OAuth tokens fetched for deliveries (a test reads how many). */
  readonly oauth: OAuthTokenCache;

  constructor(private readonly options: DeliveriesOptions) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    const insecureTls = options.insecureTls ?? false;
    const lanes: DeliveryLanesOptions = {
      concurrency: options.concurrency ?? DEFAULT_LANE_CONCURRENCY,
      slowReceiverMs: options.slowReceiverMs ?? DEFAULT_SLOW_RECEIVER_MS,
      suspendAfterTimeouts: wholeAtLeastOne('suspendReceiverAfterTimeouts', options.suspendAfterTimeouts ?? DEFAULT_SUSPEND_AFTER_TIMEOUTS),
      probeIntervalMs: timeoutMs,
    };
    this.log = new DeliveryLog({
      maxRecords: options.maxRecords ?? DEFAULT_MAX_DELIVERY_RECORDS,
      maxPendingPerReceiver: wholeAtLeastOne(
        'maxPendingPerReceiver (--max-pending-per-receiver)',
        options.maxPendingPerReceiver ?? DEFAULT_MAX_PENDING_PER_RECEIVER,
      ),
      wallNow: options.wallNow ?? systemTime.wallNow,
    });
    this.auth = new OutboundAuth({ clock: options.clock, endpoints: options.endpoints, registry: options.registry, timeoutMs, insecureTls });
    this.oauth = this.auth.oauth;
    this.dispatcher = new DeliveryDispatcher({
      clock: options.clock,
      endpoints: options.endpoints,
      log: this.log,
      auth: this.auth,
      lanes,
      timeoutMs,
      insecureTls,
      userAgent: options.userAgent,
      origin: options.origin,
      onAttempt: options.onAttempt,
      onAttemptEnded: options.onAttemptEnded,
      onError: options.onError,
    });
    options.endpoints.onWithdrawn((endpointId) => this.dispatcher.endpointWithdrawn(endpointId));
  }

  /**
   * Takes one engine event: a record per target, queued in order. Subscribe it to the engine. Answers the body
   * sent and the records made (none when no receiver takes the event; then its body was not rendered).
   */
  accept(event: EngineEvent): { body: string; records: Array<{ id: string; legacy: boolean }> } | undefined {
    const { clock, ids } = this.options;
    const targets = this.targetsOf(event);
    if (targets.length === 0) return undefined;
    const faults = this.options.faults.forDelivery(event);
    const tolerant = faults.tolerance || (this.options.tolerance?.(event) ?? false);
    const body = JSON.stringify(tolerant ? tolerantBody(event.body, this.options.seed ?? 1, event.sequence) : event.body);
    const label = this.options.labelOf?.(event.validationId);
    const made: Array<{ id: string; legacy: boolean }> = [];
    for (const { target, enabled } of targets) {
      const { record, backlog } = this.log.create({ id: ids.next('evt'), event, target, body, createdAt: clock.iso(), label });
      made.push({ id: record.id, legacy: target.model === 'legacy' });
      if (!enabled) {
        // A disabled endpoint receives nothing: the delivery fails at once, without retry (spec §6, §7.3).
        this.log.end(record, { status: 'failed', reason: 'endpoint_disabled' });
        this.dispatcher.refused(record, 'endpoint_disabled');
        continue;
      }
      if (this.log.backlogFull(backlog)) {
        // The receiver's backlog is full: this one fails at once, so one receiver cannot grow the records without end (row 99).
        this.log.end(record, { status: 'failed', reason: 'receiver_backlog' });
        this.dispatcher.refused(record, this.log.backlogError(backlog));
        continue;
      }
      record.duplicate = faults.duplicate;
      if (faults.delayMs > 0) this.dispatcher.holdBack(record, faults.delayMs);
      else this.dispatcher.enqueue(record);
    }
    this.log.evictEnded();
    return { body, records: made };
  }

  /**
   * Where an event goes: every enabled endpoint subscribed to its type, and the `webhook_url` of its resource (legacy
   * model). Under the reading `legacy-url-and-endpoints=legacy-only` (docs/fidelity.md row 58) an event with a legacy
   * URL goes there alone.
   */
  private targetsOf(event: EngineEvent): Array<{ target: DeliveryTarget; enabled: boolean }> {
    const legacyOnly = event.legacyWebhookUrl !== null && this.options.readings?.['legacy-url-and-endpoints'] === 'legacy-only';
    const subscribers = legacyOnly ? [] : this.options.endpoints.subscribers(event.organizationId, event.type);
    const targets: Array<{ target: DeliveryTarget; enabled: boolean }> = subscribers.map((stored) => ({
      target: { model: 'endpoint' as const, endpointId: stored.endpoint.id, url: stored.endpoint.url, authType: stored.endpoint.auth_type },
      enabled: stored.endpoint.enabled,
    }));
    if (event.legacyWebhookUrl !== null) {
      targets.push({ target: { model: 'legacy', endpointId: null, url: event.legacyWebhookUrl, authType: 'legacy_token' }, enabled: true });
    }
    return targets;
  }

  /** Sends a delivery again now, as the dashboard's redelivery does; it may duplicate (spec §6.3). */
  async redeliver(organizationId: string, id: string): Promise<DeliveryEvent | undefined> {
    const record = this.log.find(organizationId, id);
    if (!record) return undefined;
    await this.dispatcher.redeliver(record);
    return renderDelivery(record);
  }

  /** A delivery of an organization. */
  get(organizationId: string, id: string): DeliveryEvent | undefined {
    const record = this.log.find(organizationId, id);
    return record ? renderDelivery(record) : undefined;
  }

  /** Deliveries, oldest first, filtered. */
  list(filter: DeliveryFilter = {}): DeliveryEvent[] {
    return this.log.page(filter).events;
  }

  /** One page of deliveries, oldest first (or newest first), filtered, and the cursor of the next page (null on the last). */
  page(filter: DeliveryFilter = {}): { events: DeliveryEvent[]; next: number | null } {
    return this.log.page(filter);
  }

  /** How many deliveries are in each state. */
  counts(): Record<DeliveryStatus, number> {
    return this.log.counts();
  }

  /** Deliveries kept, by event type and status (the contract report), without rendering a record. */
  countsByType(): Map<string, Record<DeliveryStatus, number>> {
    return this.log.countsByType();
  }

  /**
   * What each receiver did with its deliveries (the records kept, docs/fidelity.md row 83): how many
   * deliveries and attempts it got, the answers that were not 2xx (or no answer at all), the deliveries
   * that needed more than one attempt, and the answers slower than `slowMs`.
   */
  receiverFindings(slowMs: number): ReceiverFindings[] {
    return this.log.receiverFindings(slowMs);
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
    return { ...this.log.retention(), ...this.dispatcher.receivers() };
  }

  /** Resolves once no attempt is running, waiting or queued (scheduled retries wait on the clock), or once `signal` aborts. */
  settled(signal?: AbortSignal): Promise<void> {
    return this.dispatcher.settled(signal);
  }

  /** Delivery attempts running or waiting for a slot, and records queued to start (`POST /_mock/clock/run`'s `in_flight`). */
  inFlight(): number {
    return this.dispatcher.inFlight();
  }

  /** Whether no attempt is running, waiting or queued. */
  isSettled(): boolean {
    return this.dispatcher.isSettled();
  }

  /**
   * What the instant clock waits for before time moves on: the deliveries in
   * flight to receivers that are not slow (docs/fidelity.md row 60).
   * Undefined when there are none.
   */
  instantBarrier(): Promise<void> | undefined {
    return this.dispatcher.instantBarrier();
  }

  /**
   * Every record, as plain data (sharing attempts: copy it before it is kept). Receivers' health (slow,
   * suspended) and the OAuth tokens fetched for deliveries are not kept: a restored world learns them again.
   */
  snapshot(): DeliveriesSnapshot {
    const log = this.log.snapshot();
    const resume = log.records.filter((record) => record.status === 'pending' && this.log.byId(record.id)?.retryTimer === null).map((record) => record.id);
    return { log, resume };
  }

  /** Takes a snapshot's records into these new deliveries; their timers come after, through {@link restoreTimer}. */
  restore(snapshot: DeliveriesSnapshot): void {
    this.log.restore(snapshot.log);
  }

  /** Schedules again, at `at`, a delivery's timer a snapshot kept; throws when it names no pending record of it. */
  restoreTimer(at: number, tag: DeliveryTimerTag): void {
    const record = this.log.byId(tag.record);
    if (record === undefined || record.status !== 'pending') throw new Error(`timer ${JSON.stringify(tag)} names no pending delivery record of the snapshot`);
    if (record.retryTimer !== null) throw new Error(`timer ${JSON.stringify(tag)} is the second timer of delivery ${tag.record}`);
    this.dispatcher.restoreTimer(record, at, tag.kind);
  }

  /**
   * Forgets every delivery and ends every attempt of the old state at once:
   * requests in flight are aborted, queued ones never start, and whoever waits
   * for the old deliveries (the instant clock, `clock/run`) is let go.
   */
  reset(): void {
    this.dispatcher.reset();
    this.log.clear();
    this.auth.clear();
  }
}

/** A limit given when embedding: a whole number of at least 1, or a start-up error naming it. */
function wholeAtLeastOne(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new Error(`bvs-mock: ${name} must be a whole number of at least 1, got ${JSON.stringify(value)}`);
  return value;
}
