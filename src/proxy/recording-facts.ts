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
  return [...new Set(recordings.flatMap((recording) => recording.trees.map((tree) => tree.tree_id)))];
}

/** Reads what the recordings tell of the tree `rootId`: its entities, batches and runs as last seen, and its events with their instants. */
export function treeFacts(recordings: readonly Recording[], rootId: string): TreeFacts {
  const facts: TreeFacts = { rootId, entities: new Map(), batches: new Map(), statuses: new Map(), events: [], alertSeenAt: new Map() };
  const bodies: unknown[] = [];
  for (const recording of recordings) {
    const tree = recording.trees.find((candidate) => candidate.tree_id === rootId);
    if (tree === undefined) continue;
    const exchanges = new Set(tree.exchanges);
    for (const exchange of recording.exchanges) if (exchanges.has(exchange.request_id) && exchange.status < 300) bodies.push(parse(exchange.answer_body));
    const deliveries = new Set(tree.deliveries);
    for (const delivery of recording.deliveries) {
      if (!deliveries.has(delivery.id)) continue;
      bodies.push(delivery.body);
      if (delivery.attempt === 1 && isObject(delivery.body) && typeof delivery.body.type === 'string')
        facts.events.push({ type: delivery.body.type, body: delivery.body, at: NaN, exact: false, arrived: Date.parse(delivery.arrived_at) });
    }
  }
  for (const body of bodies) collect(facts, body);
  timeEvents(facts);
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
    case 'entity_validation.stakeholder.created':
      // Partners are discovered with batches of their own, created at that instant.
      return latest(resource, (object) => (String(object.id).startsWith('dsrb_') ? [object.created_at] : []));
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

/** The instant of event `index` from its arrival, between the timed event before it (`previous`) and the next (`next`, at `nextIndex`). */
function interpolated(events: readonly SeenEvent[], index: number, nextIndex: number, next: number, previous: number): number {
  const before = events.slice(0, index).findLast((event) => event.exact);
  if (before === undefined || nextIndex < 0 || !Number.isFinite(previous)) return previous;
  const after = events[nextIndex]!;
  const real = after.arrived - before.arrived;
  if (!(real > 0)) return previous;
  const gap = ((events[index]!.arrived - before.arrived) * (next - before.at)) / real;
  return Math.min(next, Math.max(previous, before.at + Math.round(gap / 1000) * 1000));
}
