import type {
  DataSourceRunBatch,
  DataSourceRunRecords,
  Formation,
  EntityValidation,
  InformationRequest,
  Scenario,
  ScenarioInformationRequest,
  StakeholderInput,
  ValidationSummary,
  ValidationTree,
} from '../schemas';
import { done, refuse, type ActionResult } from './action-result';
import type { EngineContext } from './engine-context';
import { DEFAULT_MAX_VALIDATIONS, readingsOf, type CreateValidationInput, type EngineOptions } from './engine-options';
import type { EventSink } from './engine-event';
import { EventFanOut } from './event-fan-out';
import { IdSource } from './id-source';
import { InformationRequestFlow } from './information-request-flow';
import { OrganizationState } from './organization-state';
import { renderBatch } from './render-batch';
import { renderFormation } from './render-formation';
import { renderInformationRequest } from './render-information-request';
import { renderValidation } from './render-validation';
import { TreePlay } from './tree-play';
import { TreeStore } from './tree-store';
import { createPartnerValidation, createRootValidation } from './validation-records';
import { chooseScenario, type ScenarioChoice } from './choose-scenario';
import { lookupFile, type FileKind, type FileSource } from './file-lookup';
import type { EngineSnapshot } from './engine-snapshot';
import type { PlayTimerTag } from './play-timers';

/**
 * The information request played when a create call asks for one and the
 * scenario scripts none (docs/fidelity.md): one document, driven through the control API.
 */
const DEFAULT_INFORMATION_REQUEST: ScenarioInformationRequest = {
  name: 'Information request',
  template_id: 'irt_default',
  always: false,
  items: [{ name: 'Company deed', kind: 'document', extract_after: 5_000, extraction_fails: false, extracted_data: {} }],
  steps: [],
};

/**
 * The simulation engine: per-organization state, and the scenario player that
 * turns each validation into state changes and events on the simulated clock.
 * It has no HTTP in it: events go to the sinks (delivery, or a test).
 *
 * Its actions read the clock as they go. The API holds the clock around each request, so a request
 * sees one instant (SimulatedClock.hold); a caller driving the engine directly on a realtime clock at
 * high speed wraps its calls in `clock.hold` the same way.
 *
 * @example
 * const engine = new Engine({ clock, scenarios: library, generate: generateScenario, signer });
 * engine.subscribe((event) => events.push(event));
 * engine.createValidation({ organizationId: 'acme', request: { tin: '76086428-5', country: 'CL' } });
 * await clock.idle();
 */
export class Engine {
  private readonly ctx: EngineContext;
  private readonly ids: IdSource;
  private readonly options: EngineOptions;
  private readonly events: EventFanOut;
  private readonly trees: TreeStore;
  /** Calls that may change state; with the timers the clock fired, {@link stateVersion}. */
  private actions = 0;

  constructor(options: EngineOptions) {
    this.options = options;
    this.trees = new TreeStore(options.signer, options.maxValidations ?? DEFAULT_MAX_VALIDATIONS);
    this.ids = options.ids ?? new IdSource(options.seed ?? 1, () => options.clock.now());
    this.events = new EventFanOut(options.clock);
    const { clock, signer } = options;
    this.ctx = { clock, ids: this.ids, signer, readings: readingsOf(options), emit: (state, input) => this.events.emit(state, input) };
  }

  /**
   * Adds a sink for every event from now on; returns a function that removes it.
   * With `{ readsBodyAtOnce: true }` the sink promises to read `event.body` only
   * while it is called (or not at all), so bodies nobody needs are never rendered.
   */
  subscribe(sink: EventSink, options: { readsBodyAtOnce?: boolean } = {}): () => void {
    return this.events.subscribe(sink, options);
  }

  /** The scenario a validation created through the API plays, while its tree is kept. */
  scenarioFor(validationId: string): Scenario | undefined {
    return this.trees.scenarioOf(validationId);
  }

  /** The label of the request that created a main validation, while it is kept; undefined when it had none. */
  labelOf(validationId: string): string | undefined {
    return this.trees.labelOf(validationId);
  }

  /** The state of one organization (created empty on first use). */
  organization(organizationId: string): OrganizationState {
    return this.trees.organization(organizationId);
  }

  /** The scenario a create call plays (see {@link chooseScenario}). */
  chooseScenario(input: ScenarioChoice): ActionResult<Scenario> {
    return chooseScenario(this.options, input);
  }

