import { PlayTimers, type PlayTimerTag } from './play-timers';
import { restorePlay, snapshotPlay, type EntityPlay, type TreePlaySnapshot } from './tree-play-snapshot';
import type { DataSourceRunBatch, Scenario, ScenarioPartner, EventType } from '../schemas';
import type { EngineContext, PlaySettings } from './engine-context';
import { FILE_PATHS } from './engine-context';
import { OrganizationState } from './organization-state';
import { renderBatch, renderRun, withListedChildren } from './render-batch';
import { renderFormation } from './render-formation';
import { renderValidation } from './render-validation';
import { keepReportTree, type AlertRecord, type BatchRecord, type FormationRecord, type ReportEdition, type RunRecord, type ValidationRecord } from './records';
import { createBatchRecord, createPartnerValidation } from './validation-records';
import { discoveryRun, partnerFailed, runRecords } from './entity-script-runs';

/** Generations of one main batch's report kept (on-demand reports may be asked for again and again): the oldest go first. */
export const MAX_REPORT_EDITIONS = 20;

const { must } = OrganizationState;

/** Options of a {@link TreePlay}. */
export interface TreePlayOptions {
  ctx: EngineContext;
  state: OrganizationState;
  /** The validation created through the API. */
  root: ValidationRecord;
  scenario: Scenario;
  settings: PlaySettings;
  /** The information request the main batch belongs to, if any. */
  informationRequestId: string | null;
  /** Where a play restored from a snapshot stood (its records are already in `state`); undefined for a new play. */
  restored?: TreePlaySnapshot;
}

/**
 * One play of a validation tree (a creation or a revalidation): creates the
 * batches and runs, schedules every outcome on the clock, and emits the events
 * in the spec's order (spec §6, Event order; docs/fidelity.md rows 14, 23, 24).
 */
export class TreePlay {
  private readonly ctx: EngineContext;
  private readonly timers: PlayTimers;
  /** Runs of this play waiting in missing_input_data, with the index of the outcome they stopped at. */
  private readonly waitingRuns = new Map<string, number>();
  /** Every entity this play has started, by its batch id, parents first. */
  private readonly entities = new Map<string, EntityPlay>();
  private readonly state: OrganizationState;
  private readonly root: ValidationRecord;
  private readonly scenario: Scenario;
  private readonly settings: PlaySettings;
  /** Whether any run of the tree ended in definitive_error (spec §6 rule 4). */
  private failed = false;
  readonly rootBatch: BatchRecord;

  constructor(options: TreePlayOptions) {
    this.ctx = options.ctx;
    this.timers = new PlayTimers(options.ctx.clock);
    this.state = options.state;
    this.root = options.root;
    this.scenario = options.scenario;
    this.settings = options.settings;
    if (options.restored !== undefined) {
      this.rootBatch = restorePlay(options.restored, { state: this.state, entities: this.entities, waitFor: (...args) => this.waitFor(...args) });
      this.failed = options.restored.failed;
      return;
    }
    this.rootBatch = this.createBatch(this.root, null, options.informationRequestId);
    this.root.batchIds.push(this.rootBatch.id);
  }

  /** The organization whose tree this is. */
  get organizationId(): string {
    return this.state.id;
  }

  /** Where this play stands, as plain data (a world's snapshot); its timers are the clock's, tagged. */
  snapshot(): TreePlaySnapshot {
    return snapshotPlay(
      { root: this.root, rootBatch: this.rootBatch, scenario: this.scenario, settings: this.settings, failed: this.failed },
      this.entities,
      this.waitingRuns,
    );
  }

  /** Schedules again one of this play's timers from a snapshot; false when the tag names nothing of it. */
  restoreTimer(at: number, tag: PlayTimerTag): boolean {
    if (tag.kind === 'play.report') {
      this.timers.schedule(at, () => this.reportReady(), tag);
      return true;
    }
    const entity = tag.kind === 'play.outcome' || tag.kind === 'play.formation' ? this.entities.get(tag.entity) : undefined;
    if (entity === undefined) return false;
    if (tag.kind === 'play.formation') {
      this.timers.schedule(at, () => this.formationReady(entity), tag);
      return true;
    }
    const run = tag.kind === 'play.outcome' ? this.state.runs.get(tag.run) : undefined;
    if (tag.kind !== 'play.outcome' || run === undefined || run.batchId !== entity.batch.id) return false;
    this.timers.schedule(at, () => this.reach(entity, run, tag.status as RunRecord['status'], tag.index), tag);
    return true;
  }

