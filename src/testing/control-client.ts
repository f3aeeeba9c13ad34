import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ReportFormat } from '../contract';
import type {
  ActiveFault,
  EndpointReceiverCheck,
  ClockAdvanceAnswer,
  ClockRunAnswer,
  DeliveryEventPage,
  EmittedPage,
  FaultList,
  JournalPage,
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

export type { EmittedEvent, Health, JournalEntry, ScenarioListing };

/** How to reach a bvs-mock and prove the right to its control API. */
export interface ControlClientOptions {
  /** Its base URL, like `https://127.0.0.1:4010` or `https://bvs:4010` in a CI network. */
  url: string;
  /** The control token it was started with (`--control-token`), if it is locked. */
  controlToken?: string;
  /** The certificate (PEM) to trust for HTTPS: the one bvs-mock serves (`startBvsMock` gives it as `certificate`) or the one it was started with (`--tls-cert`). */
  ca?: string;
  /** The organization control calls act on, unless a call names another; default: bvs-mock's default organization. */
  organizationId?: string;
}

/**
 * A control API call bvs-mock refused: its status and the error it answered.
 *
 * @example
 * await expect(bvs.control.informationRequest.evaluate(id, 'Too early.')).rejects.toMatchObject({ status: 409 });
 */
export class ControlApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly call: string,
  ) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(`bvs-mock: ${call} answered ${status}${error ? ` ${error.code}: ${error.message}` : ''}`);
    this.name = 'ControlApiError';
  }
}

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
  /** `newest` for the latest first; the default is oldest first. */
  order?: 'oldest' | 'newest';
  limit?: number;
  cursor?: string;
}

/**
 * How long {@link BvsMockControl.waitForEvent} and {@link BvsMockControl.waitForSettled} wait, in real milliseconds, by default.
 *
 * @example
 * await bvs.control.waitForSettled(id, { timeoutMs: 3 * DEFAULT_WAIT_MS }); // a large tree on a slow CI machine
 */
export const DEFAULT_WAIT_MS = 10_000;

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
export class BvsMockControl {
  private readonly base: URL;

  constructor(private readonly options: ControlClientOptions) {
    this.base = new URL(options.url);
  }

  /** `GET /_mock/health`: readiness, the clock, retention and delivery counts. */
  health(): Promise<Health> {
    return this.call('GET', '/_mock/health');
  }

  /** `POST /_mock/reset`: every part back to its start (scenarios added at run time go too). */
  async reset(): Promise<void> {
    await this.call('POST', '/_mock/reset', {});
  }

  /** `GET /_mock/clock`. */
  clock(): Promise<ClockDescription> {
    return this.call('GET', '/_mock/clock');
  }

  /** `POST /_mock/clock/advance`: with the manual clock, answers once the deliveries due by then have ended. */
  advance(seconds: number): Promise<Answer<typeof ClockAdvanceAnswer>> {
    return this.call('POST', '/_mock/clock/advance', { seconds });
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
    return this.call('POST', '/_mock/clock/run', options.maxWaitSeconds === undefined ? {} : { max_wait_seconds: options.maxWaitSeconds });
  }

  /** `GET /_mock/scenarios`. */
  async scenarios(): Promise<ScenarioListing[]> {
    return (await this.call<{ scenarios: ScenarioListing[] }>('GET', '/_mock/scenarios')).scenarios;
  }

  /** `POST /_mock/scenarios`: a scenario as YAML text or as an object (sent as JSON). */
  addScenario(scenario: string | Record<string, unknown>): Promise<ScenarioListing> {
    return typeof scenario === 'string' ? this.call('POST', '/_mock/scenarios', scenario, 'application/yaml') : this.call('POST', '/_mock/scenarios', scenario);
  }

  /** `DELETE /_mock/scenarios/:name`: a scenario added at run time. */
  async removeScenario(name: string): Promise<void> {
    await this.call('DELETE', `/_mock/scenarios/${encodeURIComponent(name)}`);
  }

  /** `PATCH /_mock/organizations/:id/settings`. */
  settings(
    patch: Body<typeof OrganizationSettingsPatch>,
    organizationId = this.options.organizationId ?? 'default',
  ): Promise<Answer<typeof OrganizationSettingsAnswer>> {
    return this.call('PATCH', `/_mock/organizations/${encodeURIComponent(organizationId)}/settings`, patch);
  }

