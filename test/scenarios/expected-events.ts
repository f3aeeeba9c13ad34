import type { Scenario, ScenarioPartner, ScenarioRun } from '../../src/schemas';

/**
 * A reference reading of the engine semantics a scenario plays to (docs/scenarios.md "How a
 * scenario plays"), small enough to check by eye. It writes the event lists in the comment blocks
 * of `scenarios/*.yaml` and checks them; it is not the engine, and knows nothing of payloads.
 */
export interface TimelineEvent {
  /** Simulated milliseconds since the create call. */
  at: number;
  type: string;
  /** What a reader needs to recognise the event: the run, the entity, the outcome. */
  detail: string;
  /** The scheduled step that emitted it; two steps at the same time make the order a tie. */
  step: number;
}

export interface TimelineOptions {
  /** The organization's child_batches_ready setting; default true (the default organization). */
  childBatchesReady?: boolean;
  /** Whether the create call asks for an information request. */
  informationRequest?: boolean;
  /** When input is supplied to every run waiting in missing_input_data; default never. */
  inputAt?: number;
}

type Entity = ScenarioPartner | Scenario['entity'];

interface EntityState {
  entity: Entity;
  main: boolean;
  runs: RunState[];
}

interface RunState {
  run: ScenarioRun;
  owner: EntityState;
  next: number;
  status: string;
}

export function expectedEvents(scenario: Scenario, options: TimelineOptions = {}): TimelineEvent[] {
  const events: TimelineEvent[] = [];
  const queue: Array<{ at: number; seq: number; fn: () => void }> = [];
  let seq = 0;
  let step = 0;
  let now = 0;
  const schedule = (at: number, fn: () => void) => queue.push({ at, seq: seq++, fn });
  const emit = (type: string, detail: string) => events.push({ at: now, type, detail, step });
  const childBatchesReady = scenario.settings.child_batches_ready ?? options.childBatchesReady ?? true;
  const entities: EntityState[] = [];
  const waiting: RunState[] = [];
  /** Partners a stakeholder.created has announced. */
  const announced = new Set<ScenarioPartner>();

  const label = (entity: Entity) => (entity.display_name ?? `${entity.name} ${entity.surname}`).trim();
  const discoveryRun = (entity: Entity) =>
    entity.partners_discovered_by ?? entity.runs.find((run) => run.type.endsWith('/registry'))?.type ?? entity.runs[0]!.type;
  const terminal = (run: RunState) => run.status === 'succeeded' || run.status === 'definitive_error';

  const addEntity = (entity: Entity, main: boolean) => {
    const state: EntityState = { entity, main, runs: [] };
    state.runs = entity.runs.map((run) => ({ run, owner: state, next: 0, status: 'created' }));
    entities.push(state);
    return state;
  };
  const play = (run: RunState, from: number) => {
    const outcome = run.run.outcomes[run.next]!;
    schedule(from + outcome.after, () => reach(run, outcome.status));
  };
  const reach = (run: RunState, status: string) => {
    run.status = status;
    run.next += 1;
    if (status === 'temporary_error') play(run, now);
    else if (status === 'missing_input_data') waiting.push(run);
    else finish(run);
  };
  // A formation read before the discovery announces the partners it names first (docs/scenarios.md, step 6).
  const formationReady = (entity: Entity) => {
    const tins = new Set(entity.formation!.stakeholders.map((stakeholder) => stakeholder.tin));
    const added = (entity.partners ?? []).filter((partner) => tins.has(partner.tin) && !announced.has(partner));
    for (const partner of added) announced.add(partner);
    if (added.length > 0) emit('entity_validation.stakeholder.created', `${added.length} ${added.length === 1 ? 'partner' : 'partners'} of ${label(entity)}`);
    emit('entity_validation.formation.ready', label(entity));
  };
  const finish = (run: RunState) => {
    const { entity, main } = run.owner;
    emit('data_source_run_batch.data_source_run.ready', `${run.run.type}, ${label(entity)}${run.status === 'succeeded' ? '' : `: ${run.status}`}`);
    if (run.status === 'succeeded' && run.run.type === discoveryRun(entity) && (entity.partners ?? []).length > 0) {
      const partners = entity.partners!.map((partner) => addEntity(partner, false));
      const added = entity.partners!.filter((partner) => !announced.has(partner));
      for (const partner of added) announced.add(partner);
      if (added.length > 0) emit('entity_validation.stakeholder.created', `${added.length} ${added.length === 1 ? 'partner' : 'partners'} of ${label(entity)}`);
      for (const partner of partners) for (const partnerRun of partner.runs) play(partnerRun, now);
    }
    if (run.status === 'succeeded' && entity.formation && run.run.type === (entity.formation.source_run ?? discoveryRun(entity))) {
      schedule(now + entity.formation.ready_after, () => formationReady(entity));
    }
    const mainRuns = entities[0]!.runs;
    if (main && mainRuns.every(terminal)) {
      emit('data_source_run_batch.ready', `runs_succeeded ${mainRuns.every((each) => each.status === 'succeeded')}`);
    }
    const all = entities.flatMap((each) => each.runs);
    if (all.every(terminal) && !all.some((each) => each.status === 'definitive_error')) {
      if (childBatchesReady)
        emit('data_source_run_batch.child_batches_ready', `${entities.length - 1} ${entities.length === 2 ? 'child batch' : 'child batches'}`);
      schedule(now + scenario.report_after, () => emit('data_source_run_batch.consolidated_report_ready', 'the whole tree'));
    }
  };

  for (const run of addEntity(scenario.entity, true).runs) play(run, 0);
  const request = scenario.information_request;
  if (request && (request.always || options.informationRequest)) scheduleRequest(request, schedule, emit);
  if (options.inputAt !== undefined) {
    schedule(options.inputAt, () => {
      for (const run of waiting.splice(0)) {
        if (run.next < run.run.outcomes.length) play(run, now);
        else reach(run, 'succeeded');
      }
    });
  }

  while (queue.length > 0) {
    queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const next = queue.shift()!;
    now = next.at;
    step += 1;
    next.fn();
  }
  return events;
}