  /** Creates a validation and starts playing its tree now (spec §4, POST entity_validations). */
  createValidation(input: CreateValidationInput): ActionResult<EntityValidation> {
    this.actions += 1;
    const chosen = this.chooseScenario({ tin: input.request.tin, country: input.request.country, scenarioName: input.scenarioName });
    if (!chosen.ok) return chosen;
    const scenario = chosen.value;
    const state = this.organization(input.organizationId);
    const root = createRootValidation(this.ctx, state, { organizationId: input.organizationId, request: input.request, script: scenario.entity });
    const asked = input.request.information_request;
    const requestScript =
      asked !== undefined || scenario.information_request?.always ? (scenario.information_request ?? DEFAULT_INFORMATION_REQUEST) : undefined;
    const requestId = requestScript ? this.ids.next('irq') : null;
    const play = this.startPlay(state, root, scenario, requestId);
    if (requestScript && requestId !== null) {
      const flow = new InformationRequestFlow({
        ctx: this.ctx,
        state,
        root,
        id: requestId,
        batchId: play.rootBatch.id,
        templateId: asked?.template_id ?? requestScript.template_id,
        webhookUrl: asked?.webhook_url ?? null,
        script: requestScript,
      });
      this.trees.addFlow(flow);
    }
    this.trees.addRoot(root.id, state.id, scenario, input.label);
    const created = renderValidation(state, root);
    this.trees.enforceRetention();
    return done(created);
  }

  /**
   * Whether the validation's tree (every play and information request flow of it) has nothing left
   * scheduled; undefined for an id that is not a validation created through the API in this organization.
   */
  isSettled(organizationId: string, validationId: string): boolean | undefined {
    return this.trees.isSettled(organizationId, validationId);
  }

  /**
   * Changes whenever the state may have changed: an action on the engine, or a timer of the clock
   * (plays move on only through them). Two reads at the same version render the same.
   */
  get stateVersion(): number {
    return this.actions + this.options.clock.fired;
  }

  /** Whether `id` named a resource of the organization that retention evicted. */
  wasEvicted(organizationId: string, id: string): boolean {
    return this.trees.wasEvicted(organizationId, id);
  }

  /** What retention keeps and has evicted (`GET /_mock/health`). */
  retention(): { validations: number; max_validations: number; evicted_validations: number } {
    return this.trees.retention();
  }

  private startPlay(state: OrganizationState, root: ReturnType<typeof createRootValidation>, scenario: Scenario, requestId: string | null): TreePlay {
    const settings = this.options.settings?.(state.id) ?? { child_batches_ready: true };
    const play = new TreePlay({ ctx: this.ctx, state, root, scenario, settings, informationRequestId: requestId });
    this.trees.addPlay(play);
    play.start();
    return play;
  }

  /** The validation as it stands now, or undefined when the organization has none with that id. */
  getValidation(organizationId: string, id: string): EntityValidation | undefined {
    const state = this.trees.find(organizationId);
    const validation = state?.validations.get(id);
    return state && validation ? renderValidation(state, validation, this.options.clock.now()) : undefined;
  }

  /** The records of a run (docs/fidelity.md row 17); empty until the run succeeded. */
  getRecords(organizationId: string, runId: string): DataSourceRunRecords | undefined {
    const run = this.trees.find(organizationId)?.runs.get(runId);
    if (!run) return undefined;
    const records = structuredClone(run.records);
    return { data_source_run_id: run.id, type: run.type, count: records.length, records };
  }

  /**
   * An organization's main validations, newest first, from just before the one at place `before` (the
   * dashboard's list), with how many it keeps in all and the place of the last one listed when more remain.
   */
  listValidations(
    organizationId: string,
    page: { before?: number; limit: number; fits?: (summary: ValidationSummary) => boolean },
  ): { validations: ValidationSummary[]; total: number; next: number | null } {
    return this.trees.listValidations(organizationId, page);
  }

