import type { ClientBehaviourFinding } from '../schemas';
import { evidenceOf, iso, seconds } from './finding-evidence';
import { PaceRules, type PaceRulesSnapshot } from './pace-rules';

/** One API request as the observer sees it: who sent it, when (real time), and what it was answered. */
export interface ObservedRequest {
  id: string;
  /** Wall-clock epoch milliseconds: client waits are real time (docs/fidelity.md row 90). */
  wallMs: number;
  method: string;
  path: string;
  /** The client: its organization; null when the request named none (no credential). */
  organizationId: string | null;
  /** Which credential it used: a hash of the bearer value, so the same token is recognised without keeping it. */
  credential: string | null;
  status: number;
  /** The fault injected into the answer, if one was. */
  fault: 'rate_limited' | 'internal_error' | 'service_unavailable' | 'reset' | 'token_revoked' | null;
  /** Seconds of the Retry-After sent with a 429. */
  retryAfterS: number | null;
  /** Whether any fault was active when it came. */
  faultsOn: boolean;
  /** A token request (`POST /oauth/token`). */
  tokenRequest: boolean;
  /** When the access token it carried expires, on the tokens' clock; null when it carried none bvs-mock issued (the pace rules). */
  tokenExpiresAtMs?: number | null;
  /** The tokens' clock when it came (simulated unless tokens follow the wall clock). */
  tokenClockMs?: number;
}

/** Requests per second a client may send while faults are on (spec §8: rate limits not shown; docs/fidelity.md row 90). */
export const MAX_REQUESTS_PER_SECOND = 10;
/** A retry sooner than this after a failure is a retry at once, not a backoff. */
const MIN_RETRY_GAP_MS = 100;
/** Findings kept: the newest (a long run cannot fill memory). */
const MAX_FINDINGS = 200;

/** The rules the findings name. */
const CLIENT_RULES = {
  retryAfter: 'RFC 9110 §10.2.3 and RFC 6585 §4 (429 Too Many Requests with Retry-After): wait at least Retry-After before the next request',
  backoff:
    "bvs-mock's rule for 5xx and reset connections (docs/fidelity.md row 90), after the spec's own exponential backoff (§8): retry with growing gaps, or give up",
  renew: '§5.4: request a new access token when the old one expires (or is refused), instead of failing or sending it again',
  rate: `§8 (rate limits not shown): bvs-mock's documented limit while faults are on, ${MAX_REQUESTS_PER_SECOND} requests per second per client (docs/fidelity.md row 90)`,
} as const;

interface Failure {
  request: ObservedRequest;
  retries: ObservedRequest[];
}

/** What a {@link ClientObserver} has seen and found, as plain data (a world's snapshot). */
export interface ClientObserverSnapshot {
  findings: ClientBehaviourFinding[];
  waitingRetryAfter: Array<[string, ObservedRequest]>;
  failing: Array<[string, Failure]>;
  refusedToken: Array<[string, ObservedRequest]>;
  recent: Array<[string, ObservedRequest[]]>;
  rateReported: string[];
  /** Absent in a snapshot from before the pace rules. */
  pace?: PaceRulesSnapshot;
}

/**
 * Watches what each client does after bvs-mock injects a fault into its API answers (`POST /_mock/faults`), and
 * grades it with evidence: request ids and real times. A 429 must be followed by a wait of at least Retry-After;
 * a 5xx or a reset connection by retries with growing gaps (or none); a refused token by a token request before
 * the next call with a token; and no client may exceed the documented rate while faults are on. Whatever the faults,
 * the pace rules ({@link PaceRules}) find polling and a new token asked for before every call.
 */
export class ClientObserver {
  private findings: ClientBehaviourFinding[] = [];
  private readonly waitingRetryAfter = new Map<string, ObservedRequest>();
  private readonly failing = new Map<string, Failure>();
  private readonly refusedToken = new Map<string, ObservedRequest>();
  private readonly recent = new Map<string, ObservedRequest[]>();
  private readonly rateReported = new Set<string>();
  /** Polling and token reuse: the pace the spec implies, faults or not. */
  private readonly pace = new PaceRules();

