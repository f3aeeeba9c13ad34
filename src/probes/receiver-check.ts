import { randomBytes } from 'node:crypto';
import { QUICK_ANSWER_MS } from '../contract/contract-report';
import { post, type PostResult } from '../delivery/http-post';
import { type ProcessedState, type ProbeExchange, type ReceiverCheckReport, type ReceiverCheckResult } from '../schemas';
import { runBehaviourProbe, type Deliver } from './behaviour-probes';
import { checkedState, observeAt, type Observe } from './observe';
import { UNREACHABLE, battery, type ReceiverAuth } from './outside-probes';
import { probePayloads, withProbeIds, type ProbePayloads } from './probe-payloads';
import { ReceiverUrlError, metadataAddresses, receiverUrl, type ReceiverReach } from './receiver-url';

/** Options of {@link checkReceiver}. */
export interface ReceiverCheckOptions {
  /** The receiver's URL, as its endpoint is configured. */
  url: string;
  /**
   * How its endpoint authenticates deliveries: none, the endpoint secret (or a token an OAuth endpoint's provider
   * issued), or the legacy token. Required: `none` is right only for an endpoint whose auth_type is none, and the
   * `refuse:*` checks are then skipped, so the report is `incomplete`.
   */
  auth: ReceiverAuth;
  /**
   * The receiver's side-effect probe (docs/receiver-probe.md): the URL of a read-only route of its test build that
   * answers what it processed as a ProcessedState, or a callback that gives it. With it the `processed:*` checks grade
   * what the receiver did; without it they are skipped, so the report is `incomplete`.
   */
  observe?: string | (() => Promise<ProcessedState>);
  /** Real milliseconds a `processed:*` check waits for the receiver to process what it acknowledged; default 5 s. */
  observeWaitMs?: number;
  /** Real milliseconds a probe waits for an answer; default 10 s, as a delivery does. */
  timeoutMs?: number;
  /** Accept a self-signed receiver certificate. */
  insecureTls?: boolean;
}

/** {@link ReceiverCheckOptions} with who asked for the check, which decides what it may reach (docs/fidelity.md row 106). */
export interface ReachingReceiverCheckOptions extends ReceiverCheckOptions {
  reach: ReceiverReach;
  /** The payloads the probes send, when the caller keeps them between checks (a world does); default: played now. */
  payloads?: () => Promise<ProbePayloads>;
}

/**
 * How much of an HTTP answer's body a probe keeps: enough to read an error message, too little to make the check a
 * way to read what a server answers (docs/fidelity.md row 106).
 */
const ANSWER_EXCERPT = 200;

/** Header every probe delivery carries, naming its check, so a receiver's logs can tell probes from deliveries. */
export const PROBE_HEADER = 'x-bvs-mock-probe';

/** What one probe sent and what the receiver answered; the shapes are the control API's (src/schemas/receiver-check-answers.ts). */
type ProbeAnswer = ProbeExchange['answer'];
export type { ProbeExchange, ReceiverAuth, ReceiverCheckReport, ReceiverCheckResult };

/**
 * Sends a battery of deliveries built from real scenario payloads to a receiver and grades each answer
 * against the spec's receiver rules: every event type acknowledged quickly, forged deliveries answered with a
 * non-2xx, duplicates and redeliveries and events out of order answered 2xx, values it does not know accepted, a
 * large tree and a partial `ready` accepted. With a side-effect probe (`observe`), the `processed:*` checks grade
 * what the receiver did: a duplicate and a redelivery processed once, events out of order each processed once, a
 * forged delivery never; without one they are skipped. A skipped check is not a pass: the report's outcome is
 * then `incomplete`. Probes carry `X-Bvs-Mock-Probe: <check>` and ids of their own.
 * A URL with credentials is refused with a {@link ReceiverUrlError}; a probe without an HTTP answer is
 * `unreachable`, whatever the reason (docs/fidelity.md row 106).
 *
 * @example
 * const report = await checkReceiver({ url: 'http://127.0.0.1:3000/hooks', auth: { kind: 'secret', value: 'whsec_test' }, observe: 'http://127.0.0.1:3000/test/processed' });
 * report.outcome; // 'pass' only when every check ran and passed
 */
