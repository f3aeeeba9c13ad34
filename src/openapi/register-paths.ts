import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  DataSourceRunRecords,
  EntityValidation,
  EntityValidationCreateRequest,
  OAuthTokenRequest,
  OAuthTokenResponse,
  WebhookEndpointList,
  exampleCreateRequest,
  exampleEntityValidation,
  exampleOAuthTokenResponse,
  exampleRecords,
  exampleWebhookEndpoint,
  idOf,
  z,
} from '../schemas';
import { AUTHENTICATED_ERRORS, errorResponses } from './error-responses';
import { requires } from './security';

/** A JSON body with its example (examples are real payloads, checked against the schemas in tests). */
const json = <T>(schema: T, example?: unknown) => ({ 'application/json': example === undefined ? { schema } : { schema, example } });

/** Registers every operation of spec §4. */
export function registerPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/oauth/token',
    operationId: 'createOAuthToken',
    tags: ['Authentication'],
    summary: 'Get an OAuth access token',
    description:
      'OAuth 2.0 client credentials grant (spec §4, §5.4). The token is sent as `Authorization: Bearer <ACCESS_TOKEN>` and expires after `expires_in` seconds.',
    security: [],
    request: {
      body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: OAuthTokenRequest } } },
    },
    responses: {
      200: { description: 'An access token.', content: json(OAuthTokenResponse, exampleOAuthTokenResponse()) },
      ...errorResponses([
        'https_required',
        'invalid_request',
        'unsupported_grant_type',
        'invalid_client',
        'insufficient_scope',
        'payload_too_large',
        'unsupported_media_type',
        'validation_failed',
        'rate_limited',
        'internal_error',
      ]),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v2/webhook_endpoints',
    operationId: 'listWebhookEndpoints',
    tags: ['Webhook endpoints'],
    summary: "List the organization's webhook endpoints",
    description: 'Endpoints are created, edited and given secrets in the dashboard, not through the API (spec §4).',
    security: requires('webhook_endpoints:read'),
    responses: {
      200: { description: 'The endpoints of the organization.', content: json(WebhookEndpointList, { webhook_endpoints: [exampleWebhookEndpoint()] }) },
      ...errorResponses(AUTHENTICATED_ERRORS),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/api/v2/entity_validations',
    operationId: 'createEntityValidation',
    tags: ['Entity validations'],
    summary: 'Create an entity validation',
    description:
      'Starts the validation of an entity identified by `tin` and `country`; results arrive by webhook (spec §4). The body may carry the fields at the top level or wrapped in `entity_validation`.',
    security: requires('validations:write'),
    request: { body: { required: true, content: json(EntityValidationCreateRequest, exampleCreateRequest()) } },
    responses: {
      201: { description: 'The validation, as it stands right after creation.', content: json(EntityValidation, exampleEntityValidation()) },
      ...errorResponses([
        ...AUTHENTICATED_ERRORS,
        'malformed_json',
        'payload_too_large',
        'unsupported_media_type',
        'validation_failed',
      ]),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v2/entity_validations/{id}',
    operationId: 'getEntityValidation',
    tags: ['Entity validations'],
    summary: 'Read an entity validation',
    description:
      'The validation as it stands now, including `related_entities` with the full identity of every partner (spec §4).',
    security: requires('validations:read'),
    request: { params: z.strictObject({ id: idOf('evl') }) },
    responses: {
      200: { description: 'The entity validation.', content: json(EntityValidation, exampleEntityValidation()) },
      ...errorResponses([...AUTHENTICATED_ERRORS, 'not_found']),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/api/v2/data_source_runs/{id}/records',
    operationId: 'getDataSourceRunRecords',
    tags: ['Data source runs'],
    summary: 'Read the records of a data source run',
    description: 'The path is given as `records_url` inside a run\'s `data` (spec §4). The response shape is not shown by the spec (docs/fidelity.md).',
    security: requires('validations:read'),
    request: { params: z.strictObject({ id: idOf('dsr') }) },
    responses: {
      200: { description: 'The records of the run.', content: json(DataSourceRunRecords, exampleRecords()) },
      ...errorResponses([...AUTHENTICATED_ERRORS, 'not_found']),
    },
  });
}