function scheduleRequest(
  request: NonNullable<Scenario['information_request']>,
  schedule: (at: number, fn: () => void) => void,
  emit: (type: string, detail: string) => void,
): void {
  const submitted = new Set<string>();
  let collected = false;
  let at = 0;
  for (const step of request.steps) {
    at += step.after;
    const stepAt = at;
    schedule(stepAt, () => {
      if (step.submit !== undefined) {
        const names = step.submit === 'all' ? request.items.map((item) => item.name) : step.submit;
        for (const item of request.items.filter((each) => names.includes(each.name))) {
          schedule(stepAt + item.extract_after, () => emit('information_request.requestable_item.extracted', item.name));
          submitted.add(item.name);
        }
        // Collected when the recipient has submitted every item (spec §6 Triggers), before extraction.
        if (!collected && submitted.size === request.items.length) {
          collected = true;
          emit('information_request.all_items_collected', request.name);
          emit('information_request.status_updated', 'items_collected');
        }
      } else if (step.analyze !== undefined) {
        emit('information_request.analysis_success', request.name);
        emit('information_request.status_updated', 'in_review');
      } else if (step.assign !== undefined) {
        emit('information_request.assignment.updated', `${step.assign.reviewer_email} assigned (${step.assign.role})`);
      } else if (step.complete_assignment !== undefined) {
        emit('information_request.assignment.updated', `${step.complete_assignment} completed`);
      } else if (step.evaluate !== undefined) {
        emit('information_request.evaluated', 'responsible_comment set');
        emit('information_request.status_updated', 'evaluated');
      }
    });
  }
}

/** `m:ss`, or `m:ss.mmm` when the time is not a whole second. */
export function formatTime(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  const millis = ms % 1000;
  return `${minutes}:${String(seconds).padStart(2, '0')}${millis === 0 ? '' : `.${String(millis).padStart(3, '0')}`}`;
}

/** The comment lines of a scenario file's event list. */
export function formatTimeline(events: readonly TimelineEvent[]): string[] {
  const width = Math.max(...events.map((event) => event.type.length));
  return events.map((event) => `#  ${formatTime(event.at).padStart(5)}  ${event.type.padEnd(width)}  ${event.detail}`);
}

/** Reads the event list back from a scenario file's comment block: `[time, type]` pairs. */
export function commentedEvents(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('#')) break;
    const match = /^#\s+(\d+:\d{2}(?:\.\d{3})?)\s+([a-z_]+(?:\.[a-z_]+)+)\b/.exec(line);
    if (match) pairs.push([match[1]!, match[2]!]);
  }
  return pairs;
}

/**
 * Times at which two separately scheduled steps emit different event types: the order there
 * depends on how the engine breaks ties, so a built-in scenario should not have any.
 */
export function ambiguousTies(events: readonly TimelineEvent[]): string[] {
  const byTime = new Map<number, Map<number, string[]>>();
  for (const event of events) {
    const steps = byTime.get(event.at) ?? new Map<number, string[]>();
    steps.set(event.step, [...(steps.get(event.step) ?? []), event.type]);
    byTime.set(event.at, steps);
  }
  const ties: string[] = [];
  for (const [at, steps] of byTime) {
    const kinds = new Set([...steps.values()].map((types) => types.join(',')));
    if (steps.size > 1 && kinds.size > 1) ties.push(`${formatTime(at)}: ${[...kinds].join(' | ')}`);
  }
  return ties;
}