  /** Starts the main entity's runs now. */
  start(): void {
    this.startEntity({
      validation: this.root,
      batch: this.rootBatch,
      script: this.scenario.entity,
      parent: null,
      runsLeft: 0,
      partnersLeft: 0,
      complete: false,
    });
  }

  private createBatch(validation: ValidationRecord, parent: BatchRecord | null, informationRequestId: string | null): BatchRecord {
    return createBatchRecord(this.ctx, this.state, { validation, parent, informationRequestId });
  }

  private startEntity(entity: EntityPlay): void {
    this.entities.set(entity.batch.id, entity);
    const now = this.ctx.clock.now();
    entity.runsLeft = entity.script.runs.length;
    for (const script of entity.script.runs) {
      const run: RunRecord = {
        id: this.ctx.ids.next('dsr'),
        type: script.type,
        sourceName: script.type.slice(script.type.indexOf('/') + 1),
        validationId: entity.validation.id,
        batchId: entity.batch.id,
        createdAt: this.ctx.clock.iso(),
        succeededAt: null,
        status: 'created',
        history: [{ status: 'created', at: this.ctx.clock.iso() }],
        script,
        records: [],
        waitingForInput: null,
      };
      this.state.runs.set(run.id, run);
      entity.batch.runIds.push(run.id);
      this.scheduleOutcome(entity, run, 0, now);
    }
  }

  private scheduleOutcome(entity: EntityPlay, run: RunRecord, index: number, startedAt: number): void {
    const outcome = run.script.outcomes[index];
    if (outcome === undefined) {
      // Input arrived for a run whose script ended waiting: it succeeds at once (docs/fidelity.md row 14).
      this.reach(entity, run, 'succeeded', index);
      return;
    }
    const tag = { kind: 'play.outcome' as const, play: this.rootBatch.id, entity: entity.batch.id, run: run.id, status: outcome.status, index };
    this.timers.schedule(startedAt + outcome.after, () => this.reach(entity, run, outcome.status, index), tag);
  }

  private reach(entity: EntityPlay, run: RunRecord, status: RunRecord['status'], index: number): void {
    const now = this.ctx.clock.now();
    run.status = status;
    run.history.push({ status, at: this.ctx.clock.iso() });
    entity.batch.updatedAt = this.ctx.clock.iso();
    if (status === 'temporary_error') {
      this.scheduleOutcome(entity, run, index + 1, now);
      return;
    }
    if (status === 'missing_input_data') {
      this.waitFor(entity, run, index);
      return;
    }
    if (status === 'succeeded') {
      run.succeededAt = this.ctx.clock.iso();
      const raised = this.raiseAlerts(entity, run);
      run.records = runRecords(run, raised, () => this.ctx.ids.next('bbs'));
    } else {
      this.failed = true;
    }
    // Everything this instant changes is done before any event of it is rendered, so each payload shows
    // one consistent instant (docs/fidelity.md row 76): the batch's runs_succeeded as soon as its last
    // run ended, and partner batches with their runs before stakeholder.created announces them.
    this.settleRun(entity);
    // Under the reading run-ready-on-failure=withheld (docs/fidelity.md row 23) a run that failed for good is not announced.
    if (status === 'succeeded' || this.ctx.readings['run-ready-on-failure'] === 'sent') {
      this.emit('data_source_run_batch.data_source_run.ready', () => renderRun(run), run.id);
    }
    if (status === 'succeeded') {
      if (run.type === discoveryRun(entity.script)) this.discoverPartners(entity);
      const formation = entity.script.formation;
      if (formation && run.type === (formation.source_run ?? discoveryRun(entity.script))) {
        const tag = { kind: 'play.formation' as const, play: this.rootBatch.id, entity: entity.batch.id };
        this.timers.schedule(now + formation.ready_after, () => this.formationReady(entity), tag);
      }
    }
    this.runEnded(entity);
  }

  /** The run waits in missing_input_data at outcome `index`, until input arrives. */
  private waitFor(entity: EntityPlay, run: RunRecord, index: number): void {
    this.waitingRuns.set(run.id, index);
    run.waitingForInput = {
      resume: () => {
        this.waitingRuns.delete(run.id);
        run.waitingForInput = null;
        run.status = 'created';
        run.history.push({ status: 'created', at: this.ctx.clock.iso() });
        entity.batch.updatedAt = this.ctx.clock.iso();
        this.scheduleOutcome(entity, run, index + 1, this.ctx.clock.now());
      },
    };
  }

