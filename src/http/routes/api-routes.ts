import { parseEntityValidationCreate, type EntityValidationCreateFields } from '../../schemas';
import { ApiProblem, problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { readRoute } from './read-route';

/** Header choosing a scenario by name on the create call (docs/design.md, Scenarios). */
export const SCENARIO_HEADER = 'x-mock-scenario';

/** The operations of spec §4 (besides the token endpoint). */
export const apiRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/api/v2/webhook_endpoints',
    operation: 'listWebhookEndpoints',
    access: { kind: 'api', scope: 'webhook_endpoints:read' },
    handle(context) {
      const endpoints = context.services.endpoints.list(context.organizationId).map((stored) => stored.endpoint);
      return jsonResponse(200, { webhook_endpoints: endpoints });
    },
  },
  {
    method: 'POST',
    pattern: '/api/v2/entity_validations',
    operation: 'createEntityValidation',
    access: { kind: 'api', scope: 'validations:write' },
    handle(context) {
      const body = context.json();
      if (body === undefined) throw problems.invalidRequest('The body is empty; send a JSON object with at least tin and country.');
      const allowHttpWebhooks = context.services.allowHttpWebhooks;
      const fields: EntityValidationCreateFields = checkBody(context, (value) => parseEntityValidationCreate(value, { allowHttpWebhooks }), body);
      const scenarioName = context.request.headers[SCENARIO_HEADER];
      const result = context.services.engine.createValidation({
        organizationId: context.organizationId,
        request: fields,
        scenarioName: scenarioName?.trim() || undefined,
      });
      if (!result.ok) {
        throw new ApiProblem('invalid_request', result.message, [{ path: '$headers["x-mock-scenario"]', code: result.code, message: result.message }]);
      }
      return jsonResponse(201, result.value, { location: `/api/v2/entity_validations/${result.value.id}` });
    },
  },
  readRoute({
    pattern: '/api/v2/entity_validations/:id',
    operation: 'getEntityValidation',
    scope: 'validations:read',
    what: 'entity validation',
    read: (engine, organizationId, id) => engine.getValidation(organizationId, id),
    pure: true,
  }),
  readRoute({
    pattern: '/api/v2/data_source_runs/:id/records',
    operation: 'getDataSourceRunRecords',
    scope: 'validations:read',
    what: 'data source run',
    read: (engine, organizationId, id) => engine.getRecords(organizationId, id),
    pure: true,
  }),
];
