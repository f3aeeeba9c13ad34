import { setMaxListeners } from 'node:events';
import type { SimulatedClock } from '../clock';
import type { DeliveryAttempt, DeliveryEvent } from '../schemas';
import type { OutboundAuth } from './delivery-authorization';
import { DeliveryLanes, type Admission, type DeliveryLanesOptions } from './delivery-lanes';
import type { DeliveryLog } from './delivery-log';
import { policyOf, triesAmong, type Trigger, type TriggerPolicy } from './delivery-policy';
import { laneOf, renderDelivery, type DeliveryRecord } from './delivery-record';
import { acknowledged, post, type PostResult } from './http-post';
import { SentHeaders } from './sent-headers';
import { MAX_RETRIES, retryDelayMs } from './retry-policy';
import type { WebhookEndpointStore } from './webhook-endpoint-store';

/**
 * The header on every delivery that names the bvs-mock instance sending it, so
 * that bvs-mock refuses a delivery pointed at itself instead of looping.
 */
export const DELIVERY_ORIGIN_HEADER = 'x-bvs-mock-origin';

/** What a delivery's timer does, as plain data (a world's snapshot keeps it): retry the record, or let it join its queue. */
export interface DeliveryTimerTag {
  kind: 'delivery.retry' | 'delivery.release' | 'delivery.resume';
  /** The delivery record's id. */
  record: string;
}

/** Options of {@link DeliveryDispatcher}. */
export interface DeliveryDispatcherOptions {
  clock: SimulatedClock;
  endpoints: WebhookEndpointStore;
  /** Where records end and attempts are written. */
  log: DeliveryLog;
  /** The `Authorization` of each attempt. */
  auth: OutboundAuth;
  lanes: DeliveryLanesOptions;
  /** Real milliseconds a receiver has to answer. */
  timeoutMs: number;
  insecureTls: boolean;
  userAgent: string;
  /** The value of {@link DELIVERY_ORIGIN_HEADER}. */
  origin: string;
  onAttempt?: (delivery: DeliveryEvent, attempt: DeliveryAttempt) => void;
  onAttemptEnded?: () => void;
  onError?: (error: unknown) => void;
}

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

/** Prepare's verdict: the attempt goes, or its endpoint is gone and nothing is sent. */
type Preparation = { go: true } | { go: false; reason: 'endpoint_disabled' | 'endpoint_deleted' };

/** What settle takes from send: when the attempt began (simulated) and what came back. */
interface CompletedAttempt {
  at: string;
  startedAt: number;
  result: PostResult;
  generation: Generation;
}

/** Nothing was sent: the attempt records only why. */
function notSent(error: string): PostResult {
  return { status: null, body: '', durationMs: 0, error };
}

/**
 * The dispatcher: it carries each record from its queue to its receiver. Deliveries to one target
 * keep the engine's order per validation (a queue per target and validation), unless a delay fault
 * holds one back or a retry comes later (docs/fidelity.md row 48). Receivers are isolated: each has
 * its own lane of concurrent attempts, and the instant clock stops waiting for one that is slow
 * (docs/fidelity.md row 60). Each attempt goes through three typed phases, as svix's worker
 * has them: prepare (is the target still there?), send (authorization and POST), settle (record,
 * status, retry), each reading its trigger's row of `TRIGGER_POLICY`. Nothing here blocks the API or
 * the engine, and no promise is dropped: an attempt's failure is reported, never fatal.
 */
export class DeliveryDispatcher {
  private generation: Generation;
  /** The error of an attempt that a suspended receiver's probe kept from going (docs/fidelity.md row 100). */
  private readonly suspendedError: string;
  private readonly sentHeaders = new SentHeaders();

  constructor(private readonly options: DeliveryDispatcherOptions) {
    const { suspendAfterTimeouts } = options.lanes;
    this.suspendedError =
      `receiver_suspended: its last ${suspendAfterTimeouts} attempts got no answer within ${options.timeoutMs} ms; ` +
      `while one attempt every ${options.timeoutMs * 2} ms at most checks whether it answers again, the others are not sent and wait for their retry`;
    this.generation = new Generation(options.lanes);
  }

  /** A record joins its queue, and goes when the ones before it of its receiver and validation are done. */
  enqueue(record: DeliveryRecord): void {
    const generation = this.generation;
    const queue = generation.queues.get(record.queueKey) ?? [];
    queue.push(record);
    generation.queues.set(record.queueKey, queue);
    generation.lanes.queued(laneOf(record.target));
    this.pump(generation, record.queueKey);
  }

  /** Held back by a delay fault: it joins its queue only when the delay is over, behind what was emitted meanwhile. */
  holdBack(record: DeliveryRecord, delayMs: number): void {
    this.restoreTimer(record, this.options.clock.now() + delayMs, 'delivery.release');
  }

