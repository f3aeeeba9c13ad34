import { PRESIGNED_URL_LIFETIME_MS } from '../reports/url-signer';
import type { Recording } from '../schemas';

/** A batch as the service last showed it. */
export interface SeenBatch {
  id: string;
  entity_validation_id: string;
  parent_batch_id: string | null;
  created_at: string;
  updated_at: string;
  data_source_runs: SeenRun[];
  raised_alerts: Array<{ id: string; name: string; severity: string }>;
  child_batches: Array<{ id: string }>;
}

/** A run as the service last showed it, and every status it was seen in. */
export interface SeenRun {
  id: string;
  type: string;
  status: string;
  created_at: string;
  succeeded_at: string | null;
}

/** An entity validation's own fields. */
export interface SeenEntity {
  id: string;
  tin: string;
  country: string;
  category: string;
  name: string;
  surname: string;
  display_name: string;
  risk_level?: string | null;
  created_at?: string;
}

/** One event as first delivered, with the instant the service's own timestamps give it (ms since the epoch). */
export interface SeenEvent {
  type: string;
  body: Record<string, unknown>;
  at: number;
  /** Whether `at` came from a timestamp of the payload that marks the event's own instant. */
  exact: boolean;
  /** Real time of arrival at `bvs-mock listen`, ms since the epoch. */
  arrived: number;
}

/** What a recording (or two, the proxy's and the listener's) tells of one validation tree. */
export interface TreeFacts {
  rootId: string;
  entities: Map<string, SeenEntity>;
  batches: Map<string, SeenBatch>;
  /** Every status each run was seen in, in the order seen. */
  statuses: Map<string, string[]>;
  events: SeenEvent[];
  /** The first instant each alert appears in an event. */
  alertSeenAt: Map<string, number>;
  /** Runs seen waiting in `missing_input_data`, by run id. */
  waits: Map<string, SeenWait>;
}

/** What the recording tells of a run's wait for input. */
export interface SeenWait {
  /** The latest instant the wait can have begun: its batch's `updated_at` in the first body that shows it waiting. */
  since: number;
  /** When input was supplied, as far as the recording tells ({@link waitsOf}). */
  supplied: number;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const time = (value: unknown): number | undefined => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? Date.parse(value) : undefined);

