import type { SimulatedClock } from '../clock';
import type { OrganizationRegistry } from '../config';
import type { EngineEvent, IdSource } from '../engine';
import type { FaultPlan } from '../faults/fault-plan';
import type { DeliveryAttempt, DeliveryEvent, DeliveryStatus } from '../schemas';
import { renderDelivery, type DeliveryRecord, type DeliveryTarget } from './delivery-record';
import { post, type PostResult } from './http-post';
import { OAuthTokenCache } from './oauth-token-cache';
import { MAX_RETRIES, retryDelayMs } from './retry-policy';
import type { WebhookEndpointStore } from './webhook-endpoint-store';

/** Real milliseconds a receiver has to answer before the attempt counts as `timeout` (docs/fidelity.md). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

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
  /** Attempts in flight at once, over every receiver. Default 32. */
  concurrency?: number;
  /** Called after every attempt (`bvs-mock play` prints them). */
  onAttempt?: (delivery: DeliveryEvent, attempt: DeliveryAttempt) => void;
  version?: string;
}

/** Filters of {@link Deliveries.list}, as `GET /_mock/events` takes them. */
export interface DeliveryFilter {
  organizationId?: string;
  type?: string;
  status?: string;
  resourceId?: string;
  endpointId?: string;
  validationId?: string;
}

type Trigger = DeliveryAttempt['trigger'];

/**
 * Webhook delivery (spec §5.5, §5.6, §6 Subscription and delivery, §8): every
 * engine event becomes one delivery record per target, each ending succeeded,
 * failed or expired, never dropped. Deliveries to one target keep the engine's
 * order per validation (a queue per target and validation), unless a delay
 * fault holds one back or a retry comes later (docs/fidelity.md row 48).
 * Sending is asynchronous: nothing here blocks the API or the engine.
 */
export class Deliveries {
  private readonly records = new Map<string, DeliveryRecord>();
  private readonly queues = new Map<string, DeliveryRecord[]>();
  private readonly busy = new Set<string>();
  private readonly slotWaiters: Array<() => void> = [];
  private readonly settledWaiters: Array<() => void> = [];
  private inFlight = 0;
  private generation = 0;
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly userAgent: string;
  readonly oauth: OAuthTokenCache;

  constructor(private readonly options: DeliveriesOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
    this.concurrency = options.concurrency ?? 32;
    this.userAgent = `bvs-mock/${options.version ?? '0.1.0'}`;
    this.oauth = new OAuthTokenCache(options.clock, { timeoutMs: this.timeoutMs, insecureTls: options.insecureTls ?? false });
  }

