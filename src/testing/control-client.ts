import { ControlApiError } from '../client/control-api-error';
import type { ReportFormat } from '../contract';
import type {
  DriftAnswer,
  ActiveFault,
  EndpointReceiverCheck,
  ClockAdvanceAnswer,
  ClockRunAnswer,
  DeliveryEventPage,
  EmittedPage,
  JournalPage,
  JournalQuery,
  OrganizationSettingsAnswer,
  OrganizationSettingsPatch,
  WebhookEndpointAnswer,
  ClockDescription,
  ContractReport,
  EmittedEvent,
  Health,
  JournalEntry,
  ScenarioListing,
  AnalyzeRequest,
  AssignRequest,
  DeliveryEvent,
  DeliveryStatus,
  EntityValidation,
  EventType,
  FaultRequest,
  InformationRequest,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointPatch,
  OrganizationListing,
  ValidationSummaryPage,
  ValidationTree,
  z,
} from '../schemas';
import { listenForChanges, type ChangeNotice } from './change-stream';
import type { ControlClientOptions } from './control-connection';
import { JournalReader, type RequestJournalReader } from './journal';
import { SessionsControl } from './sessions-control';
import { DEFAULT_WAIT_MS, pollUntil } from './waiting';

export { ControlApiError, type ControlClientOptions };
export type { EmittedEvent, Health, JournalEntry, ScenarioListing };

/**
 * The filters and page of `GET /_mock/events`.
 *
 * @example
 * const failed = await bvs.control.allEvents({ status: 'failed', entity_validation_id: id });
 */
export interface EventQuery {
  type?: EventType;
  status?: DeliveryStatus;
  resource_id?: string;
  endpoint_id?: string;
  entity_validation_id?: string;
  /** Only the records of validations created under this label (the test that made them, `x-bvs-mock-label`). */
  label?: string;
  /** `newest` for the latest first; the default is oldest first. */
  order?: 'oldest' | 'newest';
  limit?: number;
  cursor?: string;
}

export { DEFAULT_WAIT_MS };

/** Options of {@link BvsMockControl.run}. */
export interface ClockRunOptions {
  /** Real seconds to wait at most before the answer says what is still pending (`max_wait_seconds`); default: the server's bound (30 s). */
  maxWaitSeconds?: number;
}

type Body<S extends z.ZodType> = Omit<z.input<S>, 'organization_id'>;
type Answer<S extends z.ZodType> = z.output<S>;

/**
 * A typed client for every call of bvs-mock's control API (docs/design.md "Control API"), for a test
 * that drives a bvs-mock started elsewhere (a container in CI) or by {@link startWebhookReceiver}'s
 * neighbours in the same process. Each method is one request; a refusal throws {@link ControlApiError}
 * with bvs-mock's error.
 *
 * @example
 * const control = connectBvsMock('https://bvs:4010', { ca: certificatePem });
 * await control.reset();
 * await control.advance(60); // answers once the deliveries due in the minute have ended (manual clock)
 * const records = await control.events({ type: 'data_source_run_batch.ready' });
 */
export class BvsMockControl extends SessionsControl {
  /** The journal of the client's requests, filtered and every page followed: what `toHaveReceived` reads. */
  readonly journal: RequestJournalReader = new JournalReader((query) => this.requests(query));

  /** `GET /_mock/health`: readiness, the clock, retention and delivery counts. */
  health(): Promise<Health> {
    return this.client.call('control.health');
  }

  /** `POST /_mock/reset`: every part back to its start (scenarios added at run time go too). */
  async reset(): Promise<void> {
    await this.client.call('control.reset');
  }

  /** `GET /_mock/clock`. */
  clock(): Promise<ClockDescription> {
    return this.client.call('control.clock');
  }

  /** `POST /_mock/clock/advance`: with the manual clock, answers once the deliveries due by then have ended. */
  advance(seconds: number): Promise<Answer<typeof ClockAdvanceAnswer>> {
    return this.client.call('control.clock.advance', { body: { seconds } });
  }

  /**
   * `POST /_mock/clock/run`: until nothing is scheduled and every delivery has ended, or until
   * `maxWaitSeconds` real seconds have passed (default: the server's `--max-run-wait`, 30 s), so a
   * receiver that hangs cannot hang the test. It resolves either way: `settled` is false when the
   * bound came first, and `deliveries.pending`, `in_flight`, `pending` and `next_at` say what is left.
   *
   * @example
   * const run = await control.run({ maxWaitSeconds: 10 });
   * expect(run.settled).toBe(true); // else a receiver still holds deliveries: GET /_mock/events?status=pending
   */
  run(options: ClockRunOptions = {}): Promise<Answer<typeof ClockRunAnswer>> {
    return this.client.call('control.clock.run', { body: options.maxWaitSeconds === undefined ? {} : { max_wait_seconds: options.maxWaitSeconds } });
  }