  /**
   * Schedules a record's attempt at `at`, as its timer's descriptor says (a world restored from a snapshot
   * does it again): a retry, or joining its queue after a delay fault; `delivery.resume` is an attempt that was
   * under way or queued when the snapshot was taken: it goes again, as a retry when it had attempts before.
   */
  restoreTimer(record: DeliveryRecord, at: number, kind: DeliveryTimerTag['kind']): void {
    const tag: DeliveryTimerTag = { kind, record: record.id };
    const joinQueue = () => {
      record.retryTimer = null;
      this.enqueue(record);
    };
    const retries = kind === 'delivery.retry' || (kind === 'delivery.resume' && record.attempts.length > 0);
    // A retry carries the instant it was due, however late its timer fired (docs/fidelity.md row 48).
    this.schedule(record, at, retries ? () => this.attempt(record, 'retry', this.generation, at) : joinQueue, tag);
  }

  /** The one attempt scheduled for a record: one that was scheduled before and has not come yet is cancelled. */
  private schedule(record: DeliveryRecord, at: number, run: () => void, tag: DeliveryTimerTag): void {
    record.retryTimer?.cancel();
    record.nextAttemptAt = at;
    record.retryTimer = this.options.clock.schedule(at, run, tag);
  }

  /** A record that never goes (a disabled endpoint, a full backlog): it has ended; its one attempt records why. */
  refused(record: DeliveryRecord, error: string): void {
    this.finishAttempt(record, 'first', this.options.clock.iso(), notSent(error));
  }

  /** Sends a delivery again now, as the dashboard's redelivery does; it may duplicate (spec §6.3). */
  redeliver(record: DeliveryRecord): Promise<void> {
    return this.attempt(record, 'redelivery');
  }