export function checkReceiver(options: ReceiverCheckOptions): Promise<ReceiverCheckReport> {
  return runReceiverCheck({ ...options, reach: 'tester' });
}

const AUTH_KINDS = "{ kind: 'none' } (an endpoint with auth_type none), { kind: 'secret', value } or { kind: 'legacy', value }";

/** The auth a caller gave, or a clear error: it is part of the check, never assumed (a JavaScript caller may leave it out). */
function givenAuth(auth: unknown): ReceiverAuth {
  const value = auth as Partial<{ kind: unknown; value: unknown }> | undefined;
  if (value?.kind === 'none') return { kind: 'none' };
  if ((value?.kind === 'secret' || value?.kind === 'legacy') && typeof value.value === 'string' && value.value !== '')
    return { kind: value.kind, value: value.value };
  throw new TypeError(
    `checkReceiver: auth ${auth === undefined ? 'is required' : 'is not one of the forms'}: how the receiver's endpoint authenticates deliveries, ${AUTH_KINDS}`,
  );
}

/**
 * {@link checkReceiver}, reaching what `reach` may (the control API: no link-local or metadata address).
 * Loaded lazily by the receiver-check route (`require`), so this tag keeps knip from counting it unused.
 * @public
 */
export async function runReceiverCheck(options: ReachingReceiverCheckOptions): Promise<ReceiverCheckReport> {
  const auth = givenAuth(options.auth);
  const target = receiverUrl(options.url, options.reach);
  if (!target.ok) throw new ReceiverUrlError(target);
  const url = target.url;
  const refusedAddresses = options.reach === 'control' ? metadataAddresses() : undefined;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const insecureTls = options.insecureTls ?? false;
  const observe = observerOf(options, { timeoutMs, insecureTls, refusedAddresses });
  const payloads = await (options.payloads ?? probePayloads)();
  const { outside, behaviour } = battery(payloads, auth, observe === undefined);
  const deliver: Deliver = async (given, authorization, check, tag) => {
    // Each probe names resources of its own: a receiver's idempotency never hides one probe behind another.
    const body = withProbeIds(given, tag);
    const text = JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json', [PROBE_HEADER]: check };
    if (authorization !== undefined) headers.authorization = authorization;
    const result: PostResult = await post({ url, headers, body: text, timeoutMs, insecureTls, refusedAddresses });
    const request = {
      method: 'POST' as const,
      url,
      headers: shown(headers, auth),
      type: body.type,
      bytes: Buffer.byteLength(text),
      body_excerpt: text.slice(0, 2000),
    };
    return { sent: body, exchange: { request, answer: answerOf(result) } };
  };
  const skipped = (probe: { check: string; expectation: string; rule: string; skipWhy?: string }): ReceiverCheckResult => ({
    check: probe.check,
    expectation: probe.expectation,
    rule: probe.rule,
    outcome: 'skipped',
    reason: probe.skipWhy!,
    exchanges: [],
    processed: null,
  });
  const results: ReceiverCheckResult[] = [];
  for (const [index, probe] of outside.entries()) {
    if (probe.skipWhy !== undefined) {
      results.push(skipped(probe));
      continue;
    }
    const exchanges: ReceiverCheckResult['exchanges'] = [];
    for (const send of probe.sends) exchanges.push((await deliver(send.body, send.authorization, probe.check, String(index + 1))).exchange);
    const reason = probe.grade(exchanges.map((exchange) => exchange.answer));
    results.push({
      check: probe.check,
      expectation: probe.expectation,
      rule: probe.rule,
      outcome: reason === null ? 'pass' : 'fail',
      reason,
      exchanges,
      processed: null,
    });
  }
  // The behaviour checks' ids carry this run's own mark too: what an earlier check of the same receiver processed never counts.
  const run = randomBytes(3).toString('hex');
  for (const [index, probe] of behaviour.entries()) {
    if (probe.skipWhy !== undefined || observe === undefined) results.push(skipped(probe));
    else
      results.push(await runBehaviourProbe(probe, { observe, deliver, waitMs: options.observeWaitMs ?? 5_000, tag: `${outside.length + index + 1}r${run}` }));
  }
  return summarized(
    { url, auth: auth.kind, observe: typeof options.observe === 'string' ? options.observe : options.observe === undefined ? null : 'callback' },
    results,
  );
}

