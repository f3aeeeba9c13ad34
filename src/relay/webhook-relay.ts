import { randomUUID, timingSafeEqual } from 'node:crypto';
import { validatePayload } from '../contract';
import { DELIVERY_ORIGIN_HEADER } from '../delivery/delivery-dispatcher';
import { post } from '../delivery/http-post';
import type { ReceiverAuth } from '../probes/receiver-check';
import type { RelayFinding, RelayReport, RelayedDelivery } from '../schemas';
import { eventMoment } from './event-moment';
import { RelaySequence, type SeenEvent } from './relay-sequence';
import { HOP_BY_HOP_HEADERS } from '../delivery/hop-by-hop';
import { jsonDepthIssue, MAX_JSON_DEPTH } from '../api/read-body';

/** What the upstream authorizes each delivery with, as its endpoint was configured (`--auth none|secret:S|legacy:T`). */
export type RelayAuth = ReceiverAuth;

/** Options of {@link WebhookRelay}. */
export interface WebhookRelayOptions {
  /** The local receiver each delivery is forwarded to. */
  forwardTo: string;
  auth: RelayAuth;
  /** Real milliseconds the receiver has to answer; past it the service is answered 502. */
  timeoutMs: number;
  /** Accept the receiver's self-signed certificate. */
  insecureTls: boolean;
  /** Reject fields the contract does not list (tolerated by default, as a client must). */
  strict: boolean;
  /** Called with each delivery once relayed, as kept (a recording keeps them). */
  onDelivery?: (delivery: RelayedDelivery) => void;
}

/** A delivery as it arrived. */
export interface IncomingDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** What the service is answered: the receiver's own answer, or 502 when it gave none. */
export interface RelayedAnswer {
  status: number;
  body: string;
}

/**
 * The header on every forwarded delivery that names the relay instance forwarding it, so that a relay whose
 * `--forward-to` points back at itself answers 508 instead of looping.
 */
const RELAY_HEADER = 'x-bvs-mock-relay';

/** Deliveries kept at most; the oldest go first. */
const MAX_DELIVERIES = 10_000;

/** Events whose arrivals are counted (for `attempt`): ten times the deliveries kept. */
const MAX_ARRIVALS = 100_000;

/** Headers that carry credentials: passed on to the receiver, never kept in a record. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-api-key']);

const AUTH_RULE = {
  none: '§5.5: an endpoint with authentication None sends no Authorization header',
  secret: '§5.5: every delivery of an endpoint with a secret key carries `Authorization: Bearer <WEBHOOK_SECRET>`',
  legacy: '§5.6: the legacy model sends the organization-wide bearer token on every webhook',
} as const;

const ENVELOPE_RULE = '§6 Envelope: a POST with `Content-Type: application/json`, a body of `type` and the one resource key of its type (§2 shapes)';

function equalSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The webhook relay of `bvs-mock listen`: each delivery the service sends is checked (envelope, authorization,
 * order within its validation tree), forwarded with its headers to the local receiver, and answered with the
 * receiver's answer, so the service's retries are real. It keeps each delivery as a plain record and each finding.
 */
export class WebhookRelay {
  private readonly deliveries: RelayedDelivery[] = [];
  private readonly findings: RelayFinding[] = [];
  private readonly sequence = new RelaySequence();
  /** Arrivals of each event, by type, resource id and moment. */
  private readonly arrivals = new Map<string, number>();
  private count = 0;
  private readonly instance = randomUUID();

  constructor(private readonly options: WebhookRelayOptions) {}

