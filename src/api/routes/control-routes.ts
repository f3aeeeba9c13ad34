import {
  ClockAdvanceAnswer,
  ClockAdvanceRequest,
  ClockDescription,
  ClockRunAnswer,
  ClockRunRequest,
  EmittedPage,
  EmittedQuery,
  EntityValidation,
  Health,
  InputSuppliedAnswer,
  JournalPage,
  JournalQuery,
  OrganizationOnlyRequest,
  OrganizationQuery,
  OrganizationSettingsAnswer,
  OrganizationSettingsPatch,
  ResetAnswer,
  SettledAnswer,
  idOf,
  parseWith,
  toIssues,
  z,
  type OrganizationSettings,
} from '../../schemas';
import { problems, unwrap } from '../api-problem';
import { jsonResponse } from '../core-types';
import { PageBudget, encodeCursor, readPageQuery } from '../page-query';
import { readJournalFilter } from '../journal-query';
import { journalEntryMatches } from '../../schemas/journal-filter';
import { checkBody } from '../read-body';
import { IMITATES, VERSION } from '../../version';
import type { Route } from '../router';
import { informationRequestRoutes } from './information-request-routes';
import { scenarioRoutes } from './scenario-routes';

const control = { kind: 'control' as const };

/** What stands in for a stored secret in control API answers: it says one is set, never what it is (docs/fidelity.md). */
export const REDACTED_SECRET = '<set>';

/** Simulated time ends this many calendar years after the clock's start (docs/fidelity.md). */
export const CLOCK_RANGE_YEARS = 100;

/**
 * The last instant `POST /_mock/clock/advance` may reach: 100 years after the
 * start is far beyond anything the spec times (24 h URLs, 2 h tokens, retries
 * over days), keeps every timestamp in the spec's four-digit-year format, and
 * leaves timers scheduled from there far from the end of `Date`'s range.
 */
export function clockLimit(startedAt: number): number {
  const end = new Date(startedAt);
  end.setUTCFullYear(end.getUTCFullYear() + CLOCK_RANGE_YEARS);
  return end.getTime();
}

/** Settings as the control API shows them: stored secrets replaced by `<set>`, in the same shape. */
function redactSettings(settings: OrganizationSettings): OrganizationSettings {
  return {
    ...settings,
    ...(settings.legacy_webhook_token === undefined ? {} : { legacy_webhook_token: REDACTED_SECRET }),
    ...(settings.oauth === undefined ? {} : { oauth: { ...settings.oauth, client_secret: REDACTED_SECRET } }),
  };
}

/** A PATCH that sends back the redacted form would store "<set>" as the secret: refuse it. */
function refuseRedacted(patch: Record<string, unknown>): void {
  if (patch.legacy_webhook_token === REDACTED_SECRET) throw problems.redactedSecret('$.legacy_webhook_token');
  const oauth = patch.oauth;
  if (typeof oauth === 'object' && oauth !== null && (oauth as Record<string, unknown>).client_secret === REDACTED_SECRET)
    throw problems.redactedSecret('$.oauth.client_secret');
}