  /** A main validation's whole tree as it stands now (the dashboard's tree view), or undefined when the organization has no such main validation. */
  getTree(organizationId: string, id: string): ValidationTree | undefined {
    return this.trees.getTree(organizationId, id, this.options.clock.now());
  }
  /** Plays a validation's tree again as a new run; formation.ready fires once more (spec §6 rule 2). */
  revalidate(organizationId: string, id: string): ActionResult<EntityValidation> {
    this.actions += 1;
    const state = this.trees.find(organizationId);
    const root = state?.validations.get(id);
    if (!state || !root) return refuse('not_found', `no entity validation ${id} in organization ${organizationId}`);
    const scenario = this.trees.scenarioOf(root.id);
    if (!scenario) return refuse('conflict', `${id} is a related entity; revalidate the validation it belongs to (${root.rootId})`);
    // One play of a tree at a time (docs/fidelity.md row 79): overlapping plays would interleave two trees' events.
    const latest = root.batchIds.at(-1);
    const running = latest === undefined ? undefined : this.trees.play(latest)?.stillRunning;
    if (running !== undefined) {
      const why =
        'waitingRunId' in running
          ? `its run ${running.waitingRunId} waits for input (POST /_mock/data_source_runs/${running.waitingRunId}/input)`
          : `the steps it has scheduled so far end at ${new Date(running.lastDueAt).toISOString()}, and it schedules more as it goes (a run's next status, a partner's batch, the report), so it may end later; POST /_mock/clock/run plays it to its end`;
      return refuse('conflict', `the play of ${id} in batch ${latest} is still running: ${why}; revalidate once it has ended`);
    }
    this.startPlay(state, root, scenario, null);
    return done(renderValidation(state, root));
  }

  /** Supplies the input a run waits for in missing_input_data; its script goes on from now. */
  supplyInput(organizationId: string, runId: string): ActionResult {
    this.actions += 1;
    const run = this.trees.find(organizationId)?.runs.get(runId);
    if (!run) return refuse('not_found', `no data source run ${runId} in organization ${organizationId}`);
    if (!run.waitingForInput) return refuse('conflict', `${runId} is ${run.status}, not waiting for input (missing_input_data)`);
    run.waitingForInput.resume();
    return done(undefined);
  }

  /** Generates the consolidated report of a main batch on demand; works after a partner's definitive failure (spec §6 rule 4). */
  generateConsolidatedReport(organizationId: string, batchId: string): ActionResult {
    this.actions += 1;
    const batch = this.trees.find(organizationId)?.batches.get(batchId);
    const play = this.trees.play(batchId);
    if (!batch) return refuse('not_found', `no data source run batch ${batchId} in organization ${organizationId}`);
    if (!play)
      return refuse('conflict', `${batchId} is a related entity's batch; reports cover the whole tree, so ask for the main batch (${batch.parentBatchId})`);
    play.reportReady();
    return done(undefined);
  }

  /**
   * A batch as it stands now, with a freshly signed `consolidated_report_url`
   * when it has a report: the way to re-fetch an expired pre-signed URL (docs/fidelity.md row 18).
   * The fresh URL is only rendered, never stored: a read changes nothing (row 77).
   */
  getBatch(organizationId: string, batchId: string): DataSourceRunBatch | undefined {
    const state = this.trees.find(organizationId);
    const batch = state?.batches.get(batchId);
    if (!state || !batch) return undefined;
    return renderBatch(state, batch, this.options.clock.now());
  }

  /** The latest formation of a validation, with freshly signed document and legal report URLs (rendered, never stored). */
  getFormation(organizationId: string, validationId: string): Formation | undefined {
    const state = this.trees.find(organizationId);
    const formation = state?.formations.get(validationId)?.at(-1);
    if (!state || !formation) return undefined;
    return renderFormation(state, formation, this.options.clock.now());
  }

  /** An information request as its events carry it. */
  getInformationRequest(organizationId: string, id: string): InformationRequest | undefined {
    const state = this.trees.find(organizationId);
    const request = state?.informationRequests.get(id);
    return state && request ? renderInformationRequest(state, request, this.options.clock.now()) : undefined;
  }

  /**
   * An information request found by id alone, in whichever organization holds
   * it: its `recipient_url` is public, like the service's (the id is the secret).
   */
  locateInformationRequest(id: string): { organizationId: string; request: InformationRequest } | undefined {
    for (const state of this.trees.states()) {
      const request = state.informationRequests.get(id);
      if (request) return { organizationId: state.id, request: renderInformationRequest(state, request) };
    }
    return undefined;
  }

  /** The flow of an information request, to drive it (submit, analyze, assign, evaluate). */
  informationRequestFlow(organizationId: string, id: string): ActionResult<InformationRequestFlow> {
    this.actions += 1;
    const flow = this.trees.flow(id);
    if (!flow || !this.trees.find(organizationId)?.informationRequests.has(id)) {
      return refuse('not_found', `no information request ${id} in organization ${organizationId}`);
    }
    return done(flow);
  }