  record(request: ObservedRequest): void {
    // A revoked token names no organization any more: the client is the one whose token it was.
    const client = request.organizationId ?? this.ownerOfRefused(request.credential);
    if (client === null) return;
    this.checkRetryAfter(client, request);
    this.checkBackoff(client, request);
    this.checkRenewal(client, request);
    this.checkRate(client, request);
    for (const finding of this.pace.record(client, request)) this.add(finding);
    if (request.fault === 'rate_limited') this.waitingRetryAfter.set(client, request);
    if (serverFailure(request.fault)) {
      const key = `${client} ${request.method} ${request.path}`;
      const ongoing = this.failing.get(key);
      if (ongoing) ongoing.retries.push(request);
      else this.failing.set(key, { request, retries: [] });
    }
    if (request.fault === 'token_revoked' && request.credential !== null) this.refusedToken.set(client, request);
  }

  private ownerOfRefused(credential: string | null): string | null {
    if (credential === null) return null;
    for (const [client, refused] of this.refusedToken) if (refused.credential === credential) return client;
    return null;
  }

  /** The findings so far, oldest first, with the failures no client retried graded as given up cleanly. */
  list(): ClientBehaviourFinding[] {
    const open = [...this.failing.values()].map((failure) => this.backoffFinding(failure, 'gave up'));
    return [...this.findings, ...open.filter((finding) => finding !== null)];
  }

  /** What it has seen and found, as plain data (a world's snapshot; shares the requests: copy it before it is kept). */
  snapshot(): ClientObserverSnapshot {
    return {
      findings: this.findings,
      waitingRetryAfter: [...this.waitingRetryAfter],
      failing: [...this.failing],
      refusedToken: [...this.refusedToken],
      recent: [...this.recent],
      rateReported: [...this.rateReported],
      pace: this.pace.snapshot(),
    };
  }

  /** Takes what a snapshot kept, into this new observer. */
  restore(snapshot: ClientObserverSnapshot): void {
    this.findings = [...snapshot.findings];
    for (const [key, value] of snapshot.waitingRetryAfter) this.waitingRetryAfter.set(key, value);
    for (const [key, value] of snapshot.failing) this.failing.set(key, value);
    for (const [key, value] of snapshot.refusedToken) this.refusedToken.set(key, value);
    for (const [key, value] of snapshot.recent) this.recent.set(key, value);
    for (const key of snapshot.rateReported) this.rateReported.add(key);
    this.pace.restore(snapshot.pace);
  }

  clear(): void {
    this.findings = [];
    this.waitingRetryAfter.clear();
    this.failing.clear();
    this.refusedToken.clear();
    this.recent.clear();
    this.rateReported.clear();
    this.pace.clear();
  }

  private add(finding: ClientBehaviourFinding): void {
    this.findings.push(finding);
    if (this.findings.length > MAX_FINDINGS) this.findings.shift();
  }

  private checkRetryAfter(client: string, request: ObservedRequest): void {
    const limited = this.waitingRetryAfter.get(client);
    if (!limited) return;
    this.waitingRetryAfter.delete(client);
    const waitedMs = request.wallMs - limited.wallMs;
    const neededMs = (limited.retryAfterS ?? 0) * 1000;
    const ok = waitedMs >= neededMs;
    this.add({
      check: 'retry-after',
      rule: CLIENT_RULES.retryAfter,
      outcome: ok ? 'pass' : 'fail',
      message: ok
        ? `waited ${seconds(waitedMs)} after a 429 with Retry-After: ${limited.retryAfterS}`
        : `ignored Retry-After: ${limited.retryAfterS}: request ${limited.id} at ${iso(limited.wallMs)} was answered 429, and request ${request.id} came at ${iso(request.wallMs)}, ${seconds(waitedMs)} later`,
      evidence: [evidenceOf(limited), evidenceOf(request)],
    });
  }

