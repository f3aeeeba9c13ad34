import type { RelayFinding } from '../schemas';
import { eventMoment } from './event-moment';

/** A delivery as a finding names it. */
export type SeenEvent = RelayFinding['events'][number];

/** The rules of §6 the sequence is held to, as a finding quotes them. */
const ORDER_RULES = {
  announce:
    '§6 Event order, rule 4, and Payload rules, rule 1: `entity_validation.stakeholder.created` announces the partners (its `related_entities`), so no event names a partner before it (docs/fidelity.md row 24)',
  ready:
    '§6 Event order, rules 1 and 2: each run fires its `data_source_run.ready`; `data_source_run_batch.ready` fires when all runs of the main entity complete',
  childBatches: '§6 Event order, rule 3, and Payload rules, rule 4: `child_batches_ready` fires once the main batch and every partner batch have completed',
  report:
    '§6 Event order, rule 3, and Payload rules, rule 5: `consolidated_report_ready` covers the whole tree; it fires after the tree completes, and after `child_batches_ready` when that event is enabled',
  failedPartner: "§6 Payload rules, rule 4: a partner's definitive failure suppresses `child_batches_ready` for that validation",
} as const;

/** The first event of a tree the relay received: its place among the arrivals and the moment its body is from. */
interface Opening {
  seq: number;
  moment: number | null;
}

/** What one validation tree has shown so far: the first arrival of the events its order rules compare. */
interface TreeState {
  opening: Opening;
  mainBatch: string | null;
  mainReady: SeenEvent | null;
  childBatchesReady: SeenEvent | null;
  report: SeenEvent | null;
  /** First `data_source_run.ready` of each run, with its batch. */
  runs: Map<string, { event: SeenEvent; batch: string | null }>;
}

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const asList = (value: unknown): Json[] => (Array.isArray(value) ? value.map(asObject).filter((item): item is Json => item !== undefined) : []);

/** Ids (validations, batches, requests) the sequence check remembers at most: a few thousand trees. */
const MAX_IDS = 200_000;

/**
 * The sequence check of `bvs-mock listen`: it follows the validation trees through the events that arrive and reports
 * each order or gating rule of spec §6 that two of them break. It compares only events that both arrived (an
 * endpoint may subscribe to some types only, so an event that never came is no finding), and only their first
 * arrivals (a retry or a redelivery comes late by design: §6 Subscription and delivery, rule 3).
 *
 * A first arrival may be a retry too, when the relay missed the first attempt (it was down, or not reachable yet):
 * an event whose body is from before the first event of its tree the relay received fired before the relay heard
 * anything of that tree, so its first attempt went while the relay could not take it, and it breaks no order rule by
 * arriving late. A tree the relay hears from its first event on is held to the rules at every first arrival.
 * A `consolidated_report_ready` whose runs are still under way is a report asked for on demand (§4 Other operations,
 * §6 Payload rules, rule 4), which may come at any time: the rules compare only the report of the completed tree.
 */
export class RelaySequence {
  /** The tree (its main entity validation) of each entity validation, batch and information request seen. */
  private readonly treeOf = new Map<string, string>();
  private readonly trees = new Map<string, TreeState>();
  /** Partners a `stakeholder.created` announced. */
  private readonly announced = new Set<string>();
  /** The first event that named each entity validation before any `stakeholder.created` announced it. */
  private readonly namedFirst = new Map<string, SeenEvent>();
  /** Arrivals observed so far. */
  private arrivals = 0;

  /** The tree of an event's body, as far as the events so far tell; null when it names no entity. */
  treeIdOf(body: unknown): string | null {
    const named = this.names(body);
    return named === null ? null : this.rootOf(named);
  }

  /** The tree an id belongs to now: itself, until an event tells which tree it is of. */
  treeOfId(id: string): string {
    return this.rootOf(id);
  }