  /** Raises the alerts this run's success raises, and returns them. */
  private raiseAlerts(entity: EntityPlay, run: RunRecord): AlertRecord[] {
    const firstRun = entity.script.runs[0]!.type;
    const raised: AlertRecord[] = [];
    for (const alert of entity.script.alerts) {
      if ((alert.raised_by ?? firstRun) !== run.type) continue;
      const id = this.ctx.ids.next('rlal');
      const record: AlertRecord = { id, name: alert.name, severity: alert.severity, validationId: entity.validation.id, batchId: entity.batch.id };
      this.state.alerts.set(id, record);
      entity.batch.alertIds.push(id);
      raised.push(record);
    }
    return raised;
  }

  /** Partners become related entities with batches of their own; stakeholder.created announces them (spec §6 rule 1). */
  private discoverPartners(entity: EntityPlay): void {
    const partners = entity.script.partners ?? [];
    if (partners.length === 0) return;
    const added: string[] = [];
    const children: EntityPlay[] = [];
    for (const script of partners) {
      const validation = this.partnerValidation(entity, script);
      if (!entity.validation.relatedEntityIds.includes(validation.id)) {
        entity.validation.relatedEntityIds.push(validation.id);
        added.push(validation.id);
      }
      const batch = this.createBatch(validation, entity.batch, null);
      validation.batchIds.push(batch.id);
      entity.batch.childBatchIds.push(batch.id);
      children.push({ validation, batch, script, parent: entity, runsLeft: 0, partnersLeft: 0, complete: false });
    }
    entity.batch.updatedAt = this.ctx.clock.iso();
    entity.partnersLeft += children.length;
    for (const child of children) this.startEntity(child);
    if (added.length > 0) {
      this.emit('entity_validation.stakeholder.created', () => renderValidation(this.state, entity.validation), entity.validation.id);
    }
  }

  private partnerValidation(entity: EntityPlay, script: ScenarioPartner): ValidationRecord {
    const known = entity.validation.partnersByTin.get(script.tin);
    if (known !== undefined) return must(this.state.validations, known);
    const validation = createPartnerValidation(this.ctx, this.state, { parent: entity.validation, script, defaultCountry: this.root.country });
    entity.validation.partnersByTin.set(script.tin, validation.id);
    return validation;
  }

  private formationReady(entity: EntityPlay): void {
    const script = entity.script.formation!;
    const now = this.ctx.clock.now();
    const stakeholderIds = new Map<string, string>();
    const added: string[] = [];
    for (const stakeholder of script.stakeholders) {
      const partner = (entity.script.partners ?? []).find((candidate) => candidate.tin === stakeholder.tin)!;
      const validation = this.partnerValidation(entity, partner);
      stakeholderIds.set(stakeholder.tin, validation.id);
      if (!entity.validation.relatedEntityIds.includes(validation.id)) added.push(validation.id);
    }
    // A formation read before the partners are discovered (its own `source_run`) adds its stakeholders from the
    // societary data (spec §6, Triggers): announced first, so no event names an entity before stakeholder.created
    // does (docs/fidelity.md row 24); their batches still start when the discovery run succeeds.
    if (added.length > 0) {
      entity.validation.relatedEntityIds.push(...added);
      this.emit('entity_validation.stakeholder.created', () => renderValidation(this.state, entity.validation), entity.validation.id);
    }
    const formation: FormationRecord = {
      validationId: entity.validation.id,
      batchId: entity.batch.id,
      script,
      documents: script.documents.map((document) => {
        const id = this.ctx.ids.next('doc');
        return { id, ...document, file: { path: FILE_PATHS.document(this.state.id, id), issuedAt: now }, createdAt: this.ctx.clock.iso() };
      }),
      legalReport: { path: FILE_PATHS.legalReport(this.state.id, entity.batch.id), issuedAt: now },
      createdAt: this.ctx.clock.iso(),
      stakeholderIds,
    };
    const list = this.state.formations.get(entity.validation.id) ?? [];
    list.push(formation);
    this.state.formations.set(entity.validation.id, list);
    this.emit('entity_validation.formation.ready', () => renderFormation(this.state, formation), entity.validation.id);
  }

  /** One run of the entity ended: when it was the last, the batch's runs_succeeded is known. */
  private settleRun(entity: EntityPlay): void {
    entity.runsLeft -= 1;
    if (entity.runsLeft > 0) return;
    entity.batch.runsSucceeded = entity.batch.runIds.every((id) => must(this.state.runs, id).status === 'succeeded');
    entity.batch.updatedAt = this.ctx.clock.iso();
  }

  /**
   * After the events of a run's end: the main batch's ready once all its runs ended, then whether the tree is
   * complete. Under the reading `ready-on-main-failure=withheld` (the trigger table's "completed successfully",
   * docs/fidelity.md row 31) a main batch whose runs did not all succeed gets no `ready`.
   */
  private runEnded(entity: EntityPlay): void {
    if (entity.runsLeft > 0) return;
    const withheld = this.ctx.readings['ready-on-main-failure'] === 'withheld' && !entity.batch.runsSucceeded;
    if (entity.parent === null && !withheld) {
      this.emit('data_source_run_batch.ready', () => renderBatch(this.state, entity.batch), entity.batch.id);
    }
    this.checkComplete(entity);
  }

