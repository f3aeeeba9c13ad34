import type { Recording, ScenarioInput } from '../schemas';
import { treeFacts, treeIds, type SeenBatch, type SeenEvent, type SeenRun, type TreeFacts } from './recording-facts';
import { duration, informationRequestOf } from './recording-information-request';

type EntityInput = ScenarioInput['entity'];
type PartnerInput = NonNullable<EntityInput['partners']>[number];
type RunInput = EntityInput['runs'][number];
type Outcome = RunInput['outcomes'][number];

const TERMINAL = new Set(['succeeded', 'definitive_error']);

/** Options of {@link scenarioFromRecording}. */
export interface FromRecordingOptions {
  name: string;
  /** The main validation of the tree to write; default: the only tree, else an error naming them. */
  tree?: string;
}

/**
 * The scenario that plays the recorded tree (`bvs-mock scenario from-recording`): its entities, runs and their
 * outcomes with the observed delays (from the service's own timestamps: `created_at`, `succeeded_at`, `updated_at`),
 * alerts, partners, formation and settings. Throws an error saying what is missing when the recordings hold no tree.
 */
export function scenarioFromRecording(recordings: readonly Recording[], options: FromRecordingOptions): ScenarioInput {
  const trees = treeIds(recordings);
  if (trees.length === 0) throw new Error('the recording holds no validation tree: record a create call (proxy) or its deliveries (listen)');
  const rootId = options.tree ?? trees[0]!;
  if (options.tree === undefined && trees.length > 1)
    throw new Error(`the recording holds ${trees.length} trees (${trees.join(', ')}); choose one with --tree`);
  if (!trees.includes(rootId)) throw new Error(`--tree ${rootId}: not a tree of the recording (${trees.join(', ')})`);
  const facts = treeFacts(recordings, rootId);
  const root = facts.entities.get(rootId);
  if (root === undefined) throw new Error(`the recording never shows the validation ${rootId} itself (a create's answer, a read or a stakeholder.created)`);
  const rootBatch = [...facts.batches.values()]
    .filter((batch) => batch.entity_validation_id === rootId && batch.parent_batch_id === null)
    .sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
  if (rootBatch === undefined) throw new Error(`the recording never shows the batch of ${rootId}: read the validation once through the proxy`);

  const entity = entityOf(facts, rootBatch, null) as EntityInput;
  const scenario: ScenarioInput = {
    name: options.name,
    description: `Recorded from ${recordings.map((recording) => `${recording.source} ${recording.peer}`).join(' and ')}: the tree of ${root.display_name} (${rootId}), ${facts.events.length} events.`,
    tins: [root.tin],
    entity,
  };
  const request = informationRequestOf(facts, Date.parse(rootBatch.created_at), !askedForRequest(recordings, rootId));
  if (request !== undefined) scenario.information_request = request;
  const types = facts.events.map((event) => event.type);
  const completedAt = facts.events.find((event) => event.type === 'data_source_run_batch.child_batches_ready')?.at;
  const reportAt = facts.events.find((event) => event.type === 'data_source_run_batch.consolidated_report_ready')?.at;
  const failed = [...facts.batches.values()].some((batch) => batch.data_source_runs.some((run) => run.status === 'definitive_error'));
  if (!failed && reportAt !== undefined) {
    scenario.settings = { child_batches_ready: types.includes('data_source_run_batch.child_batches_ready') };
    scenario.report_after = duration(reportAt - (completedAt ?? lastEnd(facts)));
  }
  return scenario;
}

/** Whether the create call of the tree asked for an information request (else the scenario plays one `always`). */
function askedForRequest(recordings: readonly Recording[], rootId: string): boolean {
  return recordings.some((recording) =>
    recording.exchanges.some((exchange) => {
      if (exchange.operation !== 'createEntityValidation' || !exchange.answer_body.includes(`"${rootId}"`)) return false;
      try {
        const body = JSON.parse(exchange.request_body) as { information_request?: unknown; entity_validation?: { information_request?: unknown } };
        return (body.information_request ?? body.entity_validation?.information_request) != null;
      } catch {
        return false;
      }
    }),
  );
}

/** The latest end of any run of the tree. */
function lastEnd(facts: TreeFacts): number {
  return Math.max(...[...facts.batches.values()].flatMap((batch) => batch.data_source_runs.map((run) => endOf(facts, batch, run) ?? 0)));
}