  /** Follows the first arrival of an event; answers the findings it makes. */
  observe(event: SeenEvent, body: unknown): RelayFinding[] {
    // Bounded for a relay left running for days: past the bound it starts over, and a tree it hears from again reads
    // as one it joined late (no rule held against what it missed).
    if (this.treeOf.size > MAX_IDS) {
      this.treeOf.clear();
      this.trees.clear();
      this.announced.clear();
      this.namedFirst.clear();
    }
    const envelope = asObject(body);
    const type = asString(envelope?.type);
    if (envelope === undefined || type === undefined) return [];
    const named = this.names(envelope);
    if (named === null) return [];
    this.arrivals += 1;
    const arrival: Opening = { seq: this.arrivals, moment: eventMoment(envelope) };
    const findings: RelayFinding[] = [];
    const find = (rule: keyof typeof ORDER_RULES, tree: string, message: string, events: SeenEvent[]) => {
      // A first attempt the relay missed: this arrival is its retry, late by design.
      if (rule !== 'failedPartner' && missedFirstAttempt(arrival, this.state(tree, arrival).opening)) return;
      findings.push({ kind: 'order', rule: ORDER_RULES[rule], message, tree_id: tree, events });
    };
    if (type === 'entity_validation.stakeholder.created') {
      this.announce(event, envelope, arrival, find);
      return findings;
    }
    const tree = this.rootOf(named);
    if (!this.treeOf.has(named)) {
      this.treeOf.set(named, tree);
      if (tree === named) this.namedFirst.set(named, event);
    }
    const state = this.state(tree, arrival);
    const resource = asObject(envelope[Object.keys(envelope).find((key) => key !== 'type') ?? '']) ?? {};
    // An information request's own events name its validation: a tree its items' events opened under its id joins it.
    const request = type.startsWith('information_request.') ? asString(resource.id) : undefined;
    if (request?.startsWith('irq_') && this.rootOf(request) !== tree) this.merge(request, tree, state);
    if (type === 'data_source_run_batch.data_source_run.ready') this.runReady(event, resource, tree, state, find);
    else if (type === 'data_source_run_batch.ready') this.batchReady(event, resource, tree, state, find);
    else if (type === 'data_source_run_batch.child_batches_ready') this.childBatchesReady(event, resource, tree, state, find);
    else if (type === 'data_source_run_batch.consolidated_report_ready' && !underWay(resource)) state.report ??= event;
    return findings;
  }

  private runReady(event: SeenEvent, run: Json, tree: string, state: TreeState, find: Finder): void {
    const runId = asString(run.id);
    const batch = asString(run.data_source_run_batch_id) ?? null;
    if (batch !== null) this.treeOf.set(batch, tree);
    if (runId !== undefined && !state.runs.has(runId)) state.runs.set(runId, { event, batch });
    if (state.childBatchesReady !== null)
      find('childBatches', tree, `run ${runId} completed after child_batches_ready said the whole tree had`, [state.childBatchesReady, event]);
    else if (state.report !== null)
      find('report', tree, `run ${runId} completed after consolidated_report_ready, which covers the whole tree`, [state.report, event]);
    if (state.mainReady !== null && batch !== null && batch === state.mainBatch)
      find('ready', tree, `run ${runId} of the main batch completed after data_source_run_batch.ready said all its runs had`, [state.mainReady, event]);
  }

  private batchReady(event: SeenEvent, batch: Json, tree: string, state: TreeState, find: Finder): void {
    if (asString(batch.parent_batch_id) !== undefined) return;
    state.mainBatch ??= asString(batch.id) ?? null;
    if (state.mainBatch !== null) this.treeOf.set(state.mainBatch, tree);
    state.mainReady ??= event;
    if (state.childBatchesReady !== null)
      find('childBatches', tree, 'child_batches_ready came before data_source_run_batch.ready of the main batch', [state.childBatchesReady, event]);
    if (state.report !== null)
      find('report', tree, 'consolidated_report_ready came before data_source_run_batch.ready of the main batch', [state.report, event]);
  }

  private childBatchesReady(event: SeenEvent, batch: Json, tree: string, state: TreeState, find: Finder): void {
    state.childBatchesReady ??= event;
    state.mainBatch ??= asString(batch.id) ?? null;
    if (state.report !== null) find('report', tree, 'consolidated_report_ready came before child_batches_ready', [state.report, event]);
    for (const child of asList(batch.child_batches)) {
      const childId = asString(child.id);
      if (childId !== undefined) this.treeOf.set(childId, tree);
      const failed = asList(child.data_source_runs).find((run) => run.status === 'definitive_error');
      if (failed !== undefined)
        find('failedPartner', tree, `child batch ${childId} has run ${asString(failed.id)} in definitive_error, yet child_batches_ready fired`, [event]);
    }
  }