  private checkComplete(entity: EntityPlay): void {
    if (entity.complete || entity.runsLeft > 0 || entity.partnersLeft > 0) return;
    entity.complete = true;
    if (entity.parent !== null) {
      entity.parent.partnersLeft -= 1;
      this.checkComplete(entity.parent);
      return;
    }
    this.treeComplete();
  }

  /**
   * The whole tree finished: child_batches_ready, then the consolidated report, unless a run failed for good (spec §6 rules 4, 5;
   * docs/fidelity.md rows 32, 33; the readings `child-batches-on-main-failure` and `child-batches-on-revalidation`).
   */
  private treeComplete(): void {
    if (this.ctx.readings['child-batches-on-main-failure'] === 'sent' ? partnerFailed(this.entities.values(), this.state.runs) : this.failed) return;
    const childBatchesReady = this.scenario.settings.child_batches_ready ?? this.settings.child_batches_ready;
    const again = this.ctx.readings['child-batches-on-revalidation'] === 'again';
    if (childBatchesReady && (again || !this.root.childBatchesReadyFired)) {
      this.root.childBatchesReadyFired = true;
      const listed = this.ctx.readings['child-batch-fields'] === 'listed';
      const batch = () => (listed ? withListedChildren : (whole: DataSourceRunBatch) => whole)(renderBatch(this.state, this.rootBatch));
      this.emit('data_source_run_batch.child_batches_ready', batch, this.rootBatch.id);
    }
    this.timers.schedule(this.ctx.clock.now() + this.scenario.report_after, () => this.reportReady(), { kind: 'play.report', play: this.rootBatch.id });
  }

  /** Sets the consolidated report URL of the main batch and announces it. Also used for on-demand reports. */
  reportReady(): void {
    const editions = this.rootBatch.reports ?? [];
    const edition = (editions.at(-1)?.edition ?? 0) + 1;
    const report = { path: FILE_PATHS.consolidatedReport(this.state.id, this.rootBatch.id, edition), issuedAt: this.ctx.clock.now() };
    this.rootBatch.consolidatedReport = report;
    this.rootBatch.reportGeneratedAt = this.ctx.clock.iso();
    this.rootBatch.updatedAt = this.rootBatch.reportGeneratedAt;
    if (this.rootBatch.informationRequestId !== null) {
      const request = this.state.informationRequests.get(this.rootBatch.informationRequestId);
      if (request) request.consolidatedReport = report;
    }
    // The report is the tree as it is now: kept with it, so its URL serves this and nothing later (docs/fidelity.md row 122).
    const kept: ReportEdition = {
      edition,
      file: report,
      generatedAt: this.rootBatch.reportGeneratedAt,
      tree: keepReportTree({ validation: renderValidation(this.state, this.root), batch: renderBatch(this.state, this.rootBatch) }),
    };
    this.rootBatch.reports = [...editions, kept].slice(-MAX_REPORT_EDITIONS);
    this.emit('data_source_run_batch.consolidated_report_ready', () => renderBatch(this.state, this.rootBatch), this.rootBatch.id);
  }

  private emit(type: EventType, resource: () => unknown, resourceId: string): void {
    this.ctx.emit(this.state, { type, resource, validationId: this.root.id, resourceId, legacyWebhookUrl: this.root.webhook?.webhook_url ?? null });
  }

  /** Whether nothing of this play is scheduled any more (retention may evict it, docs/fidelity.md row 59). */
  get settled(): boolean {
    return this.timers.settled;
  }

  /**
   * Why this play still runs, for a revalidation that must wait (docs/fidelity.md row 79): the run that
   * waits for input, or when its last scheduled step is due; undefined once it has ended. A play schedules its
   * next steps as it goes (a run's next status, a partner's batch, the report), so `lastDueAt` is when the
   * steps known now end, not an instant at which the play is sure to have ended.
   */
  get stillRunning(): { waitingRunId: string } | { lastDueAt: number } | undefined {
    for (const id of this.waitingRuns.keys()) return { waitingRunId: id };
    const lastDueAt = this.timers.lastDueAt;
    return lastDueAt === null ? undefined : { lastDueAt };
  }

  /** Cancels what is still scheduled: the validation was evicted, and nothing of it may fire. */
  stop(): void {
    this.timers.cancel();
  }
}