/** The probe a caller gave: a URL (reached as the receiver is) or a callback, its answer checked either way. */
function observerOf(options: ReachingReceiverCheckOptions, transport: Parameters<typeof observeAt>[1]): Observe | undefined {
  const given = options.observe;
  if (given === undefined) return undefined;
  if (typeof given === 'function') return async () => checkedState(await given(), 'the observe callback');
  const target = receiverUrl(given, options.reach);
  if (!target.ok) throw new ReceiverUrlError({ ...target, message: `observe: ${target.message}` });
  return observeAt(target.url, transport);
}

/** The report: counts, its outcome, and the summary line, which names what was skipped and why. */
function summarized(head: Pick<ReceiverCheckReport, 'url' | 'auth' | 'observe'>, results: ReceiverCheckResult[]): ReceiverCheckReport {
  const count = (outcome: ReceiverCheckResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  const [passed, failed, skipped] = [count('pass'), count('fail'), count('skipped')];
  const byReason = new Map<string, string[]>();
  for (const result of results) if (result.outcome === 'skipped') byReason.set(result.reason!, [...(byReason.get(result.reason!) ?? []), result.check]);
  const why = [...byReason].map(([reason, checks]) => `${checks.join(', ')}: ${reason}`).join('; ');
  const lines = [`${results.length} checks: ${passed} passed, ${failed} failed, ${skipped} skipped${skipped === 0 ? '' : ` (${why})`}`];
  if (head.auth === 'none')
    lines.push(
      'Checked without authorization (auth none): right only for a receiver whose endpoint is configured with auth_type none, which sends no Authorization header (spec §5.5: testing only).',
    );
  if (failed === 0 && skipped > 0) lines.push('Incomplete: a skipped check is not a pass.');
  return {
    ...head,
    outcome: failed > 0 ? 'fail' : skipped > 0 ? 'incomplete' : 'pass',
    summary: lines.join('\n'),
    quick_answer_ms: QUICK_ANSWER_MS,
    passed,
    failed,
    skipped,
    results,
  };
}

/**
 * A POST's result as a report shows it. Without an HTTP answer, one code and nothing else: neither the reason nor
 * the time it took, which would tell a closed port (refused at once) from a filtered one (a timeout) or one that
 * accepts and resets. An HTTP answer keeps its status, duration, any break after its head, and a short excerpt.
 */
function answerOf(result: PostResult): ProbeAnswer {
  if (result.status === null) return { status: null, duration_ms: null, error: UNREACHABLE, body_excerpt: '' };
  return { status: result.status, duration_ms: Math.round(result.durationMs), error: result.error, body_excerpt: result.body.slice(0, ANSWER_EXCERPT) };
}

/** The Authorization header as a report shows it: the receiver's own secret is never written out. */
function shown(headers: Record<string, string>, auth: ReceiverAuth): Record<string, string> {
  if (auth.kind === 'none' || headers.authorization !== `Bearer ${auth.value}`) return headers;
  return { ...headers, authorization: `Bearer <the ${auth.kind === 'secret' ? 'endpoint secret' : 'legacy token'}>` };
}