  /** Takes one engine event: a record per target, queued in order. Subscribe it to the engine. */
  accept(event: EngineEvent): void {
    const { clock, ids } = this.options;
    const targets = this.targetsOf(event);
    if (targets.length === 0) return;
    const body = JSON.stringify(event.body);
    for (const { target, enabled } of targets) {
      const record: DeliveryRecord = {
        id: ids.next('evt'),
        type: event.type,
        organizationId: event.organizationId,
        target,
        status: 'pending',
        validationId: event.validationId,
        resourceId: event.resourceId,
        createdAt: clock.iso(),
        nextAttemptAt: null,
        attempts: [],
        payload: event.body,
        body,
        queueKey: `${target.endpointId ?? target.url}\u0000${event.validationId}`,
        duplicate: false,
        retryTimer: null,
      };
      this.records.set(record.id, record);
      if (!enabled) {
        // A disabled endpoint receives nothing: the delivery fails at once, without retry (spec §6, §7.3).
        record.status = 'failed';
        this.finishAttempt(record, 'first', clock.iso(), { status: null, body: '', durationMs: 0, error: 'endpoint_disabled' });
        continue;
      }
      const faults = this.options.faults.forDelivery(event);
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
  }

  private enqueue(record: DeliveryRecord): void {
    const queue = this.queues.get(record.queueKey) ?? [];
    queue.push(record);
    this.queues.set(record.queueKey, queue);
    this.pump(record.queueKey);
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

  private pump(key: string): void {
    if (this.busy.has(key)) return;
    const queue = this.queues.get(key);
    const next = queue?.shift();
    if (!next) {
      this.queues.delete(key);
      this.checkSettled();
      return;
    }
    this.busy.add(key);
    const generation = this.generation;
    void this.attempt(next, 'first').finally(() => {
      if (generation !== this.generation) return;
      this.busy.delete(key);
      this.pump(key);
    });
  }

  /** One attempt; then the record's status follows docs/fidelity.md row 15. */
  private async attempt(record: DeliveryRecord, trigger: Trigger): Promise<void> {
    const generation = this.generation;
    if (trigger === 'redelivery') {
      // A redelivery replaces a waiting retry: one schedule at a time.
      record.retryTimer?.cancel();
    }
    record.retryTimer = null;
    record.nextAttemptAt = null;
    if (record.target.model === 'endpoint' && trigger !== 'duplicate_fault') {
      const stored = this.options.endpoints.get(record.organizationId, record.target.endpointId!);
      if (!stored || !stored.endpoint.enabled) {
        if (trigger === 'redelivery') {
          // A disabled or deleted endpoint receives nothing, not even a redelivery (spec §2, §3).
          if (record.status === 'pending') record.status = 'expired';
          this.finishAttempt(record, trigger, this.options.clock.iso(), { status: null, body: '', durationMs: 0, error: stored ? 'endpoint_disabled' : 'endpoint_deleted' });
        } else {
          record.status = 'expired';
        }
        this.checkSettled();
        return;
      }
    }
    const at = this.options.clock.iso();
    await this.acquireSlot();
    let result: PostResult;
    try {
      const auth = await this.authorization(record);
      result = auth.ok
        ? await post({
            url: record.target.url,
            headers: { 'content-type': 'application/json', 'user-agent': this.userAgent, ...auth.headers },
            body: record.body,
            timeoutMs: this.timeoutMs,
            insecureTls: this.options.insecureTls ?? false,
          })
        : { status: null, body: '', durationMs: 0, error: auth.error };
    } finally {
      this.releaseSlot();
    }
    if (generation !== this.generation) return;
    const attempt = this.recordAttempt(record, trigger, at, result);
    const delivered = result.status !== null && result.status >= 200 && result.status <= 299;
    if (trigger !== 'duplicate_fault') {
      if (delivered) record.status = 'succeeded';
      else if (trigger !== 'redelivery' || record.status === 'pending') this.scheduleRetry(record);
    }
    this.options.onAttempt?.(renderDelivery(record), attempt);
    if (trigger === 'duplicate_fault') return;
    if (trigger === 'first' && record.duplicate) {
      // A duplicate fault sends the same body once more, as a retry or a manual redelivery might (spec §6.3).
      record.duplicate = false;
      await this.attempt(record, 'duplicate_fault');
    }
    this.checkSettled();
  }

  private scheduleRetry(record: DeliveryRecord): void {
    const tries = record.attempts.filter((attempt) => attempt.trigger === 'first' || attempt.trigger === 'retry').length;
    if (tries > MAX_RETRIES) {
      record.status = 'failed';
      return;
    }
    record.status = 'pending';
    record.nextAttemptAt = this.options.clock.now() + retryDelayMs(tries);
    record.retryTimer = this.options.clock.schedule(record.nextAttemptAt, () => void this.attempt(record, 'retry'));
  }

  /** Records an attempt whose outcome needs no further decision, and reports it. */
  private finishAttempt(record: DeliveryRecord, trigger: Trigger, at: string, result: PostResult): void {
    const attempt = this.recordAttempt(record, trigger, at, result);
    this.options.onAttempt?.(renderDelivery(record), attempt);
  }

  private recordAttempt(record: DeliveryRecord, trigger: Trigger, at: string, result: PostResult): DeliveryAttempt {
    const attempt: DeliveryAttempt = {
      number: record.attempts.length + 1,
      at,
      response_code: result.status,
      response_body: result.body,
      duration_ms: result.durationMs,
      error: result.error,
      trigger,
    };
    record.attempts.push(attempt);
    return attempt;
  }

  private async authorization(record: DeliveryRecord): Promise<{ ok: true; headers: Record<string, string> } | { ok: false; error: string }> {
    const { target } = record;
    if (target.model === 'legacy') {
      const token = this.options.registry.get(record.organizationId)?.settings.legacy_webhook_token;
      return { ok: true, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } };
    }
    const stored = this.options.endpoints.get(record.organizationId, target.endpointId!);
    if (!stored) return { ok: false, error: 'endpoint_deleted' };
    switch (stored.endpoint.auth_type) {
      case 'none':
        return { ok: true, headers: {} };
      case 'secret':
        return stored.secret === null ? { ok: false, error: 'endpoint_has_no_secret' } : { ok: true, headers: { authorization: `Bearer ${stored.secret}` } };
      case 'oauth': {
        const config = this.options.registry.get(record.organizationId)?.settings.oauth;
        if (!config) return { ok: false, error: 'oauth_not_configured: the organization has no settings.oauth' };
        const token = await this.oauth.token(record.organizationId, config);
        return token.ok ? { ok: true, headers: { authorization: `Bearer ${token.token}` } } : token;
      }
    }
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
    const out: DeliveryEvent[] = [];
    for (const record of this.records.values()) {
      if (filter.organizationId !== undefined && record.organizationId !== filter.organizationId) continue;
      if (filter.type !== undefined && record.type !== filter.type) continue;
      if (filter.status !== undefined && record.status !== filter.status) continue;
      if (filter.resourceId !== undefined && record.resourceId !== filter.resourceId) continue;
      if (filter.endpointId !== undefined && record.target.endpointId !== filter.endpointId) continue;
      if (filter.validationId !== undefined && record.validationId !== filter.validationId) continue;
      out.push(renderDelivery(record));
    }
    return out;
  }

  /** How many deliveries are in each state. */
  counts(): Record<DeliveryStatus, number> {
    const counts: Record<DeliveryStatus, number> = { pending: 0, succeeded: 0, failed: 0, expired: 0 };
    for (const record of this.records.values()) counts[record.status] += 1;
    return counts;
  }

  /**
   * An endpoint was disabled or deleted: its deliveries waiting for a retry
   * expire now, as no attempt will reach it (docs/fidelity.md row 15).
   */
  endpointWithdrawn(endpointId: string): void {
    for (const record of this.records.values()) {
      if (record.target.endpointId !== endpointId || record.status !== 'pending' || record.retryTimer === null) continue;
      record.retryTimer.cancel();
      record.retryTimer = null;
      record.nextAttemptAt = null;
      record.status = 'expired';
    }
  }

  /** Resolves once no attempt is running or queued (scheduled retries wait on the clock). */
  settled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** Whether no attempt is running or queued. */
  isSettled(): boolean {
    return this.inFlight === 0 && this.busy.size === 0 && this.queues.size === 0;
  }

  private checkSettled(): void {
    if (!this.isSettled()) return;
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }

  private acquireSlot(): Promise<void> {
    if (this.inFlight < this.concurrency) {
      this.inFlight += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.slotWaiters.push(() => {
        this.inFlight += 1;
        resolve();
      }),
    );
  }

  private releaseSlot(): void {
    this.inFlight -= 1;
    this.slotWaiters.shift()?.();
  }

  /** Forgets every delivery; attempts still in flight are ignored when they end. */
  reset(): void {
    this.generation += 1;
    for (const record of this.records.values()) record.retryTimer?.cancel();
    this.records.clear();
    this.queues.clear();
    this.busy.clear();
    this.oauth.clear();
    this.checkSettled();
  }
}
