import { PlayTimers, type PlayTimerTag } from './play-timers';
import { refusedAction, statusAfter, type InformationRequestAction } from '../schemas';
import type { ScenarioInformationRequest, ScenarioInformationRequestStep, EventType } from '../schemas';
import { done, refuse, type ActionResult, type Refusal } from './action-result';
import type { EngineContext } from './engine-context';
import { recipientPath } from './engine-context';
import { OrganizationState } from './organization-state';
import { renderAssignment, renderInformationRequest, renderRequestableItem } from './render-information-request';
import type { InformationRequestRecord, RequestableItemRecord, ValidationRecord } from './records';

const { must } = OrganizationState;

/** Options of {@link InformationRequestFlow}: a new request, or one restored from a snapshot (its record already in `state`). */
export type InformationRequestFlowOptions =
  NewFlowOptions | { ctx: EngineContext; state: OrganizationState; root: ValidationRecord; restored: InformationRequestRecord };

/** Options of a new {@link InformationRequestFlow}. */
interface NewFlowOptions {
  ctx: EngineContext;
  state: OrganizationState;
  root: ValidationRecord;
  /** The id, reserved before the main batch was made so the batch could name it. */
  id: string;
  batchId: string;
  templateId: string;
  webhookUrl: string | null;
  script: ScenarioInformationRequest;
}

/**
 * An information request and its flow: the recipient submits items, each is
 * extracted, the AI analysis runs, reviewers are assigned and the responsible
 * reviewer evaluates (spec §1.5, §6). Steps are scripted by the scenario or
 * driven through the control API; statuses follow docs/fidelity.md row 13.
 */
export class InformationRequestFlow {
  readonly record: InformationRequestRecord;
  private readonly ctx: EngineContext;
  private readonly timers: PlayTimers;
  private readonly state: OrganizationState;
  private readonly root: ValidationRecord;

  constructor(options: InformationRequestFlowOptions) {
    const { ctx, state } = options;
    this.ctx = ctx;
    this.timers = new PlayTimers(ctx.clock);
    this.state = state;
    this.root = options.root;
    if ('restored' in options) {
      this.record = options.restored;
      return;
    }
    const { script } = options;
    const now = ctx.clock.iso();
    this.record = {
      id: options.id,
      validationId: options.root.id,
      name: script.name,
      templateId: options.templateId,
      status: 'pending',
      createdAt: now,
      recipientUrl: ctx.signer.absolute(recipientPath(options.id)),
      consolidatedReport: null,
      responsibleComment: null,
      itemIds: [],
      assignmentIds: [],
      informationSheet: null,
      analysisChat: [],
      webhook: options.webhookUrl === null ? null : { id: ctx.ids.next('wbh'), webhook_url: options.webhookUrl, created_at: now },
      batchId: options.batchId,
      collected: false,
    };
    for (const item of script.items) {
      const id = ctx.ids.next('rqi');
      state.requestableItems.set(id, {
        id,
        informationRequestId: this.record.id,
        name: item.name,
        kind: item.kind,
        status: 'pending',
        documentId: null,
        extractedData: null,
        createdAt: now,
        updatedAt: now,
        script: item,
      });
      this.record.itemIds.push(id);
    }
    state.informationRequests.set(this.record.id, this.record);
    options.root.informationRequestIds.push(this.record.id);
    this.scheduleSteps(script.steps);
  }

  private scheduleSteps(steps: readonly ScenarioInformationRequestStep[]): void {
    let at = this.ctx.clock.now();
    for (const step of steps) {
      at += step.after;
      this.timers.schedule(at, () => this.play(step), { kind: 'flow.step', flow: this.record.id, step });
    }
  }

  /** The organization whose request this is. */
  get organizationId(): string {
    return this.state.id;
  }