  /** `GET /_mock/scenarios`. */
  async scenarios(): Promise<ScenarioListing[]> {
    return (await this.client.call('control.scenarios.list')).scenarios;
  }

  /**
   * `POST /_mock/scenarios`: a scenario as YAML text or as an object (sent as JSON), or a generated shape with
   * parameters (docs/scenarios.md "Parameters at create time"), which bvs-mock writes into a tree.
   *
   * @example
   * await bvs.control.addScenario({ name: 'five-partners', tin: '76543210-3', country: 'CL', generated: 'partners=5&fail=partner-3:definitive' });
   */
  addScenario(scenario: string | Record<string, unknown>): Promise<ScenarioListing> {
    return this.client.call('control.scenarios.add', typeof scenario === 'string' ? { body: scenario, contentType: 'application/yaml' } : { body: scenario });
  }

  /** `DELETE /_mock/scenarios/:name`: a scenario added at run time. */
  async removeScenario(name: string): Promise<void> {
    await this.client.call('control.scenarios.remove', { params: { name } });
  }

  /** `PATCH /_mock/organizations/:id/settings`. */
  settings(
    patch: Body<typeof OrganizationSettingsPatch>,
    organizationId = this.options.organizationId ?? 'default',
  ): Promise<Answer<typeof OrganizationSettingsAnswer>> {
    return this.client.call('control.organization.settings', { params: { id: organizationId }, body: patch });
  }

  /** `GET /_mock/webhook_endpoints`. */
  async endpoints(): Promise<WebhookEndpoint[]> {
    return (await this.client.call('control.webhook_endpoints.list', { query: this.scope() })).webhook_endpoints;
  }

  /** `POST /_mock/webhook_endpoints`: with `auth_type: 'secret'`, the secret is chosen here or generated, and shown only now. */
  createEndpoint(body: Body<typeof WebhookEndpointCreate>): Promise<Answer<typeof WebhookEndpointAnswer>> {
    return this.client.call('control.webhook_endpoints.create', { body: this.withOrganization(body) });
  }

  /** `PATCH /_mock/webhook_endpoints/:id`. */
  updateEndpoint(id: string, patch: Body<typeof WebhookEndpointPatch>): Promise<Answer<typeof WebhookEndpointAnswer>> {
    return this.client.call('control.webhook_endpoints.update', { params: { id }, body: this.withOrganization(patch) });
  }

  /** `DELETE /_mock/webhook_endpoints/:id`. */
  async deleteEndpoint(id: string): Promise<void> {
    await this.client.call('control.webhook_endpoints.delete', { params: { id }, query: this.scope() });
  }

  /** `POST /_mock/webhook_endpoints/:id/secret`: the chosen secret, or a generated one. */
  async setEndpointSecret(id: string, secret?: string): Promise<string> {
    const body = this.withOrganization(secret === undefined ? {} : { secret });
    return (await this.client.call('control.webhook_endpoints.secret', { params: { id }, body })).secret;
  }

  /** `GET /_mock/events`: one page of delivery records, oldest first, and the cursor of the next page. */
  events(query: EventQuery = {}): Promise<Answer<typeof DeliveryEventPage>> {
    return this.client.call('control.events.list', { query: { ...query, ...this.scope() } });
  }

  /** Every delivery record that matches, across pages. */
  allEvents(query: Omit<EventQuery, 'cursor' | 'limit'> = {}): Promise<DeliveryEvent[]> {
    return this.client.all('control.events.list', 'events', { query: { ...query, limit: 1000, ...this.scope() } });
  }

  /** `GET /_mock/events/:id`. */
  event(id: string): Promise<DeliveryEvent> {
    return this.client.call('control.events.get', { params: { id }, query: this.scope() });
  }

  /** `POST /_mock/events/:id/redeliver`: answers with the record once the attempt has ended. */
  redeliver(id: string): Promise<DeliveryEvent> {
    return this.client.call('control.events.redeliver', { params: { id }, body: this.withOrganization({}) });
  }

  /**
   * `POST /_mock/receiver-checks`: grades the endpoint's receiver against the spec's receiver rules with probe
   * deliveries (sent with its own Authorization); answers once every probe has ended. `observe`, the URL of the
   * receiver's side-effect probe (docs/receiver-probe.md), makes the `processed:*` checks run; without it they are
   * skipped and the report's outcome is `incomplete`.
   *
   * @example
   * const check = await bvs.control.checkReceiver(endpoint.id, { observe: `${receiver.origin}/test/processed` });
   * expect(check.report.outcome).toBe('pass');
   */
  checkReceiver(endpointId: string, options: { observe?: string } = {}): Promise<EndpointReceiverCheck> {
    return this.client.call('control.receiver_checks.run', { body: this.withOrganization({ endpoint_id: endpointId, ...options }) });
  }