/** Calls `visit` with every object in the value, at any depth. */
function walk(value: unknown, visit: (object: Json) => void): void {
  if (Array.isArray(value)) for (const item of value) walk(item, visit);
  else if (isObject(value)) {
    visit(value);
    for (const item of Object.values(value)) walk(item, visit);
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The trees of the recordings, by main validation id, the first recorded first. */
export function treeIds(recordings: readonly Recording[]): string[] {
  return [...new Set(recordings.flatMap((recording) => recording.trees.map((tree) => mainOf(recording, tree))))];
}

/**
 * The main validation of a recorded tree: its name, or for a tree the relay named by an information request (whose
 * first delivery was an item's, before any payload tied the request to its validation) the request's validation.
 */
function mainOf(recording: Recording, tree: Recording['trees'][number]): string {
  if (tree.tree_id.startsWith('evl_')) return tree.tree_id;
  const deliveries = new Set(tree.deliveries);
  let main: string | undefined;
  for (const delivery of recording.deliveries)
    if (deliveries.has(delivery.id))
      walk(delivery.body, (object) => {
        if (object.id === tree.tree_id && typeof object.entity_validation_id === 'string') main ??= object.entity_validation_id;
      });
  return main ?? tree.tree_id;
}

/** Reads what the recordings tell of the tree `rootId`: its entities, batches and runs as last seen, and its events with their instants. */
export function treeFacts(recordings: readonly Recording[], rootId: string): TreeFacts {
  const facts: TreeFacts = { rootId, entities: new Map(), batches: new Map(), statuses: new Map(), events: [], alertSeenAt: new Map(), waits: new Map() };
  const bodies: Array<{ body: unknown; real: number }> = [];
  const delivered = new Set<string>();
  for (const recording of recordings) {
    const tree = recording.trees.find((candidate) => mainOf(recording, candidate) === rootId);
    if (tree === undefined) continue;
    const exchanges = new Set(tree.exchanges);
    for (const exchange of recording.exchanges)
      if (exchanges.has(exchange.request_id) && exchange.status < 300)
        bodies.push({ body: parse(exchange.answer_body), real: Date.parse(exchange.started_at) + exchange.duration_ms });
    const deliveries = new Set(tree.deliveries);
    for (const delivery of recording.deliveries) {
      if (!deliveries.has(delivery.id)) continue;
      bodies.push({ body: delivery.body, real: Date.parse(delivery.arrived_at) });
      // A retry carries the same body again. The relay's `attempt` counts arrivals by type and resource id, which also
      // counts an event that truly fires again for the same resource (status_updated, assignment.updated) as a retry.
      const text = JSON.stringify(delivery.body);
      if (delivered.has(text) || !isObject(delivery.body) || typeof delivery.body.type !== 'string') continue;
      delivered.add(text);
      facts.events.push({ type: delivery.body.type, body: delivery.body, at: NaN, exact: false, arrived: Date.parse(delivery.arrived_at) });
    }
  }
  // In the order they came (the proxy's and the listener's real times), so that what was seen last is the latest.
  const ordered = bodies.map((entry, index) => ({ ...entry, index })).sort((a, b) => a.real - b.real || a.index - b.index);
  for (const { body } of ordered) collect(facts, body);
  timeEvents(facts);
  facts.waits = waitsOf(ordered.map((entry) => entry.body));
  return facts;
}

function collect(facts: TreeFacts, body: unknown): void {
  walk(body, (object) => {
    const id = typeof object.id === 'string' ? object.id : '';
    if (id.startsWith('evl_') && typeof object.tin === 'string') {
      const known = facts.entities.get(id);
      facts.entities.set(id, { ...known, ...(object as unknown as SeenEntity), created_at: (object.created_at as string | undefined) ?? known?.created_at });
    }
    if (id.startsWith('dsrb_') && Array.isArray(object.data_source_runs)) {
      const known = facts.batches.get(id);
      if (known === undefined || (time(object.updated_at) ?? 0) >= (time(known.updated_at) ?? 0)) facts.batches.set(id, object as unknown as SeenBatch);
    }
    if (id.startsWith('dsr_') && typeof object.status === 'string') {
      const seen = facts.statuses.get(id) ?? [];
      if (seen.at(-1) !== object.status) seen.push(object.status);
      facts.statuses.set(id, seen);
    }
  });
}

/** The latest of the timestamps named, anywhere in the value (`created_at` of batches, `succeeded_at` of runs, ...). */
function latest(value: unknown, pick: (object: Json) => unknown[]): number | undefined {
  let best: number | undefined;
  walk(value, (object) => {
    for (const candidate of pick(object)) {
      const at = time(candidate);
      if (at !== undefined && (best === undefined || at > best)) best = at;
    }
  });
  return best;
}

/** When the recipient submitted the last item: the latest `updated_at` of the submitted items. */
function collectedAt(request: Json): number | undefined {
  const items = Array.isArray(request.requestable_items) ? (request.requestable_items as Json[]) : [];
  return latest(
    items.filter((item) => item.status !== 'pending'),
    (item) => [item.updated_at],
  );
}

/** When the AI analysis completed: the latest `created_at` of its chat (none without a chat). */
function analyzedAt(request: Json): number | undefined {
  return latest(request.analysis_chat, (message) => [message.created_at]);
}

/** The instant the payload itself gives the event, when it gives one. */
function ownInstant(event: SeenEvent): number | undefined {
  const { body } = event;
  const resource = Object.entries(body).find(([key]) => key !== 'type')?.[1];
  if (!isObject(resource)) return undefined;
  switch (event.type) {
    case 'data_source_run_batch.data_source_run.ready':
      return time(resource.succeeded_at);
    case 'data_source_run_batch.ready':
    case 'data_source_run_batch.consolidated_report_ready':
      return time(resource.updated_at);
    case 'data_source_run_batch.child_batches_ready':
      // The tree completed when its last run ended: the latest change of any batch in it.
      return latest(resource, (object) => (String(object.id).startsWith('dsrb_') ? [object.updated_at] : []));
    case 'entity_validation.formation.ready':
      // No timestamp of its own: its legal report's URL was signed as it fired, to expire 24 hours later (spec §6 rule 2).
      return signedAt(resource.legal_report_url);
    case 'entity_validation.stakeholder.created': {
      // Partners discovered by a run have batches of their own, created at that instant. Partners a formation named
      // have none yet, and the payload no instant: it fires right before that formation (timeEvents).
      const related = Array.isArray(resource.related_entities) ? (resource.related_entities as Json[]) : [];
      const batched = new Set<unknown>();
      walk(resource.data_source_run_batches, (object) => {
        if (String(object.id).startsWith('dsrb_')) batched.add(object.entity_validation_id);
      });
      if (related.some((partner) => !batched.has(partner.id))) return undefined;
      return latest(resource, (object) => (String(object.id).startsWith('dsrb_') ? [object.created_at] : []));
    }
    case 'information_request.all_items_collected':
      return collectedAt(resource);
    case 'information_request.analysis_success':
      return analyzedAt(resource);
    case 'information_request.status_updated':
      // The change it tells of: the items' submission, the analysis; an evaluation carries no timestamp of its own.
      if (resource.status === 'items_collected') return collectedAt(resource);
      return resource.status === 'in_review' ? analyzedAt(resource) : undefined;
    case 'information_request.evaluated':
      // Nothing in the request dates the after-evaluation (the request has no updated_at): arrival times do.
      return undefined;
    default:
      return latest(resource, (object) => [object.created_at, object.updated_at]);
  }
}

/**
 * Gives each event its instant: the payload's own where it has one. Otherwise (a run that failed, whose `succeeded_at`
 * is null) its batch's last change when that falls before the next event the payloads time, else the arrival times
 * between the timed events around it scaled to their instants (a real service's clock runs at the wall clock's pace),
 * to the second. Instants never go back: the service sent the events in order.
 */
function timeEvents(facts: TreeFacts): void {
  const own = facts.events.map(ownInstant);
  const start = time(facts.entities.get(facts.rootId)?.created_at) ?? Number.NEGATIVE_INFINITY;
  let previous = start;
  facts.events.forEach((event, index) => {
    let at = own[index];
    event.exact = at !== undefined;
    const cause = facts.events[index - 1];
    const announced = facts.events[index + 1];
    if (at === undefined && event.type === 'information_request.status_updated' && cause !== undefined && sameChange(cause, event)) at = cause.at;
    else if (at === undefined && event.type === 'entity_validation.stakeholder.created' && announced !== undefined && ownFormation(event, announced))
      at = own[index + 1];
    if (at === undefined) {
      const nextIndex = own.findIndex((candidate, later) => later > index && candidate !== undefined);
      const next = nextIndex < 0 ? Number.POSITIVE_INFINITY : own[nextIndex]!;
      const run = event.body.data_source_run;
      const batchId = isObject(run) ? String(run.data_source_run_batch_id) : '';
      const updated = time(facts.batches.get(batchId)?.updated_at);
      if (updated !== undefined && updated >= previous && updated < next) at = updated;
      else at = interpolated(facts.events, index, nextIndex, next, previous);
    }
    event.at = Math.max(at, previous);
    previous = event.at;
    walk(event.body, (object) => {
      if (String(object.id).startsWith('rlal_') && !facts.alertSeenAt.has(String(object.id))) facts.alertSeenAt.set(String(object.id), event.at);
    });
  });
}

/** Whether `next` is the formation.ready of the entity a stakeholder.created announced partners of (it names them first, row 24). */
function ownFormation(event: SeenEvent, next: SeenEvent): boolean {
  const stakeholder = event.body.stakeholder;
  const formation = next.body.formation;
  return next.type === 'entity_validation.formation.ready' && isObject(stakeholder) && isObject(formation) && formation.entity_validation_id === stakeholder.id;
}

/** Whether `event` (a status_updated) tells of the change `cause` made: the same request, showing the same status. */
function sameChange(cause: SeenEvent, event: SeenEvent): boolean {
  const [before, after] = [cause.body.information_request, event.body.information_request];
  return isObject(before) && isObject(after) && before.id === after.id && before.status === after.status;
}

/**
 * The instant of event `index` from its arrival, between the timed event before it (`previous`) and the next (`next`,
 * at `nextIndex`). After the last timed event, its arrival after that one's at the pace the service's clock kept
 * against the arrivals between the first and the last timed event (a real service's: the wall clock's own).
 */
function interpolated(events: readonly SeenEvent[], index: number, nextIndex: number, next: number, previous: number): number {
  const before = events.slice(0, index).findLast((event) => event.exact);
  if (before === undefined || !Number.isFinite(previous)) return previous;
  const arrived = events[index]!.arrived - before.arrived;
  if (nextIndex < 0) {
    const first = events.find((event) => event.exact)!;
    const span = before.arrived - first.arrived;
    const pace = span > 0 && before.at > first.at ? (before.at - first.at) / span : 1;
    return Math.max(previous, before.at + Math.round((arrived * pace) / 1000) * 1000);
  }
  const after = events[nextIndex]!;
  const real = after.arrived - before.arrived;
  if (!(real > 0)) return previous;
  const gap = (arrived * (next - before.at)) / real;
  return Math.min(next, Math.max(previous, before.at + Math.round(gap / 1000) * 1000));
}

/**
 * The waits for input the bodies show, in the order they came. No payload says when a run began waiting or when its
 * input was supplied (through the service's own UI, or an API the spec does not show), so these are readings:
 * - it began waiting at the latest instant the first body showing it waiting allows: its batch's `updated_at` there;
 * - its input was supplied when its batch changed in the first body showing it back in `created` (the service's
 *   `updated_at` of that change), else right after the last body showing it waiting: at the latest instant that body
 *   carries (the client saw the wait once nothing else moved, and supplied the input then).
 */
function waitsOf(bodies: readonly unknown[]): Map<string, SeenWait> {
  const waits = new Map<string, SeenWait & { resumed: boolean }>();
  for (const body of bodies) {
    const shown = latest(body, (object) => [object.created_at, object.updated_at, object.succeeded_at]);
    walk(body, (batch) => {
      if (!String(batch.id).startsWith('dsrb_') || !Array.isArray(batch.data_source_runs)) return;
      const updated = time(batch.updated_at);
      for (const run of batch.data_source_runs as Json[]) {
        const id = String(run.id);
        const wait = waits.get(id);
        if (run.status === 'missing_input_data' && updated !== undefined && shown !== undefined) {
          if (wait === undefined) waits.set(id, { since: updated, supplied: shown, resumed: false });
          else if (!wait.resumed) wait.supplied = Math.max(wait.supplied, shown);
        } else if (run.status === 'created' && wait !== undefined && !wait.resumed && updated !== undefined && updated >= wait.since) {
          wait.supplied = updated;
          wait.resumed = true;
        }
      }
    });
  }
  return new Map([...waits].map(([id, { since, supplied }]) => [id, { since, supplied }]));
}

/**
 * When a pre-signed URL was signed, from its expiry (the spec: they "expire after 24 hours"): bvs-mock's `expires`
 * (epoch seconds), or an S3-style `X-Amz-Date` (the signing instant itself); undefined for any other URL.
 */
function signedAt(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  let query: URLSearchParams;
  try {
    query = new URL(value).searchParams;
  } catch {
    return undefined;
  }
  const expires = Number(query.get('expires') ?? NaN);
  if (Number.isInteger(expires) && expires > 0) return expires * 1000 - PRESIGNED_URL_LIFETIME_MS;
  const amz = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(query.get('X-Amz-Date') ?? '');
  return amz === null ? undefined : Date.UTC(+amz[1]!, +amz[2]! - 1, +amz[3]!, +amz[4]!, +amz[5]!, +amz[6]!);
}