  /** Schedules again one of this flow's timers from a snapshot; false when the tag names nothing of it. */
  restoreTimer(at: number, tag: PlayTimerTag): boolean {
    if (tag.kind === 'flow.step' && typeof tag.step === 'object' && tag.step !== null) {
      const step = tag.step as ScenarioInformationRequestStep;
      this.timers.schedule(at, () => this.play(step), tag);
      return true;
    }
    const item = tag.kind === 'flow.extract' ? this.state.requestableItems.get(tag.item) : undefined;
    if (item === undefined || item.informationRequestId !== this.record.id) return false;
    this.timers.schedule(at, () => this.extracted(item), tag);
    return true;
  }

  /**
   * Scripted steps are played like driven ones and follow the same table: a step the request's status
   * does not allow then (say, evaluating twice, or after a driven action moved it on) is skipped
   * (docs/fidelity.md row 70).
   */
  private play(step: ScenarioInformationRequestStep): void {
    if (step.submit !== undefined) this.submit(step.submit);
    else if (step.analyze !== undefined) this.analyze(step.analyze);
    else if (step.assign !== undefined) this.assign(step.assign);
    else if (step.complete_assignment !== undefined) this.completeAssignment(step.complete_assignment);
    else if (step.evaluate !== undefined) this.evaluate(step.evaluate.comment);
  }

  private items(): RequestableItemRecord[] {
    return this.record.itemIds.map((id) => must(this.state.requestableItems, id));
  }

  private assignments() {
    return this.record.assignmentIds.map((id) => must(this.state.assignments, id));
  }

  /** The refusal of an action the status does not allow now (409 with the status and the actions allowed), or undefined. */
  private refusal(action: InformationRequestAction): Refusal | undefined {
    const refused = refusedAction(this.record.status, action, { hasResponsible: this.assignments().some((assignment) => assignment.role === 'responsible') });
    if (!refused) return undefined;
    return refuse('conflict', `${refused.message} (${this.record.id})`, [
      { path: '$.status', code: `status_${refused.status}`, message: `allowed now: ${refused.allowed.length === 0 ? 'none' : refused.allowed.join(', ')}` },
    ]);
  }

  /**
   * Moves the request to `status` and tells it: `event` (the change's own event) and then
   * `status_updated`, both showing the request as it is after the change (docs/fidelity.md row 71).
   */
  private change(status: InformationRequestRecord['status'], event: EventType): void {
    const changed = this.record.status !== status;
    this.record.status = status;
    this.emit(event, () => this.render(), this.record.id);
    if (changed) this.emit('information_request.status_updated', () => this.render(), this.record.id);
  }

  /** The recipient submits items (by name, or all pending ones); each is extracted after its scripted time. */
  submit(names: 'all' | readonly string[]): ActionResult {
    const refused = this.refusal('submit');
    if (refused) return refused;
    const items = this.items();
    const chosen = names === 'all' ? items.filter((item) => item.status === 'pending') : names.map((name) => items.find((item) => item.name === name));
    const unknown = names === 'all' ? [] : names.filter((_name, index) => chosen[index] === undefined);
    if (unknown.length > 0)
      return refuse(
        'not_found',
        `no item named ${unknown.map((name) => JSON.stringify(name)).join(', ')}; items are ${items.map((item) => JSON.stringify(item.name)).join(', ')}`,
      );
    const already = (chosen as RequestableItemRecord[]).filter((item) => item.status !== 'pending');
    if (already.length > 0) return refuse('conflict', `already submitted: ${already.map((item) => JSON.stringify(item.name)).join(', ')}`);
    if (chosen.length === 0) return refuse('conflict', 'every item is already submitted');
    const now = this.ctx.clock.now();
    for (const item of chosen as RequestableItemRecord[]) {
      item.status = 'submitted';
      item.updatedAt = this.ctx.clock.iso();
      this.timers.schedule(now + item.script.extract_after, () => this.extracted(item), { kind: 'flow.extract', flow: this.record.id, item: item.id });
    }
    if (!this.record.collected && items.every((item) => item.status !== 'pending')) {
      // all_items_collected fires when the recipient has submitted everything (spec §6, Triggers).
      this.record.collected = true;
      this.change(statusAfter(this.record.status, 'submit', { allSubmitted: true }), 'information_request.all_items_collected');
    }
    return done(undefined);
  }