  /** `GET /_mock/receiver-checks`: the receiver checks since the last reset. */
  async receiverChecks(): Promise<EndpointReceiverCheck[]> {
    return (await this.client.call('control.receiver_checks.list', { query: this.scope() })).receiver_checks;
  }

  /** `GET /_mock/faults`. */
  async faults(): Promise<ActiveFault[]> {
    return (await this.client.call('control.faults.list')).faults;
  }

  /** `POST /_mock/faults`: a delivery or API fault, until cleared (or for `count` requests). */
  addFault(fault: z.input<typeof FaultRequest>): Promise<ActiveFault> {
    return this.client.call('control.faults.add', { body: fault });
  }

  /** `DELETE /_mock/faults`. */
  async clearFaults(): Promise<void> {
    await this.client.call('control.faults.clear');
  }

  /** `POST /_mock/entity_validations/:id/revalidate`: once its previous play has ended. */
  revalidate(validationId: string): Promise<EntityValidation> {
    return this.client.call('control.revalidate', { params: { id: validationId }, body: this.withOrganization({}) });
  }

  /** `POST /_mock/data_source_runs/:id/input`: the input a `missing_input_data` run waits for. */
  async supplyInput(runId: string): Promise<void> {
    await this.client.call('control.run.input', { params: { id: runId }, body: this.withOrganization({}) });
  }

  /** The recipient and reviewers of an information request (`POST /_mock/information_requests/:id/...`), in the order the request allows. */
  readonly informationRequest = {
    submit: (id: string, items?: string[]): Promise<InformationRequest> =>
      this.client.call('control.information_request.submit', { params: { id }, body: this.withOrganization(items === undefined ? {} : { items }) }),
    analyze: (id: string, analysis: Body<typeof AnalyzeRequest> = {}): Promise<InformationRequest> =>
      this.client.call('control.information_request.analyze', { params: { id }, body: this.withOrganization(analysis) }),
    assign: (id: string, assignment: Body<typeof AssignRequest>): Promise<InformationRequest> =>
      this.client.call('control.information_request.assignments', { params: { id }, body: this.withOrganization(assignment) }),
    completeAssignment: (id: string, reviewerEmail: string): Promise<InformationRequest> =>
      this.client.call('control.information_request.assignments.complete', { params: { id }, body: this.withOrganization({ reviewer_email: reviewerEmail }) }),
    evaluate: (id: string, comment: string): Promise<InformationRequest> =>
      this.client.call('control.information_request.evaluate', { params: { id }, body: this.withOrganization({ comment }) }),
  };

  /** `GET /_mock/emitted`: the events emitted since the last reset (oldest first, without bodies). */
  emitted(query: { type?: EventType; entity_validation_id?: string; limit?: number; cursor?: string } = {}): Promise<Answer<typeof EmittedPage>> {
    return this.client.call('control.emitted', { query: { ...query, ...this.scope() } });
  }

  /**
   * Every event emitted for a validation created through the API, in order: its own, its partners'
   * batches and runs, its information requests' (they carry its id).
   */
  async eventsFor(validationId: string): Promise<EmittedEvent[]> {
    return this.allEmitted({ entity_validation_id: validationId });
  }

  /** Every emitted event that matches, across pages: a page may hold fewer than asked for (`cut_by_size`), so only a null `next_cursor` ends the list. */
  private allEmitted(query: { type?: EventType; entity_validation_id?: string }): Promise<EmittedEvent[]> {
    return this.client.all('control.emitted', 'events', { query: { ...query, limit: 1000, ...this.scope() } });
  }

  /**
   * Waits until an event of `type` (or one `match` accepts) has been emitted, for `validationId` when
   * given, and returns it; throws after `timeoutMs` real milliseconds, saying what was emitted instead.
   * With the manual clock, move it (`advance`, `run`) for the event to come.
   *
   * @example
   * const ready = await control.waitForEvent('data_source_run_batch.ready', { validationId: created.id });
   */
  async waitForEvent(
    match: EventType | ((event: EmittedEvent) => boolean),
    options: { validationId?: string; timeoutMs?: number } = {},
  ): Promise<EmittedEvent> {
    const accepts = typeof match === 'string' ? (event: EmittedEvent) => event.type === match : match;
    const type = typeof match === 'string' ? match : undefined;
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    // Every page, of the one type asked for when it is a type: the event may be past the first page.
    return pollUntil(
      async () => (await this.allEmitted({ type, entity_validation_id: options.validationId })).find(accepts),
      timeoutMs,
      async () => {
        const seen = [...new Set((await this.allEmitted({ entity_validation_id: options.validationId })).map((event) => event.type))].join(', ') || 'none';
        const where = options.validationId ? ` for ${options.validationId}` : '';
        return `bvs-mock: no ${type ?? 'an event the predicate accepts'} was emitted${where} within ${timeoutMs} ms (emitted: ${seen}); is the clock moving?`;
      },
    );
  }