/** When a run ended: its ready event's instant, else its `succeeded_at`, else its batch's last change. */
function endOf(facts: TreeFacts, batch: SeenBatch, run: SeenRun): number | undefined {
  const event = facts.events.find(
    (candidate) =>
      candidate.type === 'data_source_run_batch.data_source_run.ready' && (candidate.body.data_source_run as { id?: string } | undefined)?.id === run.id,
  );
  if (event !== undefined) return event.at;
  if (run.succeeded_at !== null) return Date.parse(run.succeeded_at);
  return TERMINAL.has(run.status) ? Date.parse(batch.updated_at) : undefined;
}

function outcomesOf(facts: TreeFacts, batch: SeenBatch, run: SeenRun): Outcome[] {
  const start = Date.parse(batch.created_at);
  const end = endOf(facts, batch, run);
  const seen = facts.statuses.get(run.id) ?? [run.status];
  const outcomes: Outcome[] = [];
  const wait = facts.waits.get(run.id);
  const last = seen.filter((status) => TERMINAL.has(status)).at(-1);
  if (wait !== undefined) {
    // It waits from the latest instant the recording allows; the next attempt starts when the input came (readings of
    // recording-facts.ts waitsOf: no payload tells either).
    outcomes.push({ missing_input_data: duration(wait.since - start) });
    if (last === undefined) return outcomes;
    if (end !== undefined && end >= wait.supplied) {
      outcomes.push({ [last]: duration(end - wait.supplied) } as Outcome);
      return outcomes;
    }
  } else if (seen.includes('missing_input_data')) outcomes.push({ missing_input_data: duration(0) });
  if (last === undefined) {
    // Never seen to end: it waits for input (when it was seen waiting) or for longer than the recording lasted.
    if (outcomes.length === 0) outcomes.push({ missing_input_data: duration(0) });
    return outcomes;
  }
  const total = end === undefined ? 0 : end - start;
  // A temporary error sends no event (spec §3): when a read saw one, it is written half-way, the retry after it.
  if (seen.includes('temporary_error') && outcomes.length === 0)
    outcomes.push({ temporary_error: duration(total / 2) }, { [last]: duration(total - Math.round(total / 2)) } as Outcome);
  // Overtaken at its own instant by a run listed after it: its end was scheduled later than that run's, so it was
  // retried (a temporary error sends no event, spec §3), at the latest at that instant.
  else if (outcomes.length === 0 && end !== undefined && overtaken(facts, batch, run, end))
    outcomes.push({ temporary_error: duration(total) }, { [last]: duration(0) } as Outcome);
  else outcomes.push({ [last]: duration(outcomes.length > 0 ? 0 : total) } as Outcome);
  return outcomes;
}

/**
 * The run of a batch that discovered its partners: the one that ended as their batches began, and of several, the one
 * whose ready came last before the `stakeholder.created` that announced them (it fires right after that run's ready,
 * docs/fidelity.md row 24).
 */
function discovererOf(facts: TreeFacts, batch: SeenBatch, ends: Map<string, number | undefined>, discoveredAt: number | undefined): string | undefined {
  const candidates = [...ends.entries()].filter(([, end]) => end !== undefined && end === discoveredAt).map(([type]) => type);
  if (candidates.length === 0 && discoveredAt !== undefined) {
    // The partners came with the entity's formation (it announces the stakeholders it names first, row 24): the run
    // that discovers them ended no earlier; the last to end is one.
    const formation = facts.events.find(
      (event) =>
        event.type === 'entity_validation.formation.ready' &&
        (event.body.formation as { entity_validation_id?: unknown } | undefined)?.entity_validation_id === batch.entity_validation_id,
    );
    if (formation?.at !== discoveredAt) return undefined;
    return [...ends.entries()].filter(([, end]) => end !== undefined && end >= discoveredAt).sort((a, b) => b[1]! - a[1]!)[0]?.[0];
  }
  if (candidates.length < 2) return candidates[0];
  const announced = facts.events.findIndex(
    // Its payload is the validation the partners were added to, theirs listed in its related_entities.
    (event) =>
      event.type === 'entity_validation.stakeholder.created' && (event.body.stakeholder as { id?: unknown } | undefined)?.id === batch.entity_validation_id,
  );
  const readyAt = (type: string) => {
    const run = batch.data_source_runs.find((candidate) => candidate.type === type);
    return facts.events.findIndex(
      (event, index) =>
        (announced < 0 || index < announced) &&
        event.type === 'data_source_run_batch.data_source_run.ready' &&
        (event.body.data_source_run as { id?: string })?.id === run?.id,
    );
  };
  return [...candidates].sort((a, b) => readyAt(b) - readyAt(a))[0];
}