  private extracted(item: RequestableItemRecord): void {
    const failed = item.script.extraction_fails;
    item.status = failed ? 'extraction_failed' : 'extracted';
    item.documentId = item.kind === 'document' ? this.ctx.ids.next('doc') : null;
    item.extractedData = failed ? null : structuredClone(item.script.extracted_data);
    item.updatedAt = this.ctx.clock.iso();
    this.emit('information_request.requestable_item.extracted', () => renderRequestableItem(item), item.id);
  }

  /** The AI analysis completes. */
  analyze(input: { information_sheet: Record<string, unknown>; chat: ReadonlyArray<{ role: 'assistant' | 'user'; content: string }> }): ActionResult {
    const refused = this.refusal('analyze');
    if (refused) return refused;
    const at = this.ctx.clock.iso();
    this.record.informationSheet = structuredClone(input.information_sheet);
    this.record.analysisChat.push(...input.chat.map((message) => ({ ...message, created_at: at })));
    this.change(statusAfter(this.record.status, 'analyze', { allSubmitted: true }), 'information_request.analysis_success');
    return done(undefined);
  }

  /** A reviewer is assigned; the assignment starts in progress. */
  assign(input: { reviewer_email: string; role: 'reviewer' | 'responsible' }): ActionResult<string> {
    const refused = this.refusal('assignments');
    if (refused) return refused;
    const taken = this.assignments().find((assignment) => assignment.reviewerEmail === input.reviewer_email);
    if (taken) return refuse('conflict', `${input.reviewer_email} is already assigned (${taken.id})`);
    const id = this.ctx.ids.next('asg');
    const now = this.ctx.clock.iso();
    const assignment = {
      id,
      informationRequestId: this.record.id,
      reviewerEmail: input.reviewer_email,
      role: input.role,
      status: 'in_progress' as const,
      createdAt: now,
      updatedAt: now,
    };
    this.state.assignments.set(id, assignment);
    this.record.assignmentIds.push(id);
    this.emit('information_request.assignment.updated', () => renderAssignment(assignment), id);
    return done(id);
  }

  /** The assignment of a reviewer is completed. */
  completeAssignment(reviewerEmail: string): ActionResult {
    const refused = this.refusal('assignments/complete');
    if (refused) return refused;
    const assignment = this.assignments().find((candidate) => candidate.reviewerEmail === reviewerEmail);
    if (!assignment) return refuse('not_found', `${reviewerEmail} is not assigned to ${this.record.id}`);
    if (assignment.status === 'completed') return refuse('conflict', `the assignment of ${reviewerEmail} is already completed`);
    assignment.status = 'completed';
    assignment.updatedAt = this.ctx.clock.iso();
    this.emit('information_request.assignment.updated', () => renderAssignment(assignment), assignment.id);
    return done(undefined);
  }

  /**
   * The responsible reviewer submits the after-evaluation form: the only moment `responsible_comment`
   * is set, and `evaluated` fires once (a second evaluate is refused: the request is evaluated).
   */
  evaluate(comment: string): ActionResult {
    const refused = this.refusal('evaluate');
    if (refused) return refused;
    this.record.responsibleComment = comment;
    this.change(statusAfter(this.record.status, 'evaluate', { allSubmitted: true }), 'information_request.evaluated');
    return done(undefined);
  }

  private render() {
    return renderInformationRequest(this.state, this.record);
  }

  private emit(type: EventType, resource: () => unknown, resourceId: string): void {
    this.ctx.emit(this.state, { type, resource, validationId: this.root.id, resourceId, legacyWebhookUrl: this.record.webhook?.webhook_url ?? null });
  }

  /** Whether nothing of this play is scheduled any more (retention may evict it, docs/fidelity.md row 59). */
  get settled(): boolean {
    return this.timers.settled;
  }

  /** Cancels what is still scheduled: the validation was evicted, and nothing of it may fire. */
  stop(): void {
    this.timers.cancel();
  }
}