  /** `GET /_mock/entity_validations/:id/settled`: whether the validation's tree has nothing left scheduled. */
  async isSettled(validationId: string): Promise<boolean> {
    return (await this.client.call('control.settled', { params: { id: validationId }, query: this.scope() })).settled;
  }

  /**
   * Waits until a validation's tree has nothing left scheduled and none of its deliveries is pending
   * (in flight or waiting for a retry), then returns its events; throws after `timeoutMs` real milliseconds. With the manual clock, run it.
   */
  async waitForSettled(validationId: string, options: { timeoutMs?: number } = {}): Promise<EmittedEvent[]> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    const settled = async () =>
      (await this.isSettled(validationId)) && (await this.events({ entity_validation_id: validationId, status: 'pending', limit: 1 })).events.length === 0;
    await pollUntil(
      async () => ((await settled()) ? true : undefined),
      timeoutMs,
      async () => `bvs-mock: ${validationId} did not settle within ${timeoutMs} ms; is the clock moving?`,
    );
    return this.eventsFor(validationId);
  }

  /** `GET /_mock/organizations`: the organizations configured, the default one marked. */
  async organizations(): Promise<OrganizationListing[]> {
    return (await this.client.call('control.organizations')).organizations;
  }

  /** `GET /_mock/entity_validations`: one page of the validations created through the API, newest first. */
  validations(query: { limit?: number; cursor?: string } = {}): Promise<Answer<typeof ValidationSummaryPage>> {
    return this.client.call('control.validations.list', { query: { ...query, ...this.scope() } });
  }

  /** `GET /_mock/entity_validations/:id`: a validation's whole tree (partners, batches, runs with their history, formations, information requests). */
  validationTree(id: string): Promise<ValidationTree> {
    return this.client.call('control.validations.tree', { params: { id }, query: this.scope() });
  }

  /**
   * `GET /_mock/stream`: calls `listener` with every notice of change (events emitted, attempts ended,
   * the clock moved, a reset) until the function it resolves with is called.
   */
  onChange(listener: (notice: ChangeNotice) => void): Promise<() => Promise<void>> {
    return listenForChanges(this.client, listener);
  }

  /** `GET /_mock/requests`: a page of the journal of API requests, with their contract violations; `journal.requests(filter)` follows every page. */
  requests(query: Omit<z.input<typeof JournalQuery>, 'violations'> & { violations?: boolean } = {}): Promise<Answer<typeof JournalPage>> {
    const violations = query.violations === undefined ? undefined : query.violations ? ('true' as const) : ('false' as const);
    return this.client.call('control.requests', { query: { ...query, violations } });
  }

  /** `GET /_mock/report`: the contract report as an object. */
  report(): Promise<ContractReport>;
  /** `GET /_mock/report?format=`: the report as JUnit XML, Markdown or JSON text. */
  report(format: ReportFormat): Promise<string>;
  report(format?: ReportFormat): Promise<ContractReport | string> {
    return format === undefined ? this.client.call('control.report') : this.client.text('control.report', { query: { format } });
  }

  /** `GET /_mock/drift`: on `bvs-mock proxy`, the differences between the contract and what went through it. */
  drift(): Promise<DriftAnswer> {
    return this.client.call('control.drift');
  }

  /** The control client of session `id`: every call acts on that session (`/_mock/sessions/:id/…`). */
  forSession(id: string): BvsMockControl {
    return new BvsMockControl({ ...this.options, session: id });
  }

  private withOrganization<T extends object>(body: T): T & { organization_id?: string } {
    return this.options.organizationId === undefined ? body : { ...body, organization_id: this.options.organizationId };
  }

  /** The query naming the organization of these options, if any. */
  private scope(): { organization_id?: string } {
    return this.options.organizationId === undefined ? {} : { organization_id: this.options.organizationId };
  }
}

/**
 * The control client of a bvs-mock started elsewhere: a container in CI, another process.
 *
 * @example
 * const control = connectBvsMock(process.env.BVS_URL!, { controlToken: process.env.BVS_CONTROL_TOKEN });
 * await control.reset();
 */
export function connectBvsMock(url: string, options: Omit<ControlClientOptions, 'url'> = {}): BvsMockControl {
  return new BvsMockControl({ url, ...options });
}
