import { createRandom, type Random, type RandomState } from '../engine';
import type { ActiveFault, ApiErrorCode, EventType, FaultRequest } from '../schemas';

/** An injected fault with its id, as `GET /_mock/faults` lists it (src/schemas/fault-answers.ts). */
export type { ActiveFault };

/** What the faults decide for one delivery. */
export interface DeliveryFaultDecision {
  duplicate: boolean;
  /** Send the event in tolerance mode (src/delivery/tolerance.ts). */
  tolerance: boolean;
  /** Simulated milliseconds to hold the first attempt back, or 0. */
  delayMs: number;
}

/** What the faults decide for one API request. */
export interface ApiFaultDecision {
  error: ApiErrorCode | null;
  /** With a 429: the seconds to send as Retry-After. */
  retryAfterS: number | null;
  latencyMs: number;
  /** Reset the connection: no answer at all. */
  reset: boolean;
  /** Revoke the request's access token before its expiry: 401 invalid_token. */
  revokeToken: boolean;
}

/**
 * The faults injected through `POST /_mock/faults` (docs/design.md, control API):
 * duplicate or delayed deliveries, and errors or latency on matching API
 * requests. Which deliveries and requests are hit is drawn from a seeded random
 * source, so a run with the same seed hits the same ones.
 */
export class FaultPlan {
  private faults: ActiveFault[] = [];
  private random: Random;
  private counter = 0;

  constructor(private readonly seed: number) {
    this.random = createRandom(seed ^ 0x5eed);
  }

  add(fault: FaultRequest): ActiveFault {
    this.counter += 1;
    const active: ActiveFault = { ...fault, id: `flt_${this.counter}`, applied: 0 };
    this.faults.push(active);
    return active;
  }

  list(): ActiveFault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  /** Whether any fault is active (the client observer's rate check applies while one is). */
  get active(): boolean {
    return this.faults.length > 0;
  }

  /** The faults (with how often each applied), their numbering and where the random draws stand: a world's snapshot. */
  snapshot(): { faults: ActiveFault[]; counter: number; random: RandomState } {
    return { faults: this.list(), counter: this.counter, random: this.random.state() };
  }

  /** Takes what a snapshot kept, into this new plan. */
  restore(snapshot: { faults: ActiveFault[]; counter: number; random: RandomState }): void {
    this.faults = snapshot.faults.map((fault) => ({ ...fault }));
    this.counter = snapshot.counter;
    this.random = createRandom(this.seed ^ 0x5eed, snapshot.random);
  }

  /** Removes every fault and starts the random draws over. */
  clear(): void {
    this.faults = [];
    this.random = createRandom(this.seed ^ 0x5eed);
  }

  /** Decides the faults of one delivery. */
  forDelivery(event: { type: EventType; organizationId: string }): DeliveryFaultDecision {
    const decision: DeliveryFaultDecision = { duplicate: false, tolerance: false, delayMs: 0 };
    for (const fault of this.faults) {
      if (fault.kind !== 'duplicate_delivery' && fault.kind !== 'delay_delivery' && fault.kind !== 'tolerance') continue;
      if (fault.event_type !== undefined && fault.event_type !== event.type) continue;
      if (fault.organization_id !== undefined && fault.organization_id !== event.organizationId) continue;
      if (!this.hits(fault.share)) continue;
      fault.applied += 1;
      if (fault.kind === 'duplicate_delivery') decision.duplicate = true;
      else if (fault.kind === 'tolerance') decision.tolerance = true;
      else decision.delayMs = Math.max(decision.delayMs, fault.seconds * 1000);
    }
    return decision;
  }

  /**
   * Decides the faults of one API request (never of the control API). Faults that answer the request (an error, a
   * reset connection, a revoked token) are tried in the order they were added: the first that matches answers it,
   * and only it counts as applied; those after it wait for a later request, so stacked `count` faults fire one
   * after another, each exactly `count` times. Latency adds up, whatever answers. `accessToken` says whether it carries an
   * access token of this server, which only `token_revoked` needs; `organizationId` is its caller's, when known.
   */
  forApi(
    method: string,
    path: string,
    request: { accessToken: boolean; organizationId: string | null } = { accessToken: false, organizationId: null },
  ): ApiFaultDecision {
    const decision: ApiFaultDecision = { error: null, retryAfterS: null, latencyMs: 0, reset: false, revokeToken: false };
    for (const fault of this.faults) {
      if (fault.kind !== 'api_error' && fault.kind !== 'api_latency' && fault.kind !== 'api_reset' && fault.kind !== 'token_revoked') continue;
      if (fault.kind === 'token_revoked') {
        if (!request.accessToken) continue;
        if (fault.organization_id !== undefined && fault.organization_id !== request.organizationId) continue;
      } else {
        if (fault.method !== undefined && fault.method !== method) continue;
        if (fault.path !== undefined && !path.startsWith(fault.path)) continue;
      }
      if (fault.count !== undefined && fault.applied >= fault.count) continue;
      const answered = decision.error !== null || decision.reset || decision.revokeToken;
      if (fault.kind !== 'api_latency' && answered) continue;
      if (!this.hits(fault.share)) continue;
      fault.applied += 1;
      if (fault.kind === 'api_error') {
        decision.error = fault.code;
        if (fault.code === 'rate_limited') decision.retryAfterS = fault.retry_after ?? 1;
      } else if (fault.kind === 'api_latency') decision.latencyMs += fault.ms;
      else if (fault.kind === 'api_reset') decision.reset = true;
      else decision.revokeToken = true;
    }
    return decision;
  }

  private hits(share: number): boolean {
    return share >= 1 || this.random.next() < share;
  }
}
