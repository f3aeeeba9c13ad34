import {
  DataSourceRunRecords,
  EntityValidation,
  EntityValidationCreateRequest,
  WebhookEndpointList,
  exampleCreateRequest,
  exampleEntityValidation,
  exampleRecords,
  exampleWebhookEndpoint,
  idOf,
  parseEntityValidationCreate,
  z,
  type EntityValidationCreateFields,
} from '../../schemas';
import { decodeLabel, LABEL_HEADER } from '../../schemas/request-label';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody } from '../read-body';
import type { Route } from '../router';
import { readRoute } from './read-route';

/** Header choosing a scenario by name on the create call (docs/design.md, Scenarios). */
const SCENARIO_HEADER = 'x-mock-scenario';

/** The operations of spec §4 (besides the token endpoint). */
export const apiRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/api/v2/webhook_endpoints',
    operation: 'listWebhookEndpoints',
    access: { kind: 'api', scope: 'webhook_endpoints:read' },
    document: {
      tags: ['Webhook endpoints'],
      summary: "List the organization's webhook endpoints",
      description: 'Endpoints are created, edited and given secrets in the dashboard, not through the API (spec §4).',
      answer: {
        status: 200,
        description: 'The endpoints of the organization.',
        schema: WebhookEndpointList,
        example: { webhook_endpoints: [exampleWebhookEndpoint()] },
      },
    },
    handle(context) {
      const endpoints = context.world.endpoints.list(context.organizationId).map((stored) => stored.endpoint);
      return jsonResponse(200, { webhook_endpoints: endpoints });
    },
  },
  {
    method: 'POST',
    pattern: '/api/v2/entity_validations',
    operation: 'createEntityValidation',
    access: { kind: 'api', scope: 'validations:write' },
    document: {
      tags: ['Entity validations'],
      summary: 'Create an entity validation',
      description:
        'Starts the validation of an entity identified by `tin` and `country`; results arrive by webhook (spec §4). The body may carry the fields at the top level or wrapped in `entity_validation`. bvs-mock also reads the header `X-Mock-Scenario`: a scenario name, or `generated?PARAMETERS` for a generated tree of the shape asked for (`generated?partners=5&fail=partner-3:definitive`, docs/scenarios.md "Parameters at create time"); an unknown name or a bad parameter is a 400 `invalid_request` naming it.',
      body: { schema: EntityValidationCreateRequest, example: exampleCreateRequest() },
      answer: { status: 201, description: 'The validation, as it stands right after creation.', schema: EntityValidation, example: exampleEntityValidation() },
      errors: ['invalid_request'],
    },
    handle(context) {
      const body = context.json();
      if (body === undefined) throw problems.invalidRequest('The body is empty; send a JSON object with at least tin and country.');
      const allowHttpWebhooks = context.server.allowHttpWebhooks;
      const fields: EntityValidationCreateFields = checkBody(context, (value) => parseEntityValidationCreate(value, { allowHttpWebhooks }), body);
      const scenarioName = context.request.headers[SCENARIO_HEADER];
      const result = context.world.engine.createValidation({
        organizationId: context.organizationId,
        request: fields,
        scenarioName: scenarioName?.trim() || undefined,
        label: decodeLabel(context.request.headers[LABEL_HEADER]),
      });
      if (!result.ok)
        throw result.code === 'invalid_scenario_parameters' ? problems.invalidRequest(result.message, result.issues) : problems.unknownScenario(result.message);
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
    document: {
      tags: ['Entity validations'],
      summary: 'Read an entity validation',
      description: 'The validation as it stands now, including `related_entities` with the full identity of every partner (spec §4).',
      params: z.strictObject({ id: idOf('evl') }),
      answer: { status: 200, description: 'The entity validation.', schema: EntityValidation, example: exampleEntityValidation() },
    },
  }),
  readRoute({
    pattern: '/api/v2/data_source_runs/:id/records',
    operation: 'getDataSourceRunRecords',
    scope: 'validations:read',
    what: 'data source run',
    read: (engine, organizationId, id) => engine.getRecords(organizationId, id),
    pure: true,
    document: {
      tags: ['Data source runs'],
      summary: 'Read the records of a data source run',
      description: "The path is given as `records_url` inside a run's `data` (spec §4). The response shape is not shown by the spec (docs/fidelity.md).",
      params: z.strictObject({ id: idOf('dsr') }),
      answer: { status: 200, description: 'The records of the run.', schema: DataSourceRunRecords, example: exampleRecords() },
    },
  }),
];
