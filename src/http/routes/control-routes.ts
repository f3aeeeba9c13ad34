import {
  ClockAdvanceRequest,
  OrganizationOnlyRequest,
  parseWith,
  toIssues,
} from '../../schemas';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { unwrap } from './extension-routes';
import { informationRequestRoutes } from './information-request-routes';
import { scenarioRoutes } from './scenario-routes';

const VERSION = '0.1.0';

const control = { kind: 'control' as const };

/** The control API (DESIGN.md): health, reset, the clock, organizations' settings, the journal, and the engine's levers. */
export const controlRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/_mock/health',
    operation: 'control.health',
    access: control,
    handle: (context) => jsonResponse(200, { status: 'ok', version: VERSION, clock: context.services.clock.describe() }),
  },
  {
    method: 'POST',
    pattern: '/_mock/reset',
    operation: 'control.reset',
    access: control,
    handle(context) {
      context.services.reset();
      return jsonResponse(200, { status: 'reset', clock: context.services.clock.describe() });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/clock',
    operation: 'control.clock',
    access: control,
    handle: (context) => jsonResponse(200, context.services.clock.describe()),
  },
  {
    method: 'POST',
    pattern: '/_mock/clock/advance',
    operation: 'control.clock.advance',
    access: control,
    handle(context) {
      const body = checkBody(context, (value) => parseWith(ClockAdvanceRequest, value), context.json() ?? {});
      const fired = context.services.clock.advance(Math.round(body.seconds * 1000));
      return jsonResponse(200, { ...context.services.clock.describe(), fired });
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/clock/run',
    operation: 'control.clock.run',
    access: control,
    async handle(context) {
      await context.services.drain();
      return jsonResponse(200, { ...context.services.clock.describe(), deliveries: context.services.deliveries.counts() });
    },
  },
  ...scenarioRoutes,
  {
    method: 'PATCH',
    pattern: '/_mock/organizations/:id/settings',
    operation: 'control.organization.settings',
    access: control,
    handle(context) {
      const id = context.params.id!;
      const { registry } = context.services;
      if (!registry.has(id)) throw problems.unknownOrganization(id, registry.list().map((organization) => organization.id));
      const body = context.json();
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw problems.invalidRequest('Send a JSON object of settings, like {"child_batches_ready": false}.');
      // organization_id may be given in any control body (DESIGN.md); here the path already names it.
      const { organization_id: _organization, ...patch } = body as Record<string, unknown>;
      const result = registry.updateSettings(id, patch);
      if (!result.success) throw problems.validationFailed(toIssues(result.error));
      return jsonResponse(200, { organization_id: id, settings: result.data });
    },
  },
  {
    method: 'GET',
    pattern: '/_mock/requests',
    operation: 'control.requests',
    access: control,
    handle(context) {
      const { query } = context.request;
      const requests = context.services.journal.list({
        violationsOnly: query.get('violations') === 'true',
        organizationId: query.get('organization_id') ?? undefined,
      });
      return jsonResponse(200, { requests });
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/entity_validations/:id/revalidate',
    operation: 'control.revalidate',
    access: control,
    handle(context) {
      checkBody(context, (value) => parseWith(OrganizationOnlyRequest, value), context.json() ?? {});
      const id = context.params.id!;
      return jsonResponse(202, unwrap(context.services.engine.revalidate(context.organizationId, id)));
    },
  },
  {
    method: 'POST',
    pattern: '/_mock/data_source_runs/:id/input',
    operation: 'control.run.input',
    access: control,
    handle(context) {
      checkBody(context, (value) => parseWith(OrganizationOnlyRequest, value), context.json() ?? {});
      const id = context.params.id!;
      unwrap(context.services.engine.supplyInput(context.organizationId, id));
      return jsonResponse(202, { data_source_run_id: id, status: 'input_supplied' });
    },
  },
  ...informationRequestRoutes,
];