/**
 * Whether `run` was overtaken at its own instant `end`: another run's ready, or its entity's formation, came before its
 * own at that instant, though `run`'s end, had it been its one outcome, was scheduled first (its batch began earlier,
 * or at the same instant with `run` listed first in it or its batch listed first among its parent's children; the
 * formation is scheduled when its source run ends, after the batch began). The service fires what was
 * scheduled first first, so `run` was rescheduled. Runs seen retried are left out as the other.
 */
function overtaken(facts: TreeFacts, batch: SeenBatch, run: SeenRun, end: number): boolean {
  const readyOf = (event: SeenEvent) =>
    event.type === 'data_source_run_batch.data_source_run.ready'
      ? (event.body.data_source_run as { id?: string; data_source_run_batch_id?: string })
      : undefined;
  const mine = facts.events.findIndex((event) => readyOf(event)?.id === run.id);
  if (mine < 0) return false;
  const began = Date.parse(batch.created_at);
  const position = (of: SeenBatch) => facts.batches.get(of.parent_batch_id ?? '')?.child_batches.findIndex((child) => child.id === of.id) ?? -1;
  return facts.events.slice(0, mine).some((event) => {
    // The entity's own formation was scheduled when its source run ended, after the batch began: later than `run`'s end.
    if (event.type === 'entity_validation.formation.ready' && event.at === end)
      return (event.body.formation as { entity_validation_id?: unknown } | undefined)?.entity_validation_id === batch.entity_validation_id;
    const other = readyOf(event);
    if (other === undefined || event.at !== end || (facts.statuses.get(other.id ?? '') ?? []).includes('temporary_error')) return false;
    const otherBatch = facts.batches.get(other.data_source_run_batch_id ?? '');
    if (otherBatch === undefined) return false;
    const otherBegan = Date.parse(otherBatch.created_at);
    if (began !== otherBegan) return began < otherBegan;
    if (otherBatch.id === batch.id)
      return (
        otherBatch.data_source_runs.findIndex((candidate) => candidate.id === other.id) >
        otherBatch.data_source_runs.findIndex((candidate) => candidate.id === run.id)
      );
    return otherBatch.parent_batch_id === batch.parent_batch_id && position(otherBatch) > position(batch);
  });
}

/** The entity of a batch, with its runs, alerts and the partners of its child batches, nested. */
function entityOf(facts: TreeFacts, batch: SeenBatch, parentCountry: string | null): EntityInput | PartnerInput {
  const seen = facts.entities.get(batch.entity_validation_id);
  if (seen === undefined) throw new Error(`the recording never shows the validation ${batch.entity_validation_id} of batch ${batch.id}`);
  const runs: RunInput[] = batch.data_source_runs.map((run) => ({ type: run.type, outcomes: outcomesOf(facts, batch, run) }));
  const ends = new Map(batch.data_source_runs.map((run) => [run.type, endOf(facts, batch, run)]));
  const alerts = batch.raised_alerts.map((alert) => {
    const at = facts.alertSeenAt.get(alert.id) ?? Number.POSITIVE_INFINITY;
    // Raised by the run of this entity that ended last before the alert was first shown.
    const by = [...ends.entries()].filter(([, end]) => end !== undefined && end <= at).sort((a, b) => b[1]! - a[1]!)[0]?.[0];
    return { name: alert.name, severity: alert.severity as 'low', ...(by === undefined ? {} : { raised_by: by }) };
  });
  const children = batch.child_batches.map((child) => facts.batches.get(child.id)).filter((child): child is SeenBatch => child !== undefined);
  const partners = children.map((child) => entityOf(facts, child, parentCountry ?? seen.country) as PartnerInput);
  const discoveredAt = children.length === 0 ? undefined : Math.min(...children.map((child) => Date.parse(child.created_at)));
  const discoverer = discovererOf(facts, batch, ends, discoveredAt);
  const formation = formationOf(facts, batch.entity_validation_id, ends, discoverer);
  const fullName = [seen.name, seen.surname].filter((part) => part !== '').join(' ');
  const entity: Record<string, unknown> = {
    tin: seen.tin,
    ...(parentCountry === null || seen.country !== parentCountry ? { country: seen.country } : {}),
    category: seen.category,
    name: seen.name,
    ...(seen.surname === '' ? {} : { surname: seen.surname }),
    ...(seen.display_name === fullName ? {} : { display_name: seen.display_name }),
    ...(parentCountry !== null && seen.risk_level != null ? { risk_level: seen.risk_level } : {}),
    runs,
    ...(alerts.length === 0 ? {} : { alerts }),
    ...(discoverer === undefined ? {} : { partners_discovered_by: discoverer }),
    ...(formation === undefined ? {} : { formation }),
    ...(partners.length === 0 ? {} : { partners }),
  };
  return entity as unknown as EntityInput;
}

