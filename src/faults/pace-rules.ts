import type { ClientBehaviourFinding } from '../schemas';
import { evidenceOf, iso, seconds } from './finding-evidence';

/** What the pace rules read of a request (a subset of the client observer's ObservedRequest). */
export interface PacedRequest {
  id: string;
  wallMs: number;
  method: string;
  path: string;
  status: number;
  fault: string | null;
  tokenRequest: boolean;
  /** When the access token the request carried expires, on the tokens' clock; null when it carried none bvs-mock issued (an API key, nothing). */
  tokenExpiresAtMs?: number | null;
  /** The tokens' clock when it came (simulated unless tokens follow the wall clock). */
  tokenClockMs?: number;
}

/** What a client could poll for: a validation, or a run's records (the results the webhooks push, §1 item 6). */
const POLLED_PATH = /^\/api\/v2\/(entity_validations\/[^/]+|data_source_runs\/[^/]+\/records)$/;
/** Reads of one such path, each less than this after the one before, are polling. */
const POLL_GAP_MS = 1000;
/** How many such reads in a row make polling (two may be two webhooks handled at once). */
const POLL_READS = 3;
/** Token requests in a row, each while the token before was still valid and had served at most one call, that make a finding. */
const TOKEN_STREAK = 3;
/** Paths per world whose recent reads are kept, and findings remembered as reported: the oldest go first. */
const MAX_TRACKED = 1000;

/** The rules the findings name. */
const PACE_RULES = {
  polling: `§1 item 6: "The service pushes webhook events (HTTP POST, JSON) to the client instead of requiring polling." bvs-mock's reading: ${POLL_READS} answered reads of the same validation (or run's records) in a row, each less than ${POLL_GAP_MS / 1000} s after the one before and none failed between them, is polling (docs/fidelity.md row 127)`,
  tokenReuse: `§5.4: "The token expires after expires_in seconds (typically 7200); request a new one when it expires." bvs-mock's reading: a new token before each of ${TOKEN_STREAK} calls in a row, while the one before was still valid, is not reusing the token (docs/fidelity.md row 127)`,
} as const;

/** One client's token use since its last token request. */
interface TokenUse {
  /** The token requests of the streak so far, and the call after each (evidence). */
  streak: PacedRequest[];
  /** Calls with an issued token since the last token request. */
  callsSince: number;
  /** The last of them. */
  lastCall: PacedRequest | null;
}

/** The pace rules' state, as plain data (a world's snapshot). */
export interface PaceRulesSnapshot {
  reads: Array<[string, PacedRequest[]]>;
  tokens: Array<[string, TokenUse]>;
  reported: string[];
}

/**
 * The pace the spec implies for a client, whatever the faults: results come by webhook, so reading the same validation
 * (or run's records) again and again within a second is polling; a token lasts `expires_in`, so asking for a new one before every call
 * is not reusing it. Each is reported once per client (and path), as a failed finding with its evidence; a client
 * that keeps the pace gets no finding. Bounded: at most {@link MAX_TRACKED} paths' recent reads and reported keys.
 */
export class PaceRules {
  private readonly reads = new Map<string, PacedRequest[]>();
  private readonly tokens = new Map<string, TokenUse>();
  private readonly reported = new Set<string>();

  /** Looks at one request of `client`; answers the findings it completes. */
  record(client: string, request: PacedRequest): ClientBehaviourFinding[] {
    return [this.checkPolling(client, request), this.checkTokenReuse(client, request)].filter((finding) => finding !== null);
  }

