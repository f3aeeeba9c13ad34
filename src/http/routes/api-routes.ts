import { parseEntityValidationCreate, type EntityValidationCreateFields, type ParseResult } from '../../schemas';
import { ApiProblem, problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { readRoute } from './read-route';

/** Header choosing a scenario by name on the create call (DESIGN.md, Scenarios). */
export const SCENARIO_HEADER = 'x-mock-scenario';

/**
 * With `--allow-http-webhooks`, a legacy `webhook_url` may be plain http (a
 * receiver on the developer's machine); everything else is checked as usual.
 */
function parseAllowingHttpWebhooks(body: unknown): ParseResult<EntityValidationCreateFields> {
  const swapped: string[] = [];
  const swap = (holder: unknown) => {
    const object = holder as { webhook_url?: unknown } | null;
    if (object && typeof object === 'object' && typeof object.webhook_url === 'string' && object.webhook_url.startsWith('http://')) {
      swapped.push(object.webhook_url);
      object.webhook_url = `https://${object.webhook_url.slice('http://'.length)}`;
    }
  };
  const copy = structuredClone(body) as Record<string, unknown> | null;
  const fields = (copy && typeof copy === 'object' && 'entity_validation' in copy ? copy.entity_validation : copy) as Record<string, unknown> | null;
  swap(fields);
  if (fields && typeof fields === 'object') swap(fields.information_request);
  const result = parseEntityValidationCreate(copy);
  if (!result.ok) return result;
  const restore = (url: string | undefined) => (url !== undefined && swapped.includes(`http://${url.slice('https://'.length)}`) ? `http://${url.slice('https://'.length)}` : url);
  const value = { ...result.value, webhook_url: restore(result.value.webhook_url) };
  if (value.webhook_url === undefined) delete value.webhook_url;
  if (result.value.information_request) {
    const request = { ...result.value.information_request, webhook_url: restore(result.value.information_request.webhook_url) };
    if (request.webhook_url === undefined) delete request.webhook_url;
    value.information_request = request;
  }
  return { ok: true, value };
}

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
      const parse = context.services.allowHttpWebhooks ? parseAllowingHttpWebhooks : parseEntityValidationCreate;
      const fields: EntityValidationCreateFields = checkBody(context, parse, body);
      const scenarioName = context.request.headers[SCENARIO_HEADER];
      const result = context.services.engine.createValidation({ organizationId: context.organizationId, request: fields, scenarioName: scenarioName?.trim() || undefined });
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
  }),
  readRoute({
    pattern: '/api/v2/data_source_runs/:id/records',
    operation: 'getDataSourceRunRecords',
    scope: 'validations:read',
    what: 'data source run',
    read: (engine, organizationId, id) => engine.getRecords(organizationId, id),
  }),
];