  /** `GET /_mock/webhook_endpoints`. */
  async endpoints(): Promise<WebhookEndpoint[]> {
    return (await this.call<{ webhook_endpoints: WebhookEndpoint[] }>('GET', this.scoped('/_mock/webhook_endpoints'))).webhook_endpoints;
  }

  /** `POST /_mock/webhook_endpoints`: with `auth_type: 'secret'`, the secret is chosen here or generated, and shown only now. */
  createEndpoint(body: Body<typeof WebhookEndpointCreate>): Promise<Answer<typeof WebhookEndpointAnswer>> {
    return this.call('POST', '/_mock/webhook_endpoints', this.withOrganization(body));
  }

  /** `PATCH /_mock/webhook_endpoints/:id`. */
  updateEndpoint(id: string, patch: Body<typeof WebhookEndpointPatch>): Promise<Answer<typeof WebhookEndpointAnswer>> {
    return this.call('PATCH', `/_mock/webhook_endpoints/${id}`, this.withOrganization(patch));
  }

  /** `DELETE /_mock/webhook_endpoints/:id`. */
  async deleteEndpoint(id: string): Promise<void> {
    await this.call('DELETE', this.scoped(`/_mock/webhook_endpoints/${id}`));
  }

  /** `POST /_mock/webhook_endpoints/:id/secret`: the chosen secret, or a generated one. */
  async setEndpointSecret(id: string, secret?: string): Promise<string> {
    return (await this.call<{ secret: string }>('POST', `/_mock/webhook_endpoints/${id}/secret`, this.withOrganization(secret === undefined ? {} : { secret })))
      .secret;
  }

  /** `GET /_mock/events`: one page of delivery records, oldest first, and the cursor of the next page. */
  events(query: EventQuery = {}): Promise<Answer<typeof DeliveryEventPage>> {
    return this.call('GET', this.scoped('/_mock/events', query as Record<string, string | number | undefined>));
  }