  private checkPolling(client: string, request: PacedRequest): ClientBehaviourFinding | null {
    if (request.method !== 'GET' || !POLLED_PATH.test(request.path)) return null;
    const key = `${client} ${request.path}`;
    // A read that failed (a fault, any answer but 2xx) ends the run: the read after it is a retry, graded as one, not a poll.
    if (request.fault !== null || request.status < 200 || request.status >= 300) {
      this.reads.delete(key);
      return null;
    }
    const before = this.reads.get(key) ?? [];
    const last = before.at(-1);
    const reads = last !== undefined && request.wallMs - last.wallMs < POLL_GAP_MS ? [...before, request].slice(-POLL_READS) : [request];
    this.reads.delete(key);
    this.reads.set(key, reads);
    if (this.reads.size > MAX_TRACKED) this.reads.delete(this.reads.keys().next().value!);
    const reportKey = `polling ${key}`;
    if (reads.length < POLL_READS || this.reported.has(reportKey)) return null;
    this.report(reportKey);
    const gaps = reads.slice(1).map((read, index) => seconds(read.wallMs - reads[index]!.wallMs));
    return {
      check: 'polling',
      rule: PACE_RULES.polling,
      outcome: 'fail',
      message: `polled GET ${request.path}: ${reads.length} reads in a row, ${gaps.join(', ')} apart, from ${reads[0]!.id} at ${iso(reads[0]!.wallMs)} to ${request.id} at ${iso(request.wallMs)}; wait for the webhook instead, or read at most once a second`,
      evidence: reads.map(evidenceOf),
    };
  }

  private checkTokenReuse(client: string, request: PacedRequest): ClientBehaviourFinding | null {
    const use = this.tokens.get(client) ?? { streak: [], callsSince: 0, lastCall: null };
    this.tokens.set(client, use);
    if (!request.tokenRequest) {
      if (request.tokenExpiresAtMs === null || request.tokenExpiresAtMs === undefined) return null;
      use.callsSince += 1;
      use.lastCall = request;
      if (use.callsSince === 1 && use.streak.length > 0) use.streak.push(request);
      if (use.callsSince > 1) use.streak = [];
      return null;
    }
    if (request.status < 200 || request.status >= 300) return null;
    const call = use.lastCall;
    const stillValid =
      call !== null &&
      call.status !== 401 &&
      use.callsSince <= 1 &&
      call.tokenExpiresAtMs !== null &&
      call.tokenExpiresAtMs !== undefined &&
      request.tokenClockMs !== undefined &&
      call.tokenExpiresAtMs > request.tokenClockMs;
    use.streak = stillValid ? [...use.streak, request].slice(-(2 * TOKEN_STREAK + 1)) : [request];
    use.callsSince = 0;
    const renewals = use.streak.filter((item) => item.tokenRequest).length - 1;
    const reportKey = `token-reuse ${client}`;
    if (renewals < TOKEN_STREAK || this.reported.has(reportKey)) return null;
    this.report(reportKey);
    const minutesLeft = Math.round((call!.tokenExpiresAtMs! - request.tokenClockMs!) / 60_000);
    return {
      check: 'token-reuse',
      rule: PACE_RULES.tokenReuse,
      outcome: 'fail',
      message: `requested a new access token before each of its last ${renewals} calls while the token it had was still valid (the last one ${minutesLeft} min before its expiry), up to ${request.id} at ${iso(request.wallMs)}; keep the token until it expires or is refused`,
      evidence: use.streak.map(evidenceOf),
    };
  }

  private report(key: string): void {
    this.reported.add(key);
    if (this.reported.size > MAX_TRACKED) this.reported.delete(this.reported.values().next().value!);
  }

  /** Its state as plain data (shares the requests: copy it before it is kept). */
  snapshot(): PaceRulesSnapshot {
    return { reads: [...this.reads], tokens: [...this.tokens], reported: [...this.reported] };
  }

  /** Takes what a snapshot kept, into this new state; a snapshot from before the pace rules has none. */
  restore(snapshot: Partial<PaceRulesSnapshot> | undefined): void {
    for (const [key, reads] of snapshot?.reads ?? []) this.reads.set(key, reads);
    for (const [key, use] of snapshot?.tokens ?? []) this.tokens.set(key, { ...use, streak: [...use.streak] });
    for (const key of snapshot?.reported ?? []) this.reported.add(key);
  }

  clear(): void {
    this.reads.clear();
    this.tokens.clear();
    this.reported.clear();
  }
}
