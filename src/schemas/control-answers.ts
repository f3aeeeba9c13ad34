import { ApiErrorIssue } from './api-error';
import { OrganizationSettings, OrganizationOAuthConfig } from './config';
import { DeliveryEvent, FaultRequest } from './delivery';
import { EventTypeName } from './event-types';
import { idOf } from './ids';
import { outbound } from './outbound';
import { Timestamp } from './primitives';
import { WebhookEndpoint } from './webhook-endpoint';
import { z } from './zod';

/**
 * What the control API (`/_mock/...`) answers: the shapes of `openapi/control.yaml`, of the typed client in
 * `bvs-mock/testing`, and of what bvs-mock's own modules return for them (their types are inferred from
 * here). Published open like every answer, so a client generated from the document tolerates fields added later.
 */

const organization = { organization_id: z.string().optional() };

/** A page's cursor: pass it back as `cursor` for the next page; null on the last page. */
const NextCursor = z.string().nullable().openapi({ description: 'Pass it back as `cursor` for the next page; null on the last page.' });

/**
 * Whether a page ended before `limit` because its next item would have passed the page's byte budget
 * (1 MiB unless bvs-mock was started with `--max-page-bytes`; docs/fidelity.md row 102).
 */
export const CutBySize = z.boolean().openapi({
  description:
    'True when the page holds fewer than `limit` items because the next one would have taken it past the byte budget of a page (1 MiB unless bvs-mock was started with `--max-page-bytes`); `next_cursor` goes on from there. A page may hold fewer items than asked for: follow `next_cursor` until it is null instead of counting items.',
});

/** Delivery records by status. */
export const DeliveryCounts = outbound(
  z.strictObject({ pending: z.number().int(), succeeded: z.number().int(), failed: z.number().int(), expired: z.number().int() }),
  'DeliveryCounts',
);

const clockFields = {
  mode: z.enum(['instant', 'realtime', 'manual']).openapi({ description: 'instant, realtime (at `speed`) or manual.' }),
  speed: z.number().positive().openapi({ description: 'Realtime speed factor (kept while in other modes).' }),
  now: Timestamp.openapi({ description: 'Current simulated time.' }),
  started_at: Timestamp.openapi({ description: 'The instant the clock started at; `POST /_mock/reset` returns here.' }),
  pending: z.number().int().nonnegative().openapi({ description: 'Timers not yet fired.' }),
  next_at: Timestamp.nullable().openapi({ description: 'Due time of the next timer; null when nothing is scheduled.' }),
};

/** The clock as the control API shows it (`GET /_mock/clock`, docs/design.md "One simulated clock"). */
export const ClockDescription = outbound(z.strictObject(clockFields), 'ClockDescription');

/** `GET /_mock/health`. */
export const Health = outbound(
  z.strictObject({
    status: z.literal('ok'),
    version: z.string().openapi({ description: "bvs-mock's version." }),
    imitates: outbound(
      z.strictObject({ service: z.string(), api: z.string().openapi({ description: 'Base path of the API version imitated.', example: '/api/v2' }) }),
    ),
    clock: ClockDescription,
    retention: outbound(
      z.strictObject({
        validations: z.number().int(),
        max_validations: z.number().int(),
        evicted_validations: z.number().int(),
        journal: outbound(z.strictObject({ entries: z.number().int(), max_entries: z.number().int() })),
      }),
    ),
    deliveries: outbound(
      z.strictObject({
        records: z.number().int(),
        max_records: z.number().int(),
        evicted_records: z.number().int(),
        max_pending_per_receiver: z.number().int().openapi({
          description: 'Deliveries one receiver may have pending; one more fails at once with `reason: receiver_backlog` (`--max-pending-per-receiver`).',
        }),
        slow_receivers: z.number().int().openapi({ description: 'Receivers the instant clock stopped waiting for (slower than a real second).' }),
        suspended_receivers: z.number().int().openapi({
          description:
            'Receivers whose last five attempts all timed out: one probe every two delivery timeouts still goes, the other attempts are recorded as `receiver_suspended` without being sent, until a probe or a redelivery is answered.',
        }),
        counts: DeliveryCounts,
      }),
    ),
  }),
  'Health',
);

/** `POST /_mock/reset`. */
export const ResetAnswer = outbound(z.strictObject({ status: z.literal('reset'), clock: ClockDescription }), 'ResetAnswer');

/** `POST /_mock/clock/advance`: the clock after the advance, and how many timers fired. */
export const ClockAdvanceAnswer = outbound(
  z.strictObject({ ...clockFields, fired: z.number().int().nonnegative().openapi({ description: 'Timers fired by the advance.' }) }),
  'ClockAdvanceAnswer',
);