/** The control API (docs/design.md): health, reset, the clock, organizations' settings, the journal, and the engine's levers. */
export const controlRoutes = [
  {
    method: 'GET',
    pattern: '/_mock/health',
    operation: 'control.health',
    access: control,
    document: {
      tags: ['Health'],
      summary: 'Readiness, version, clock and what bvs-mock keeps',
      description: 'Answers as soon as bvs-mock can serve: the readiness probe of a container or CI job. Open even when the control API is locked.',
      answer: { status: 200, description: 'bvs-mock is ready.', schema: Health },
    },
    handle: (context) =>
      jsonResponse(200, {
        status: 'ok',
        version: VERSION,
        imitates: IMITATES,
        seed: context.world.seed,
        clock: context.world.clock.describe(),
        retention: { ...context.world.engine.retention(), journal: context.world.journal.retention() },
        deliveries: { ...context.world.deliveries.retention(), counts: context.world.deliveries.counts() },
      }),
  },
  {
    method: 'POST',
    pattern: '/_mock/reset',
    operation: 'control.reset',
    access: control,
    document: {
      tags: ['Health'],
      summary: 'Reset everything to its start',
      description:
        'Every organization back to its configured state, the clock back to its start, delivery records, the journal, faults and run-time scenarios gone; deliveries in flight end. Call it between tests.',
      answer: { status: 200, description: 'Reset; the clock as it is now.', schema: ResetAnswer },
    },
    handle(context) {
      context.world.reset();
      return jsonResponse(200, { status: 'reset', clock: context.world.clock.describe() });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/clock',
    operation: 'control.clock',
    access: control,
    document: {
      tags: ['Clock'],
      summary: 'The simulated clock',
      description: 'Its mode, simulated time now, where it started and what is scheduled.',
      answer: { status: 200, description: 'The clock.', schema: ClockDescription },
    },
    handle: (context) => jsonResponse(200, context.world.clock.describe()),
  },
  {
    method: 'POST',
    pattern: '/_mock/clock/advance',
    operation: 'control.clock.advance',
    access: control,
    document: {
      tags: ['Clock'],
      summary: 'Move simulated time forward',
      description:
        'Fires every timer due within the span, instant by instant. With the manual or instant clock, time waits before each move (the first one too) for the deliveries already queued to have their attempt, and the call answers once those due by then have ended: each attempt carries the time of its event, and the gaps between retries are exact however time is moved (docs/fidelity.md rows 48 and 75).',
      body: { schema: ClockAdvanceRequest, example: { seconds: 60 } },
      answer: { status: 200, description: 'The clock after the advance, and how many timers fired.', schema: ClockAdvanceAnswer },
    },
    async handle(context) {
      const body = checkBody(context, (value) => parseWith(ClockAdvanceRequest, value), context.json() ?? {});
      const { clock } = context.world;
      const ms = Math.round(body.seconds * 1000);
      const limit = clockLimit(clock.startedAt);
      const now = clock.now();
      if (now + ms > limit) {
        throw problems.clockPastLimit({
          seconds: body.seconds,
          now: new Date(now).toISOString(),
          limit: new Date(limit).toISOString(),
          maxSeconds: Math.max(0, Math.floor((limit - now) / 1000)),
        });
      }
      const fired = await context.world.advance(ms);
      return jsonResponse(200, { ...context.world.clock.describe(), fired });
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/clock/run',
    operation: 'control.clock.run',
    access: control,
    document: {
      tags: ['Clock'],
      summary: 'Run until nothing is scheduled, within a bound in real time',
      description:
        'Plays every scheduled step and every delivery, retries included, until nothing is scheduled or in flight (the manual clock runs instant by instant), or until `max_wait_seconds` real seconds have passed (default: `--max-run-wait`, 30 s), so a receiver that hangs cannot hold the call for the 21 attempts of each delivery (docs/fidelity.md row 98). Always 200: `settled` says whether the run reached its end; when it is false, the clock and `in_flight` say what is left, and a later call goes on from there.',
      body: { schema: ClockRunRequest, example: { max_wait_seconds: 30 } },
      answer: {
        status: 200,
        description: 'The clock at the end (or at the bound), whether it settled, what is in flight and the delivery records by status.',
        schema: ClockRunAnswer,
      },
    },
    async handle(context) {
      const body = checkBody(context, (value) => parseWith(ClockRunRequest, value), context.json() ?? {});
      const { world, server } = context;
      const maxWaitMs = body.max_wait_seconds === undefined ? server.maxRunWaitMs : Math.max(1, Math.round(body.max_wait_seconds * 1000));
      const { settled } = await world.drain({ maxWaitMs });
      return jsonResponse(200, {
        ...world.clock.describe(),
        deliveries: world.deliveries.counts(),
        settled,
        in_flight: world.deliveries.inFlight(),
        max_wait_seconds: maxWaitMs / 1000,
      });
    },
  },
  ...scenarioRoutes,
  {
    method: 'PATCH',
    pattern: '/_mock/organizations/:id/settings',
    operation: 'control.organization.settings',
    access: control,
    document: {
      tags: ['Organizations'],
      summary: "Change an organization's settings",
      description:
        'Each setting left out is kept: `child_batches_ready` (spec §6 rule 4), the legacy webhook token (spec §5.6), OAuth for endpoints (spec §3). Stored secrets are answered as `<set>`.',
      params: z.object({ id: z.string().openapi({ description: 'The organization, like `default`.' }) }),
      body: { schema: OrganizationSettingsPatch, example: { child_batches_ready: false } },
      answer: { status: 200, description: 'The settings after the change.', schema: OrganizationSettingsAnswer },
      errors: ['invalid_request'],
    },
    handle(context) {
      const id = context.params.id!;
      const { registry } = context.world;
      if (!registry.has(id))
        throw problems.unknownOrganization(
          id,
          registry.list().map((organization) => organization.id),
        );
      const body = context.json();
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw problems.invalidRequest('Send a JSON object of settings, like {"child_batches_ready": false}.');
      // organization_id may be given in any control body (docs/design.md); here the path already names it.
      const { organization_id: _organization, ...patch } = body as Record<string, unknown>;
      refuseRedacted(patch);
      const result = registry.updateSettings(id, patch);
      if (!result.success) throw problems.validationFailed(toIssues(result.error));
      // Stored secrets are never answered back, not even to the control API (docs/fidelity.md).
      return jsonResponse(200, { organization_id: id, settings: redactSettings(result.data) });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/emitted',
    operation: 'control.emitted',
    access: control,
    paced: true,
    document: {
      tags: ['Validations'],
      summary: 'The events emitted since the last reset',
      description:
        "Oldest first, without bodies, whether or not an endpoint received them: what a test waits for. Partners' batches and runs and information requests carry the validation created through the API (docs/fidelity.md row 85).",
      query: EmittedQuery,
      answer: { status: 200, description: 'A page of events.', schema: EmittedPage },
      errors: ['validation_failed'],
    },
    handle(context) {
      const { query } = context.request;
      const page = readPageQuery(context.request);
      const budget = new PageBudget(context.server.maxPageBytes);
      const { events, more } = context.world.emitted.list({
        organizationId: context.organizationId,
        type: query.get('type') ?? undefined,
        validationId: query.get('entity_validation_id') ?? undefined,
        after: page.after,
        limit: page.limit,
        fits: budget.fits,
      });
      return budget.answer('events', { next_cursor: more ? encodeCursor(events.at(-1)!.sequence) : null });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/entity_validations/:id/settled',
    operation: 'control.settled',
    access: control,
    document: {
      tags: ['Validations'],
      summary: "Whether a validation's tree has nothing left scheduled",
      description: 'True once every step of its tree has played; its deliveries may still be pending (`GET /_mock/events?status=pending`).',
      params: z.object({ id: idOf('evl') }),
      query: OrganizationQuery,
      answer: { status: 200, description: 'Settled or not.', schema: SettledAnswer },
    },
    handle(context) {
      const id = context.params.id!;
      const settled = context.world.engine.isSettled(context.organizationId, id);
      if (settled === undefined) throw problems.notFound('entity validation created through the API', id);
      return jsonResponse(200, { entity_validation_id: id, settled });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/requests',
    operation: 'control.requests',
    access: control,
    paced: true,
    document: {
      tags: ['Journal and report'],
      summary: "The journal of the client's API requests",
      description:
        'Oldest first, each with its status, duration, body and the contract violations found in it at their JSON paths, filtered by operation, method, path (or path template), label and status (docs/fidelity.md row 82).',
      query: JournalQuery,
      answer: { status: 200, description: 'A page of requests.', schema: JournalPage },
      errors: ['validation_failed'],
    },
    handle(context) {
      const { query } = context.request;
      const page = readPageQuery(context.request);
      const budget = new PageBudget(context.server.maxPageBytes);
      const filter = readJournalFilter(query);
      const { next } = context.world.journal.page({
        violationsOnly: query.get('violations') === 'true',
        organizationId: query.get('organization_id') ?? undefined,
        where: (entry) => journalEntryMatches(filter, entry),
        after: page.after,
        limit: page.limit,
        fits: budget.fits,
      });
      return budget.answer('requests', { next_cursor: encodeCursor(next) });
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/entity_validations/:id/revalidate',
    operation: 'control.revalidate',
    access: control,
    document: {
      tags: ['Validations'],
      summary: 'Revalidate a validation',
      description: 'Plays its tree again, with new batches and runs (spec §6 rule 2). Refused while its previous play still runs (docs/fidelity.md row 79).',
      params: z.object({ id: idOf('evl') }),
      body: { schema: OrganizationOnlyRequest, required: false },
      answer: { status: 202, description: 'The validation as the revalidation starts.', schema: EntityValidation },
      errors: ['conflict'],
    },
    handle(context) {
      checkBody(context, (value) => parseWith(OrganizationOnlyRequest, value), context.json() ?? {});
      const id = context.params.id!;
      return jsonResponse(202, unwrap(context.world.engine.revalidate(context.organizationId, id)));
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/data_source_runs/:id/input',
    operation: 'control.run.input',
    access: control,
    document: {
      tags: ['Validations'],
      summary: 'Supply the input a run waits for',
      description: 'A run in `missing_input_data` goes on with the input supplied.',
      params: z.object({ id: idOf('dsr') }),
      body: { schema: OrganizationOnlyRequest, required: false },
      answer: { status: 202, description: 'The input is supplied.', schema: InputSuppliedAnswer },
      errors: ['conflict'],
    },
    handle(context) {
      checkBody(context, (value) => parseWith(OrganizationOnlyRequest, value), context.json() ?? {});
      const id = context.params.id!;
      unwrap(context.world.engine.supplyInput(context.organizationId, id));
      return jsonResponse(202, { data_source_run_id: id, status: 'input_supplied' });
    },
  },
  ...informationRequestRoutes,
] as const satisfies readonly Route[];