  private checkBackoff(client: string, request: ObservedRequest): void {
    const key = `${client} ${request.method} ${request.path}`;
    const failure = this.failing.get(key);
    // A retry the server failed again goes on with the episode (record() adds it); any other answer ends it, an
    // answer of another fault (a 429, a revoked token) included: it is graded from the requests seen, whatever
    // answered them.
    if (!failure || serverFailure(request.fault)) return;
    this.failing.delete(key);
    failure.retries.push(request);
    const finding = this.backoffFinding(failure, 'retried');
    if (finding) this.add(finding);
  }

  private backoffFinding(failure: Failure, how: 'retried' | 'gave up'): ClientBehaviourFinding | null {
    const times = [failure.request, ...failure.retries].map((request) => request.wallMs);
    const gaps = times.slice(1).map((time, index) => time - times[index]!);
    const evidence = [failure.request, ...failure.retries].map(evidenceOf);
    const at = () => `${failure.request.method} ${failure.request.path}: ${gaps.map(seconds).join(', ')} between attempts`;
    if (gaps.length === 0)
      return {
        check: 'backoff',
        rule: CLIENT_RULES.backoff,
        outcome: 'pass',
        message: `gave up cleanly after ${failure.request.fault} on ${failure.request.method} ${failure.request.path}`,
        evidence,
      };
    const tooSoon = gaps.findIndex((gap) => gap < MIN_RETRY_GAP_MS);
    if (tooSoon !== -1)
      return {
        check: 'backoff',
        rule: CLIENT_RULES.backoff,
        outcome: 'fail',
        message: `retried at once (${seconds(gaps[tooSoon]!)} after a failure; at least ${MIN_RETRY_GAP_MS} ms): ${at()}`,
        evidence,
      };
    const shrinking = gaps.findIndex((gap, index) => index > 0 && gap < gaps[index - 1]!);
    if (shrinking !== -1)
      return { check: 'backoff', rule: CLIENT_RULES.backoff, outcome: 'fail', message: `the gaps between retries did not grow: ${at()}`, evidence };
    return { check: 'backoff', rule: CLIENT_RULES.backoff, outcome: 'pass', message: `${how} with growing gaps: ${at()}`, evidence };
  }

  private checkRenewal(client: string, request: ObservedRequest): void {
    const refused = this.refusedToken.get(client);
    if (!refused || request === refused) return;
    if (request.tokenRequest) {
      this.refusedToken.delete(client);
      this.add({
        check: 'token-renewal',
        rule: CLIENT_RULES.renew,
        outcome: 'pass',
        message: `requested a new token after its token was refused`,
        evidence: [evidenceOf(refused), evidenceOf(request)],
      });
      return;
    }
    if (request.credential === refused.credential) {
      this.refusedToken.delete(client);
      this.add({
        check: 'token-renewal',
        rule: CLIENT_RULES.renew,
        outcome: 'fail',
        message: `sent the refused token again: request ${refused.id} at ${iso(refused.wallMs)} was answered 401, and request ${request.id} at ${iso(request.wallMs)} used the same token`,
        evidence: [evidenceOf(refused), evidenceOf(request)],
      });
    }
  }

  private checkRate(client: string, request: ObservedRequest): void {
    if (!request.faultsOn) {
      this.recent.delete(client);
      return;
    }
    const window = (this.recent.get(client) ?? []).filter((earlier) => request.wallMs - earlier.wallMs < 1000);
    window.push(request);
    this.recent.set(client, window);
    if (window.length > MAX_REQUESTS_PER_SECOND && !this.rateReported.has(client)) {
      this.rateReported.add(client);
      this.add({
        check: 'rate',
        rule: CLIENT_RULES.rate,
        outcome: 'fail',
        message: `sent ${window.length} requests within one second while faults were on, from ${window[0]!.id} at ${iso(window[0]!.wallMs)} to ${request.id} at ${iso(request.wallMs)}`,
        evidence: [evidenceOf(window[0]!), evidenceOf(request)],
      });
    }
  }
}

/** A 5xx or a reset connection: what a client should retry with growing gaps. */
function serverFailure(fault: ObservedRequest['fault']): boolean {
  return fault === 'internal_error' || fault === 'service_unavailable' || fault === 'reset';
}