/**
 * `POST /_mock/clock/run`: the clock once nothing is scheduled or in flight, or when the real-time bound
 * came first (`settled: false`), what is still pending; and the deliveries by status (docs/fidelity.md row 98).
 */
export const ClockRunAnswer = outbound(
  z.strictObject({
    ...clockFields,
    deliveries: DeliveryCounts,
    settled: z.boolean().openapi({
      description:
        'True when the run reached its end: nothing scheduled and no delivery attempt running or queued. False when `max_wait_seconds` passed first: `pending`, `next_at`, `in_flight` and `deliveries.pending` say what is left; call again to go on.',
    }),
    in_flight: z
      .number()
      .int()
      .nonnegative()
      .openapi({ description: 'Delivery attempts running or queued to start now (retries waiting for their time are counted in `pending`).' }),
    max_wait_seconds: z.number().positive().openapi({ description: 'The bound this run had, in real seconds.' }),
  }),
  'ClockRunAnswer',
);

/** A scenario as `GET /_mock/scenarios` lists it. */
export const ScenarioListing = outbound(
  z.strictObject({
    name: z.string(),
    description: z.string(),
    tins: z.array(z.string()).openapi({ description: 'The TINs that select it on create.' }),
    source: z.string().openapi({
      description:
        '`built-in scenarios/NAME.yaml` for a scenario of the package, the file it came from as its directory was given (`--scenarios`), or how it was added at run time.',
    }),
    built_in: z.boolean(),
  }),
  'ScenarioListing',
);

export const ScenarioList = outbound(z.strictObject({ scenarios: z.array(ScenarioListing) }), 'ScenarioList');

/** `PATCH /_mock/organizations/{id}/settings`: the settings to change, each left out kept. */
export const OrganizationSettingsPatch = z.strictObject({
  ...organization,
  child_batches_ready: z.boolean().optional(),
  legacy_webhook_token: z.string().min(1).optional(),
  oauth: OrganizationOAuthConfig.optional(),
});

/** The organization's settings after a change; stored secrets answered as `<set>` (docs/fidelity.md). */
export const OrganizationSettingsAnswer = outbound(
  z.strictObject({ organization_id: z.string(), settings: OrganizationSettings }),
  'OrganizationSettingsAnswer',
);

/** An event as `GET /_mock/emitted` lists it: the engine emitted it, whether or not an endpoint received it (docs/fidelity.md row 85). */
export const EmittedEvent = outbound(
  z.strictObject({
    sequence: z.number().int().positive(),
    type: EventTypeName,
    organization_id: z.string(),
    entity_validation_id: idOf('evl').openapi({ description: 'The validation created through the API whose tree it belongs to.' }),
    resource_id: z.string(),
    emitted_at: Timestamp,
  }),
  'EmittedEvent',
);

export const EmittedPage = outbound(z.strictObject({ events: z.array(EmittedEvent), next_cursor: NextCursor, cut_by_size: CutBySize }), 'EmittedPage');

export const SettledAnswer = outbound(z.strictObject({ entity_validation_id: idOf('evl'), settled: z.boolean() }), 'SettledAnswer');

/** How many violations of a request the journal counted and did not keep; absent when it kept them all (docs/fidelity.md row 96). */
const ViolationsOmitted = z
  .number()
  .int()
  .positive()
  .optional()
  .openapi({ description: 'How many more violations the request had than `violations` lists (at most 100 are kept); absent when it lists them all.' });

/** One API request as the journal records it (`GET /_mock/requests`). */
export const JournalEntry = outbound(
  z.strictObject({
    id: z.string(),
    at: Timestamp,
    method: z.string(),
    path: z.string(),
    operation: z.string().nullable().openapi({ description: 'The operationId of the API document; null when no operation matched.' }),
    organization_id: z.string().nullable(),
    status: z.number().int(),
    duration_ms: z.number().nonnegative(),
    violations: z.array(ApiErrorIssue).openapi({
      description:
        'Contract violations found in the request, answered or tolerated, at their JSON paths: at most 100, each path and message at most 1,000 characters (docs/fidelity.md row 96).',
    }),
    violations_omitted: ViolationsOmitted,
  }),
  'JournalEntry',
);

export const JournalPage = outbound(z.strictObject({ requests: z.array(JournalEntry), next_cursor: NextCursor, cut_by_size: CutBySize }), 'JournalPage');

export const InputSuppliedAnswer = outbound(z.strictObject({ data_source_run_id: idOf('dsr'), status: z.literal('input_supplied') }), 'InputSuppliedAnswer');

/** An endpoint after a change, with its secret when this call made or set one (shown once, spec §5.5). */
export const WebhookEndpointAnswer = outbound(
  z.strictObject({ webhook_endpoint: WebhookEndpoint, secret: z.string().optional().openapi({ description: 'Shown once: only when this call set it.' }) }),
  'WebhookEndpointAnswer',
);