  /**
   * An endpoint was disabled or deleted (the store tells): its deliveries waiting
   * for a retry expire now, as no attempt will reach it (docs/fidelity.md row 15).
   */
  endpointWithdrawn(endpointId: string): void {
    const { endpoints, log } = this.options;
    for (const record of log.waitingFor(endpointId)) {
      record.retryTimer!.cancel();
      record.retryTimer = null;
      record.nextAttemptAt = null;
      log.end(record, { status: 'expired', reason: endpoints.get(record.organizationId, endpointId) ? 'endpoint_disabled' : 'endpoint_deleted' });
    }
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

  /** One attempt: prepare, send, settle, by its trigger's policy. It never rejects: anything unexpected is reported. */
  private async attempt(record: DeliveryRecord, trigger: Trigger, generation = this.generation, dueAt?: number): Promise<void> {
    const lane = laneOf(record.target);
    generation.lanes.begin(lane);
    try {
      if (generation.over) return;
      const policy = policyOf(trigger);
      const preparation = this.prepare(record, policy);
      if (!preparation.go) {
        this.settleGone(record, trigger, policy, preparation.reason);
        return;
      }
      // A scheduled attempt is the instant it was due; the realtime clock may be past it (a timer wakes late, times the speed).
      const startedAt = dueAt === undefined ? this.options.clock.now() : Math.min(dueAt, this.options.clock.now());
      const at = new Date(startedAt).toISOString();
      record.running += 1;
      let result: PostResult;
      try {
        result = await this.send(record, policy, generation);
      } finally {
        record.running -= 1;
      }
      // A reset while the attempt ran: the record belongs to the old state, nothing more happens to it.
      if (generation.over) return;
      await this.settle(record, trigger, policy, { at, startedAt, result, generation });
    } catch (error) {
      this.reportError(error);
    } finally {
      generation.lanes.end(lane);
    }
  }

  /** Prepare: the attempt takes the place of the scheduled one (but a duplicate), and goes unless its endpoint was disabled or deleted since (spec §2, §3). */
  private prepare(record: DeliveryRecord, policy: TriggerPolicy): Preparation {
    if (policy.replacesScheduled) {
      // Cancelling the timer that brought a retry here does nothing; one that waits, when a redelivery comes first, goes.
      record.retryTimer?.cancel();
      record.retryTimer = null;
      record.nextAttemptAt = null;
    }
    if (record.target.model !== 'endpoint' || !policy.checksEndpoint) return { go: true };
    const stored = this.options.endpoints.get(record.organizationId, record.target.endpointId!);
    if (stored?.endpoint.enabled) return { go: true };
    return { go: false, reason: stored ? 'endpoint_disabled' : 'endpoint_deleted' };
  }

  /** Settle an attempt whose endpoint is gone: a pending record expires; one already ended stays as it is. */
  private settleGone(record: DeliveryRecord, trigger: Trigger, policy: TriggerPolicy, reason: 'endpoint_disabled' | 'endpoint_deleted'): void {
    if (record.status === 'pending') this.options.log.end(record, { status: 'expired', reason });
    if (policy.recordsRefusal) this.finishAttempt(record, trigger, this.options.clock.iso(), notSent(reason));
  }

  /**
   * Send: one attempt, holding one of the receiver's slots. A suspended receiver gets it only as its
   * probe, one at a time; the others come back at once as not sent (row 100), unless the trigger passes
   * suspension (a redelivery: someone asked for it, and its answer tells whether the receiver is back).
   */
  private async send(record: DeliveryRecord, policy: TriggerPolicy, generation: Generation): Promise<PostResult> {
    const lane = laneOf(record.target);
    const release = await generation.lanes.acquire(lane);
    let result = notSent('cancelled');
    let admission: Admission | null = null;
    let sent = false;
    try {
      if (generation.over) return result;
      admission = policy.passesSuspension ? 'send' : generation.lanes.admit(lane);
      if (admission === 'suspended') return notSent(this.suspendedError);
      const auth = await this.options.auth.authorize(record);
      if (generation.over) return result;
      sent = auth.ok;
      if (!auth.ok) return (result = notSent(auth.error));
      const headers = {
        'content-type': 'application/json',
        'user-agent': this.options.userAgent,
        [DELIVERY_ORIGIN_HEADER]: this.options.origin,
        ...auth.headers,
      };
      const answer = await post({
        url: record.target.url,
        headers,
        body: record.body,
        timeoutMs: this.options.timeoutMs,
        insecureTls: this.options.insecureTls,
        signal: generation.abort.signal,
      });
      result = { ...answer, requestHeaders: this.sentHeaders.of(headers, Object.keys(auth.headers), [DELIVERY_ORIGIN_HEADER]) };
      return result;
    } finally {
      const outcome = !sent || result.error === 'cancelled' ? 'not_sent' : result.error === 'timeout' ? 'timeout' : 'other';
      if (admission !== null && admission !== 'suspended') generation.lanes.observe(lane, admission, outcome);
      release(outcome === 'other');
    }
  }

  /** Settle: the attempt is written, and by the trigger's policy the record ends succeeded or waits for a retry; a duplicate may follow. */
  private async settle(record: DeliveryRecord, trigger: Trigger, policy: TriggerPolicy, completed: CompletedAttempt): Promise<void> {
    const attempt = this.options.log.recordAttempt(record, trigger, completed.at, completed.result);
    if (policy.settlesStatus) {
      // A 2xx whose answer broke off is not an acknowledgement: retried like any failure (spec §6 rules 2 and 4; docs/fidelity.md row 107).
      if (acknowledged(completed.result)) this.options.log.end(record, { status: 'succeeded', reason: null });
      // Only a pending record waits for a retry: one a redelivery ended meanwhile stays ended.
      else if (record.status === 'pending') this.scheduleRetry(record, completed.startedAt);
    }
    this.report(record, attempt);
    if (policy.followedByDuplicate && record.duplicate) {
      // A duplicate fault sends the same body once more, as a retry or a manual redelivery might (spec §6.3).
      record.duplicate = false;
      await this.attempt(record, 'duplicate_fault', completed.generation);
    }
  }

  /**
   * The next try counts from the attempt's own start, however the clock was moved meanwhile and however long the
   * receiver took to answer: on the realtime clock at a high speed, an answer of 20 real ms is 40 simulated seconds,
   * and the retry due before the answer came goes at once, carrying the instant it was due (docs/fidelity.md row 27).
   */
  private scheduleRetry(record: DeliveryRecord, startedAt: number): void {
    const tries = triesAmong(record.attempts);
    if (tries > MAX_RETRIES) {
      this.options.log.end(record, { status: 'failed', reason: 'retries_exhausted' });
      return;
    }
    this.restoreTimer(record, startedAt + retryDelayMs(tries), 'delivery.retry');
  }

  /** Records an attempt whose outcome needs no further decision, and reports it. */
  private finishAttempt(record: DeliveryRecord, trigger: Trigger, at: string, result: PostResult): void {
    this.report(record, this.options.log.recordAttempt(record, trigger, at, result));
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

  /** Resolves once no attempt is running, waiting or queued (scheduled retries wait on the clock), or once `signal` aborts. */
  settled(signal?: AbortSignal): Promise<void> {
    return this.generation.lanes.settled(signal);
  }

  /** Delivery attempts running or waiting for a slot, and records queued to start. */
  inFlight(): number {
    return this.generation.lanes.inFlight();
  }

  /** Whether no attempt is running, waiting or queued. */
  isSettled(): boolean {
    return this.generation.lanes.isSettled();
  }

  /** What the instant clock waits for: the deliveries in flight to receivers that are not slow; undefined when there are none. */
  instantBarrier(): Promise<void> | undefined {
    return this.generation.lanes.quiet();
  }

  /** Receivers now treated as slow or suspended (`GET /_mock/health`). */
  receivers(): { slow_receivers: number; suspended_receivers: number } {
    const { lanes } = this.generation;
    return { slow_receivers: lanes.slowCount(), suspended_receivers: lanes.suspendedCount() };
  }

  /**
   * Ends every attempt of the old state at once: requests in flight are aborted, queued ones never
   * start, and whoever waits for the old deliveries (the instant clock, `clock/run`) is let go.
   */
  reset(): void {
    const old = this.generation;
    this.generation = new Generation(this.options.lanes);
    old.abort.abort();
    old.lanes.release();
  }
}

function defaultOnError(error: unknown): void {
  process.stderr.write(`bvs-mock: delivery: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
}