  /** `stakeholder.created`: its partners join the parent's tree; one an earlier event named breaks the announce rule. */
  private announce(event: SeenEvent, envelope: Json, arrival: Opening, find: Finder): void {
    const parent = asObject(envelope.stakeholder);
    const parentId = asString(parent?.id);
    if (parent === undefined || parentId === undefined) return;
    const tree = this.rootOf(parentId);
    this.treeOf.set(parentId, tree);
    const state = this.state(tree, arrival);
    const namedEarlier: [string, SeenEvent][] = [];
    for (const related of asList(parent.related_entities)) {
      const id = asString(related.id);
      if (id === undefined || this.announced.has(id) || id === tree) continue;
      this.announced.add(id);
      const earlier = this.namedFirst.get(id);
      if (earlier !== undefined) namedEarlier.push([id, earlier]);
      this.merge(id, tree, state);
    }
    // Judged once every partner has joined: the partners' events the relay received before are of this tree, and one may have opened it.
    for (const [id, earlier] of namedEarlier)
      find('announce', tree, `partner ${id} was named by an event before entity_validation.stakeholder.created announced it`, [earlier, event]);
  }

  /** A partner that looked like a tree of its own joins its parent's tree, with the runs seen of it. */
  private merge(partner: string, tree: string, into: TreeState): void {
    const own = this.trees.get(partner);
    for (const [key, root] of this.treeOf) if (root === partner) this.treeOf.set(key, tree);
    this.treeOf.set(partner, tree);
    this.namedFirst.delete(partner);
    if (own === undefined || partner === tree) return;
    if (own.opening.seq < into.opening.seq) into.opening = own.opening;
    for (const [run, seen] of own.runs) if (!into.runs.has(run)) into.runs.set(run, seen);
    this.trees.delete(partner);
  }

  /** The state of a tree; one not seen before opens with `arrival`. */
  private state(tree: string, arrival: Opening): TreeState {
    let state = this.trees.get(tree);
    if (state === undefined) {
      state = { opening: arrival, mainBatch: null, mainReady: null, childBatchesReady: null, report: null, runs: new Map() };
      this.trees.set(tree, state);
    }
    return state;
  }

  private rootOf(id: string): string {
    return this.treeOf.get(id) ?? id;
  }

  /** The id an event's body names its tree by: an entity validation, else a batch or an information request already placed. */
  private names(body: unknown): string | null {
    const envelope = asObject(body);
    if (envelope === undefined) return null;
    const resource = asObject(envelope[Object.keys(envelope).find((key) => key !== 'type') ?? '']);
    if (resource === undefined) return null;
    if (asString(envelope.type) === 'entity_validation.stakeholder.created') return asString(resource.id) ?? null;
    const parentBatch = asString(resource.parent_batch_id);
    if (parentBatch !== undefined && this.treeOf.has(parentBatch)) return this.rootOf(parentBatch);
    const evl = asString(resource.entity_validation_id);
    if (evl !== undefined) return evl;
    const irq = asString(resource.information_request_id);
    if (irq !== undefined) return this.treeOf.has(irq) ? this.rootOf(irq) : irq;
    return asString(resource.id) ?? null;
  }
}

/** Whether an arrival's body is from before the first event of its tree the relay received. */
function missedFirstAttempt(arrival: Opening, opening: Opening): boolean {
  return arrival.moment !== null && opening.moment !== null && arrival.moment < opening.moment;
}

/** Runs that have not ended: a report showing one covers a tree still under way (§3: created, temporary_error, missing_input_data). */
function underWay(batch: Json): boolean {
  const ended = (run: Json) => run.status === 'succeeded' || run.status === 'definitive_error';
  return [batch, ...asList(batch.child_batches)].some((each) => asList(each.data_source_runs).some((run) => !ended(run)));
}

type Finder = (rule: keyof typeof ORDER_RULES, tree: string, message: string, events: SeenEvent[]) => void;