export const WebhookEndpointSecretAnswer = outbound(z.strictObject({ webhook_endpoint: WebhookEndpoint, secret: z.string() }), 'WebhookEndpointSecretAnswer');

export const ControlWebhookEndpointList = outbound(z.strictObject({ webhook_endpoints: z.array(WebhookEndpoint) }), 'ControlWebhookEndpointList');

export const DeliveryEventPage = outbound(
  z.strictObject({ events: z.array(DeliveryEvent), counts: DeliveryCounts, next_cursor: NextCursor, cut_by_size: CutBySize }),
  'DeliveryEventPage',
);

/** An injected fault with its id and how many times it applied. */
const faultRecord = { id: z.string(), applied: z.number().int().nonnegative().openapi({ description: 'How many deliveries or requests it hit so far.' }) };
const [duplicate, delay, tolerance, apiError, apiReset, tokenRevoked, apiLatency] = FaultRequest.options;
export const ActiveFault = z
  .discriminatedUnion('kind', [
    outbound(duplicate.extend(faultRecord)),
    outbound(delay.extend(faultRecord)),
    outbound(tolerance.extend(faultRecord)),
    outbound(apiError.extend(faultRecord)),
    outbound(apiReset.extend(faultRecord)),
    outbound(tokenRevoked.extend(faultRecord)),
    outbound(apiLatency.extend(faultRecord)),
  ])
  .openapi('ActiveFault');

export const FaultList = outbound(z.strictObject({ faults: z.array(ActiveFault) }), 'FaultList');

/** What each receiver of the client did with its deliveries (docs/fidelity.md row 83). */
export const ReceiverFindings = outbound(
  z.strictObject({
    endpoint_id: idOf('whe').nullable(),
    url: z.string(),
    organization_id: z.string(),
    deliveries: z.number().int(),
    attempts: z.number().int(),
    not_2xx: z.number().int().openapi({ description: 'Answers with a status outside 2xx.' }),
    no_answer: z.number().int().openapi({
      description: 'Attempts without a whole answer: refused, reset, timed out, or cut short after its head (a truncated answer is not an answer).',
    }),
    retried_deliveries: z.number().int().openapi({ description: 'Deliveries that needed more than one attempt.' }),
    slow_answers: z.number().int().openapi({ description: 'Answers slower than `quick_answer_ms`.' }),
    slowest_ms: z.number().nonnegative(),
  }),
  'ReceiverFindings',
);

/** One probe delivery of a receiver check, with what the receiver answered. */
export const ProbeExchange = outbound(
  z.strictObject({
    request: outbound(
      z.strictObject({
        method: z.literal('POST'),
        url: z.string(),
        headers: z.record(z.string(), z.string()).openapi({ description: "As sent, but the receiver's own secret written as a placeholder." }),
        type: EventTypeName,
        bytes: z.number().int().nonnegative(),
        body_excerpt: z.string().openapi({ description: 'The first 2,000 characters of the body.' }),
      }),
    ),
    answer: outbound(
      z.strictObject({
        status: z.number().int().nullable().openapi({ description: 'Null when no HTTP answer came.' }),
        duration_ms: z.number().int().nonnegative().nullable().openapi({
          description:
            'Real milliseconds until the answer ended; null when no HTTP answer came, so that a closed port and one that never answers read the same (docs/fidelity.md row 106).',
        }),
        error: z.string().nullable().openapi({
          description:
            '`unreachable` when no HTTP answer came, whatever the reason (refused, reset, timed out, TLS failed, not HTTP); with a status, why the answer broke off after its head (`answer_truncated: ...`, `timeout`): a truncated answer is not an answer.',
        }),
        body_excerpt: z.string().openapi({ description: 'The first 200 characters of the answer; empty when no HTTP answer came.' }),
      }),
    ),
  }),
  'ProbeExchange',
);

/** One check of a receiver check: what the receiver must do, the spec rule, and how it did. */
export const ReceiverCheckResult = outbound(
  z.strictObject({
    check: z.string().openapi({ example: 'verify:wrong-bearer' }),
    expectation: z.string(),
    rule: z.string().openapi({ description: 'The rule of the spec it tests, with its section.' }),
    outcome: z.enum(['pass', 'fail', 'skipped']),
    reason: z.string().nullable().openapi({ description: 'Why it failed or was skipped; null when it passed.' }),
    exchanges: z.array(ProbeExchange),
  }),
  'ReceiverCheckResult',
);

/** A receiver check: the battery of probe deliveries sent to one receiver, graded (docs/fidelity.md row 88). */
export const ReceiverCheckReport = outbound(
  z.strictObject({
    url: z.string(),
    auth: z.enum(['none', 'secret', 'legacy']),
    quick_answer_ms: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    results: z.array(ReceiverCheckResult),
  }),
  'ReceiverCheckReport',
);