  /** Every delivery record that matches, across pages. */
  async allEvents(query: Omit<EventQuery, 'cursor' | 'limit'> = {}): Promise<DeliveryEvent[]> {
    const all: DeliveryEvent[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.events({ ...query, limit: 1000, cursor });
      all.push(...page.events);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return all;
  }

  /** `GET /_mock/events/:id`. */
  event(id: string): Promise<DeliveryEvent> {
    return this.call('GET', this.scoped(`/_mock/events/${id}`));
  }

  /** `POST /_mock/events/:id/redeliver`: answers with the record once the attempt has ended. */
  redeliver(id: string): Promise<DeliveryEvent> {
    return this.call('POST', `/_mock/events/${id}/redeliver`, this.withOrganization({}));
  }

  /**
   * `POST /_mock/receiver-checks`: grades the endpoint's receiver against the spec's receiver rules with probe
   * deliveries (sent with its Authorization); answers once every probe has ended.
   *
   * @example
   * const check = await bvs.control.checkReceiver(endpoint.id);
   * expect(check.report.results.filter((result) => result.outcome === 'fail')).toEqual([]);
   */
  checkReceiver(endpointId: string): Promise<EndpointReceiverCheck> {
    return this.call('POST', '/_mock/receiver-checks', this.withOrganization({ endpoint_id: endpointId }));
  }

  /** `GET /_mock/receiver-checks`: the receiver checks since the last reset. */
  async receiverChecks(): Promise<EndpointReceiverCheck[]> {
    return (await this.call<{ receiver_checks: EndpointReceiverCheck[] }>('GET', this.scoped('/_mock/receiver-checks'))).receiver_checks;
  }

  /** `GET /_mock/faults`. */
  async faults(): Promise<ActiveFault[]> {
    return (await this.call<Answer<typeof FaultList>>('GET', '/_mock/faults')).faults;
  }

  /** `POST /_mock/faults`: a delivery or API fault, until cleared (or for `count` requests). */
  addFault(fault: z.input<typeof FaultRequest>): Promise<ActiveFault> {
    return this.call('POST', '/_mock/faults', fault);
  }

  /** `DELETE /_mock/faults`. */
  async clearFaults(): Promise<void> {
    await this.call('DELETE', '/_mock/faults');
  }

  /** `POST /_mock/entity_validations/:id/revalidate`: once its previous play has ended. */
  revalidate(validationId: string): Promise<EntityValidation> {
    return this.call('POST', `/_mock/entity_validations/${validationId}/revalidate`, this.withOrganization({}));
  }

  /** `POST /_mock/data_source_runs/:id/input`: the input a `missing_input_data` run waits for. */
  async supplyInput(runId: string): Promise<void> {
    await this.call('POST', `/_mock/data_source_runs/${runId}/input`, this.withOrganization({}));
  }

  /** The recipient and reviewers of an information request (`POST /_mock/information_requests/:id/...`), in the order the request allows. */
  readonly informationRequest = {
    submit: (id: string, items?: string[]): Promise<InformationRequest> =>
      this.call('POST', `/_mock/information_requests/${id}/submit`, this.withOrganization(items === undefined ? {} : { items })),
    analyze: (id: string, analysis: Body<typeof AnalyzeRequest> = {}): Promise<InformationRequest> =>
      this.call('POST', `/_mock/information_requests/${id}/analyze`, this.withOrganization(analysis)),
    assign: (id: string, assignment: Body<typeof AssignRequest>): Promise<InformationRequest> =>
      this.call('POST', `/_mock/information_requests/${id}/assignments`, this.withOrganization(assignment)),
    completeAssignment: (id: string, reviewerEmail: string): Promise<InformationRequest> =>
      this.call('POST', `/_mock/information_requests/${id}/assignments/complete`, this.withOrganization({ reviewer_email: reviewerEmail })),
    evaluate: (id: string, comment: string): Promise<InformationRequest> =>
      this.call('POST', `/_mock/information_requests/${id}/evaluate`, this.withOrganization({ comment })),
  };

  /** `GET /_mock/emitted`: the events emitted since the last reset (oldest first, without bodies). */
  emitted(query: { type?: EventType; entity_validation_id?: string; limit?: number; cursor?: string } = {}): Promise<Answer<typeof EmittedPage>> {
    return this.call('GET', this.scoped('/_mock/emitted', query));
  }

  /**
   * Every event emitted for a validation created through the API, in order: its own, its partners'
   * batches and runs, its information requests' (they carry its id).
   */
  async eventsFor(validationId: string): Promise<EmittedEvent[]> {
    return this.allEmitted({ entity_validation_id: validationId });
  }

  /** Every emitted event that matches, across pages: a page may hold fewer than asked for (`cut_by_size`), so only a null `next_cursor` ends the list. */
  private async allEmitted(query: { type?: EventType; entity_validation_id?: string }): Promise<EmittedEvent[]> {
    const all: EmittedEvent[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.emitted({ ...query, limit: 1000, cursor });
      all.push(...page.events);
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return all;
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
    const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
    for (;;) {
      // Every page, of the one type asked for when it is a type: the event may be past the first page.
      const events = await this.allEmitted({ type: typeof match === 'string' ? match : undefined, entity_validation_id: options.validationId });
      const found = events.find(accepts);
      if (found) return found;
      if (Date.now() > deadline) {
        const what = typeof match === 'string' ? match : 'an event the predicate accepts';
        const emitted = typeof match === 'string' ? await this.allEmitted({ entity_validation_id: options.validationId }) : events;
        const seen = [...new Set(emitted.map((event) => event.type))].join(', ') || 'none';
        throw new Error(
          `bvs-mock: no ${what} was emitted${options.validationId ? ` for ${options.validationId}` : ''} within ${options.timeoutMs ?? DEFAULT_WAIT_MS} ms (emitted: ${seen}); is the clock moving?`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** `GET /_mock/entity_validations/:id/settled`: whether the validation's tree has nothing left scheduled. */
  async isSettled(validationId: string): Promise<boolean> {
    return (await this.call<{ settled: boolean }>('GET', this.scoped(`/_mock/entity_validations/${validationId}/settled`))).settled;
  }

  /**
   * Waits until a validation's tree has nothing left scheduled and none of its deliveries is pending
   * (in flight or waiting for a retry), then returns its events; throws after `timeoutMs` real milliseconds. With the manual clock, run it.
   */
  async waitForSettled(validationId: string, options: { timeoutMs?: number } = {}): Promise<EmittedEvent[]> {
    const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
    for (;;) {
      const settled =
        (await this.isSettled(validationId)) && (await this.events({ entity_validation_id: validationId, status: 'pending', limit: 1 })).events.length === 0;
      if (settled) return this.eventsFor(validationId);
      if (Date.now() > deadline)
        throw new Error(`bvs-mock: ${validationId} did not settle within ${options.timeoutMs ?? DEFAULT_WAIT_MS} ms; is the clock moving?`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** `GET /_mock/organizations`: the organizations configured, the default one marked. */
  async organizations(): Promise<OrganizationListing[]> {
    return (await this.call<{ organizations: OrganizationListing[] }>('GET', '/_mock/organizations')).organizations;
  }

  /** `GET /_mock/entity_validations`: one page of the validations created through the API, newest first. */
  validations(query: { limit?: number; cursor?: string } = {}): Promise<Answer<typeof ValidationSummaryPage>> {
    return this.call('GET', this.scoped('/_mock/entity_validations', query));
  }

  /** `GET /_mock/entity_validations/:id`: a validation's whole tree (partners, batches, runs with their history, formations, information requests). */
  validationTree(id: string): Promise<ValidationTree> {
    return this.call('GET', this.scoped(`/_mock/entity_validations/${id}`));
  }

  /**
   * `GET /_mock/stream`: calls `listener` with every notice of change (events emitted, attempts ended,
   * the clock moved, a reset) until the function it resolves with is called.
   */
  onChange(listener: (notice: ChangeNotice) => void): Promise<() => Promise<void>> {
    return listenForChanges(this.options, listener);
  }

  /** `GET /_mock/requests`: the journal of API requests, with their contract violations. */
  requests(query: { violations?: boolean; organization_id?: string; limit?: number; cursor?: string } = {}): Promise<Answer<typeof JournalPage>> {
    return this.call('GET', this.path('/_mock/requests', { ...query, violations: query.violations === undefined ? undefined : String(query.violations) }));
  }

  /** `GET /_mock/report`: the contract report as an object. */
  report(): Promise<ContractReport>;
  /** `GET /_mock/report?format=`: the report as JUnit XML, Markdown or JSON text. */
  report(format: ReportFormat): Promise<string>;
  report(format?: ReportFormat): Promise<ContractReport | string> {
    return format === undefined ? this.call('GET', '/_mock/report') : this.text('GET', `/_mock/report?format=${format}`);
  }

  private withOrganization<T extends object>(body: T): T & { organization_id?: string } {
    return this.options.organizationId === undefined ? body : { ...body, organization_id: this.options.organizationId };
  }

  private scoped(path: string, query: Record<string, string | number | undefined> = {}): string {
    return this.path(path, { ...query, organization_id: this.options.organizationId });
  }

  private path(path: string, query: Record<string, string | number | undefined>): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const text = params.toString();
    return text === '' ? path : `${path}?${text}`;
  }

  private async call<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
    const text = await this.text(method, path, body, contentType);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  private text(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<string> {
    const url = new URL(path, this.base);
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const headers: Record<string, string> = {};
    if (payload !== undefined) headers['content-type'] = contentType;
    if (this.options.controlToken !== undefined) headers.authorization = `Bearer ${this.options.controlToken}`;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = send(
        url,
        { method, headers, ...(url.protocol === 'https:' && this.options.ca !== undefined ? { ca: this.options.ca } : {}) },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('error', reject);
          answer.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = answer.statusCode ?? 0;
            if (status >= 200 && status <= 299) return resolve(text);
            let parsed: unknown = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              // Not JSON: kept as text in the error.
            }
            reject(new ControlApiError(status, parsed, `${method} ${url.pathname}`));
          });
        },
      );
      outgoing.on('error', (error) =>
        reject(new Error(`bvs-mock: cannot reach ${this.base.origin} for ${method} ${url.pathname}: ${error.message}`, { cause: error })),
      );
      outgoing.end(payload);
    });
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