  /** The data of a file behind a pre-signed URL, in the organization its (signed) path names. */
  lookupFile(organizationId: string, kind: FileKind, id: string): FileSource | undefined {
    const state = this.trees.find(organizationId);
    return state === undefined ? undefined : lookupFile(state, kind, id);
  }

  /**
   * Adds stakeholders to a validation through the API: they become related
   * entities and `entity_validation.stakeholder.created` fires (spec §6, Triggers).
   * A TIN that is already a related entity is refused.
   */
  addStakeholders(organizationId: string, validationId: string, stakeholders: readonly StakeholderInput[]): ActionResult<EntityValidation> {
    this.actions += 1;
    const state = this.trees.find(organizationId);
    const validation = state?.validations.get(validationId);
    if (!state || !validation) return refuse('not_found', `no entity validation ${validationId} in organization ${organizationId}`);
    const known = new Set(validation.relatedEntityIds.map((id) => OrganizationState.must(state.validations, id).tin));
    const repeated = stakeholders.filter(
      (stakeholder, index) => known.has(stakeholder.tin) || stakeholders.findIndex((other) => other.tin === stakeholder.tin) !== index,
    );
    if (repeated.length > 0)
      return refuse('conflict', `already a related entity of ${validationId}, or given twice: ${repeated.map((stakeholder) => stakeholder.tin).join(', ')}`);
    for (const stakeholder of stakeholders) {
      const partner = createPartnerValidation(this.ctx, state, {
        parent: validation,
        script: { surname: '', risk_level: null, ...stakeholder },
        defaultCountry: validation.country,
      });
      validation.partnersByTin.set(stakeholder.tin, partner.id);
      validation.relatedEntityIds.push(partner.id);
    }
    const root = OrganizationState.must(state.validations, validation.rootId);
    this.ctx.emit(state, {
      type: 'entity_validation.stakeholder.created',
      resource: () => renderValidation(state, validation),
      validationId: root.id,
      resourceId: validation.id,
      legacyWebhookUrl: root.webhook?.webhook_url ?? null,
    });
    return done(renderValidation(state, validation));
  }

  /** The engine's whole state as plain data (a world's snapshot), sharing live records: copy it before it is kept. */
  snapshot(): EngineSnapshot {
    return { actions: this.actions, ids: this.ids.position(), sequence: this.events.lastSequence, trees: this.trees.snapshot() };
  }

  /**
   * Takes a snapshot's state into this engine, which must be new (nothing created yet): records, trees, plays,
   * flows, the id source's position and the event numbering. The plays' timers come after, through
   * {@link restoreTimer}, in the clock's order. Throws, naming what, on a snapshot that does not hold together.
   */
  restore(snapshot: EngineSnapshot): void {
    if (this.actions !== 0 || this.events.lastSequence !== 0) throw new Error('bvs-mock: an engine restores a snapshot only while new');
    this.actions = snapshot.actions;
    this.ids.restorePosition(snapshot.ids);
    this.events.restoreSequence(snapshot.sequence);
    const root = (state: OrganizationState, id: string) => {
      const found = state.validations.get(id);
      if (found === undefined) throw new Error(`a play or flow names validation ${id}, which organization ${state.id} does not hold`);
      return found;
    };
    this.trees.restore(snapshot.trees, {
      play: (state, play) =>
        new TreePlay({
          ctx: this.ctx,
          state,
          root: root(state, play.root),
          scenario: play.scenario,
          settings: play.settings,
          informationRequestId: null,
          restored: play,
        }),
      flow: (state, id) => {
        const record = state.informationRequests.get(id);
        if (record === undefined) throw new Error(`information request flow ${id} has no record in organization ${state.id}`);
        return new InformationRequestFlow({ ctx: this.ctx, state, root: root(state, record.validationId), restored: record });
      },
    });
  }

  /** Schedules again, at `at`, a play's or flow's timer a snapshot kept; throws when the tag names no play, flow or record kept. */
  restoreTimer(at: number, tag: PlayTimerTag): void {
    const owner = tag.kind.startsWith('play.') ? this.trees.play((tag as { play: string }).play) : this.trees.flow((tag as { flow: string }).flow);
    if (owner?.restoreTimer(at, tag) !== true) throw new Error(`timer ${JSON.stringify(tag)} names a play, flow or record the snapshot does not hold`);
  }

  /** Forgets every organization's state and starts ids and sequence numbers over; the clock is reset by its owner. */
  reset(): void {
    this.actions += 1;
    this.trees.clear();
    this.ids.reset();
    this.events.reset();
  }
}