/** A receiver check run through the control API, against one of the organization's endpoints. */
export const EndpointReceiverCheck = outbound(
  z.strictObject({
    id: z.string().openapi({ example: 'rck_1' }),
    organization_id: z.string(),
    endpoint_id: idOf('whe'),
    checked_at: Timestamp.openapi({ description: 'Simulated time of the check.' }),
    report: ReceiverCheckReport,
  }),
  'EndpointReceiverCheck',
);

export const EndpointReceiverCheckList = outbound(z.strictObject({ receiver_checks: z.array(EndpointReceiverCheck) }), 'EndpointReceiverCheckList');

/** What a client did after a fault bvs-mock injected into an API answer, graded (docs/fidelity.md row 90). */
export const ClientBehaviourFinding = outbound(
  z.strictObject({
    check: z.enum(['retry-after', 'backoff', 'token-renewal', 'rate']),
    rule: z.string(),
    outcome: z.enum(['pass', 'fail']),
    message: z.string(),
    evidence: z.array(
      outbound(
        z.strictObject({
          request_id: z.string(),
          at: Timestamp.openapi({ description: 'Real (wall-clock) time the request arrived: client waits are real time.' }),
          method: z.string(),
          path: z.string(),
          status: z.number().int(),
          fault: z.string().nullable().openapi({ description: 'The fault injected into its answer, if one was.' }),
        }),
      ),
    ),
  }),
  'ClientBehaviourFinding',
);

/** The contract report of a run so far (`GET /_mock/report`, docs/design.md user 3). */
export const ContractReport = outbound(
  z.strictObject({
    operations: outbound(
      z.strictObject({
        exercised: z.record(z.string(), z.number().int()).openapi({ description: 'Calls by operationId.' }),
        not_exercised: z.array(z.string()),
      }),
    ),
    events: outbound(
      z.strictObject({
        emitted: z.record(z.string(), z.number().int()).openapi({ description: 'Events emitted by type.' }),
        not_emitted: z.array(EventTypeName),
        deliveries: z.record(z.string(), DeliveryCounts).openapi({ description: 'Delivery records by event type and status.' }),
      }),
    ),
    violations: outbound(
      z.strictObject({
        violating_requests: z.number().int().openapi({ description: 'Requests with at least one violation, counted once each.' }),
        issues: z.number().int().openapi({ description: 'Violations in all, listed or not: one request may break several rules.' }),
        requests: z
          .array(
            outbound(
              z.strictObject({
                id: z.string(),
                method: z.string(),
                path: z.string(),
                status: z.number().int(),
                violations: z.array(ApiErrorIssue),
                violations_omitted: ViolationsOmitted,
              }),
            ),
          )
          .openapi({ description: 'The most recent violating requests, each with its violations.' }),
      }),
    ),
    receivers: outbound(z.strictObject({ quick_answer_ms: z.number().int(), findings: z.array(ReceiverFindings) })),
    receiver_checks: z
      .array(
        outbound(
          z.strictObject({
            id: z.string(),
            endpoint_id: idOf('whe'),
            url: z.string(),
            passed: z.number().int(),
            failed: z.number().int(),
            skipped: z.number().int(),
            failures: z.array(outbound(z.strictObject({ check: z.string(), rule: z.string(), reason: z.string() }))),
          }),
        ),
      )
      .openapi({ description: 'The receiver checks run through the control API since the last reset, with their failures.' }),
    client_behaviour: outbound(
      z.strictObject({
        note: z.string().openapi({ description: 'How to read the findings: client waits are measured in real time.' }),
        max_requests_per_second: z.number().int(),
        findings: z.array(ClientBehaviourFinding),
      }),
    ),
  }),
  'ContractReport',
);

export type DeliveryCounts = z.infer<typeof DeliveryCounts>;
export type ClockDescription = z.infer<typeof ClockDescription>;
export type Health = z.infer<typeof Health>;
export type ScenarioListing = z.infer<typeof ScenarioListing>;
export type EmittedEvent = z.infer<typeof EmittedEvent>;
export type JournalEntry = z.infer<typeof JournalEntry>;
export type ActiveFault = z.infer<typeof ActiveFault>;
export type ReceiverFindings = z.infer<typeof ReceiverFindings>;
export type ContractReport = z.infer<typeof ContractReport>;
export type ProbeExchange = z.infer<typeof ProbeExchange>;
export type ClientBehaviourFinding = z.infer<typeof ClientBehaviourFinding>;
export type ReceiverCheckResult = z.infer<typeof ReceiverCheckResult>;
export type ReceiverCheckReport = z.infer<typeof ReceiverCheckReport>;
export type EndpointReceiverCheck = z.infer<typeof EndpointReceiverCheck>;