  /** Checks, records and forwards one delivery; answers what the service is to be answered. */
  async relay(incoming: IncomingDelivery): Promise<RelayedAnswer> {
    if (incoming.headers[RELAY_HEADER] === this.instance)
      return { status: 508, body: `bvs-mock listen: --forward-to ${this.options.forwardTo} points back at this relay, which would forward it for ever` };
    const arrivedAt = new Date().toISOString();
    this.count += 1;
    const id = `rly_${this.count}`;
    const parsed = parseJson(incoming.body);
    const body = parsed.ok ? parsed.value : incoming.body;
    const envelope = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const eventType = typeof envelope.type === 'string' ? envelope.type : null;
    const resource = Object.entries(envelope).find(([key]) => key !== 'type')?.[1] as { id?: unknown } | undefined;
    const resourceId = typeof resource?.id === 'string' ? resource.id : null;
    // The moment its body is from tells two events of one resource apart (a report asked for on demand, then the tree's own).
    const key = `${eventType}\n${resourceId}\n${eventMoment(body)}`;
    const attempt = (this.arrivals.get(key) ?? 0) + 1;
    this.arrivals.delete(key);
    this.arrivals.set(key, attempt);
    // Bounded for a relay left running for days: the events longest without an arrival are forgotten first.
    if (this.arrivals.size > MAX_ARRIVALS) this.arrivals.delete(this.arrivals.keys().next().value!);
    const seen: SeenEvent = { delivery_id: id, event_type: eventType, resource_id: resourceId, arrived_at: arrivedAt };
    const treeId = this.sequence.treeIdOf(body);
    this.checkEnvelope(incoming, parsed, seen, treeId);
    this.checkAuthorization(incoming.headers.authorization, seen, treeId);
    if (attempt === 1 && parsed.ok) this.findings.push(...this.sequence.observe(seen, body));

    const forwarded = Object.fromEntries(Object.entries(incoming.headers).filter(([name]) => !HOP_BY_HOP_HEADERS.has(name) && name !== RELAY_HEADER));
    const answer = await post({
      url: this.options.forwardTo,
      headers: { ...forwarded, [RELAY_HEADER]: this.instance },
      body: incoming.body,
      timeoutMs: this.options.timeoutMs,
      insecureTls: this.options.insecureTls,
    });
    this.keep({
      id,
      path: incoming.path,
      event_type: eventType,
      resource_id: resourceId,
      tree_id: this.sequence.treeIdOf(body) ?? treeId,
      // The origin of a bvs-mock upstream differs from one server to the next and is nobody's business, as bvs-mock's own attempts show it.
      headers: Object.fromEntries(
        Object.entries(forwarded)
          .filter(([name]) => !CREDENTIAL_HEADERS.has(name))
          .map(([name, value]) => [name, name === DELIVERY_ORIGIN_HEADER ? '****' : value]),
      ),
      body,
      arrived_at: arrivedAt,
      attempt,
      answer: { status: answer.status, body_excerpt: answer.body, error: answer.error, duration_ms: Math.round(answer.durationMs) },
    });
    if (answer.status === null) return { status: 502, body: `bvs-mock listen: the receiver at ${this.options.forwardTo} gave no answer (${answer.error})` };
    return { status: answer.status, body: answer.body };
  }

  /** The deliveries relayed and the findings, as `GET /_mock/relay` answers them and `--report` writes them. */
  report(): RelayReport {
    // A tree named before its main validation was known (an item's event came first) is named by it now.
    const tree = (id: string | null) => (id === null ? null : this.sequence.treeOfId(id));
    return {
      forward_to: this.options.forwardTo,
      deliveries: this.deliveries.map((delivery) => ({ ...delivery, tree_id: tree(delivery.tree_id) })),
      findings: this.findings.map((finding) => ({ ...finding, tree_id: tree(finding.tree_id) })),
    };
  }

  private keep(delivery: RelayedDelivery): void {
    this.options.onDelivery?.(delivery);
    this.deliveries.push(delivery);
    if (this.deliveries.length > MAX_DELIVERIES) this.deliveries.shift();
  }

  private checkEnvelope(incoming: IncomingDelivery, parsed: ReturnType<typeof parseJson>, seen: SeenEvent, treeId: string | null): void {
    const problems: string[] = [];
    const contentType = incoming.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(contentType))
      problems.push(`Content-Type is ${contentType === '' ? 'missing' : JSON.stringify(contentType)}, not application/json`);
    if (!parsed.ok) problems.push(`the body is not JSON: ${parsed.error}`);
    else {
      const check = validatePayload(parsed.value, undefined, { strict: this.options.strict });
      if (!check.ok) problems.push(...check.issues.map((issue) => `${issue.path}: ${issue.message}`));
    }
    if (problems.length > 0) this.findings.push({ kind: 'envelope', rule: ENVELOPE_RULE, message: problems.join('; '), tree_id: treeId, events: [seen] });
  }

  private checkAuthorization(header: string | undefined, seen: SeenEvent, treeId: string | null): void {
    const { auth } = this.options;
    let problem: string | null = null;
    if (auth.kind === 'none') {
      if (header !== undefined) problem = 'an Authorization header came, where the endpoint is configured with none';
    } else if (header === undefined) problem = 'no Authorization header came';
    else if (!equalSecret(header, `Bearer ${auth.value}`))
      problem = `the Authorization header is not the bearer ${auth.kind === 'secret' ? 'secret of the endpoint' : 'legacy token'} given with --auth`;
    if (problem !== null) this.findings.push({ kind: 'authorization', rule: AUTH_RULE[auth.kind], message: problem, tree_id: treeId, events: [seen] });
  }
}

/**
 * The body as JSON, unless it is not JSON or is nested deeper than any body of the service: such a body is kept as
 * text, since no record, report or recording could be written with it (they would recurse through it).
 */
function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const tooDeep = jsonDepthIssue(value);
  if (tooDeep !== undefined)
    return {
      ok: false,
      error: `at ${tooDeep.path}, nested more than ${MAX_JSON_DEPTH} levels deep (objects and arrays), deeper than any payload of the service`,
    };
  return { ok: true, value };
}