/**
 * Where the source run of an event timed `ready_after` it must have ended, from the runs that ended at the same
 * instant: the service fires what was scheduled first first, and a run's end was scheduled when its batch began. A
 * run's ready at that instant sent after the event was scheduled later than the event's source run ended (the upper
 * bound, exclusive); one sent before it, no later (the lower bound). Runs that were retried are left out: their last
 * step was scheduled when a read may not have shown.
 */
function scheduledAround(facts: TreeFacts, event: SeenEvent): [after: number, before: number] {
  let after = Number.POSITIVE_INFINITY;
  let before = Number.NEGATIVE_INFINITY;
  const index = facts.events.indexOf(event);
  facts.events.forEach((other, at) => {
    if (other.at !== event.at || other.type !== 'data_source_run_batch.data_source_run.ready') return;
    const run = other.body.data_source_run as { id?: string; data_source_run_batch_id?: string } | undefined;
    if ((facts.statuses.get(run?.id ?? '') ?? []).includes('temporary_error')) return;
    const batch = facts.batches.get(run?.data_source_run_batch_id ?? '');
    const seen = batch?.data_source_runs.find((candidate) => candidate.id === run?.id);
    if (batch === undefined || seen === undefined || overtaken(facts, batch, seen, other.at)) return;
    const began = Date.parse(batch.created_at);
    if (at > index) after = Math.min(after, began);
    else if (at < index) before = Math.max(before, began);
  });
  return [after, before];
}

/**
 * The formation of an entity, from its `formation.ready` event: the societary data as sent, read after the run that
 * discovers the partners (else the last run to succeed before it), `ready_after` the time between.
 */
function formationOf(
  facts: TreeFacts,
  validationId: string,
  ends: Map<string, number | undefined>,
  discoverer: string | undefined,
): Record<string, unknown> | undefined {
  const event = facts.events.find(
    (candidate) =>
      candidate.type === 'entity_validation.formation.ready' &&
      (candidate.body.formation as { entity_validation_id?: string })?.entity_validation_id === validationId,
  );
  if (event === undefined) return undefined;
  const sent = event.body.formation as Record<string, unknown>;
  const [after, before] = scheduledAround(facts, event);
  const batch = facts.batches.get(String(sent.data_source_run_batch_id));
  const index = facts.events.indexOf(event);
  const readyIndex = (type: string) => {
    const run = batch?.data_source_runs.find((candidate) => candidate.type === type);
    return facts.events.findIndex((other) => run !== undefined && (other.body.data_source_run as { id?: string } | undefined)?.id === run.id);
  };
  // A source that ended at the formation's own instant sent its ready first: the formation was scheduled as it ended.
  const possible = ([type, end]: [string, number | undefined]) =>
    end !== undefined && (end < event.at || (end === event.at && readyIndex(type) >= 0 && readyIndex(type) < index));
  const fits = (entry: [string, number | undefined]) => possible(entry) && entry[1]! >= before && entry[1]! < after;
  const latest = (entries: Array<[string, number | undefined]>) => entries.sort((a, b) => b[1]! - a[1]!)[0]?.[0];
  const source =
    discoverer !== undefined && fits([discoverer, ends.get(discoverer)])
      ? discoverer
      : (latest([...ends.entries()].filter(fits)) ?? latest([...ends.entries()].filter(possible)));
  return {
    company_type: sent.company_type,
    registry: sent.registry,
    fantasy_name: sent.fantasy_name,
    constitution_date: String(sent.constitution_date).slice(0, 10),
    duration: sent.duration,
    activity_description: sent.activity_description,
    requires_manual_review: sent.requires_manual_review,
    manual_review_codes: sent.manual_review_codes,
    administration: sent.administration,
    equity: sent.equity,
    stakeholders: (sent.stakeholders as Array<Record<string, unknown>>).map(({ tin, roles, ubo, participation, shares, amount, faculties }) => ({
      tin,
      roles,
      ubo,
      participation,
      shares,
      amount,
      faculties,
    })),
    documents: (sent.documents as Array<Record<string, unknown>>).map(({ name, label, source: from, cve }) => ({ name, label, source: from, cve })),
    ...(source === undefined ? {} : { source_run: source, ready_after: duration(event.at - ends.get(source)!) }),
  };
}
