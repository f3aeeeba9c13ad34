import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allRoutes } from '../../src/http';
import { buildOpenApiDocument, documentToJson, documentToYaml } from '../../src/openapi';
import {
  EVENT_EXAMPLES,
  EVENT_SCHEMAS,
  EVENT_TYPES,
  exampleApiError,
  exampleEntityValidation,
  exampleOAuthTokenResponse,
  exampleRecords,
  exampleWebhookEndpoint,
  parseWith,
} from '../../src/schemas';
import { DocumentAjv } from '../support/document-ajv';

const ROOT = join(__dirname, '..', '..');
const document = buildOpenApiDocument();
const ajv = new DocumentAjv(document);

test('the committed openapi.yaml is what the schemas generate (run `npm run openapi` after a schema change)', () => {
  expect(readFileSync(join(ROOT, 'openapi', 'openapi.yaml'), 'utf8')).toBe(documentToYaml(document));
});

test('the committed openapi.json is what the schemas generate (run `npm run openapi` after a schema change)', () => {
  expect(readFileSync(join(ROOT, 'openapi', 'openapi.json'), 'utf8')).toBe(documentToJson(document));
});

const operations = () =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Record<string, unknown>>).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
  );

test('the document is OpenAPI 3.1 and holds every operation of spec section 4, unmarked', () => {
  expect(document.openapi).toBe('3.1.0');
  const spec = operations().filter(({ operation }) => operation['x-bvs-mock-extension'] === undefined);
  expect(spec.map(({ key }) => key).sort()).toEqual([
    'GET /api/v2/data_source_runs/{id}/records',
    'GET /api/v2/entity_validations/{id}',
    'GET /api/v2/webhook_endpoints',
    'POST /api/v2/entity_validations',
    'POST /oauth/token',
  ]);
});

test('the operations the spec names without a path are marked as bvs-mock extensions', () => {
  const extensions = operations().filter(({ operation }) => operation['x-bvs-mock-extension'] === true);
  expect(extensions.map(({ key }) => key).sort()).toEqual([
    'GET /api/v2/data_source_run_batches/{id}',
    'GET /api/v2/entity_validations/{id}/formation',
    'GET /api/v2/information_requests/{id}',
    'POST /api/v2/data_source_run_batches/{id}/consolidated_report',
    'POST /api/v2/entity_validations/{id}/stakeholders',
  ]);
  for (const { operation } of extensions) expect(operation.description).toContain('docs/fidelity.md row 18');
});

test('every operation of the document is served by a route of the same name, and every API route is in the document', () => {
  const routes = allRoutes().filter((route) => route.access.kind === 'api' || route.operation === 'createOAuthToken');
  const served = routes.map((route) => `${route.method} ${route.pattern.replace(/:([a-z_]+)/g, '{$1}')} ${route.operation}`).sort();
  const documented = operations().map(({ key, operation }) => `${key} ${String(operation.operationId)}`).sort();
  expect(served).toEqual(documented);
});

test('the document holds all 12 events under webhooks', () => {
  expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...EVENT_TYPES].sort());
});

test('the document declares the API token and OAuth client credentials schemes', () => {
  const schemes = document.components?.securitySchemes as Record<string, any>;
  expect(schemes.ApiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(schemes.OAuth2.flows.clientCredentials.tokenUrl).toBe('/oauth/token');
});

test('every operation but the token endpoint requires a credential', () => {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, any>)) {
      if (path === '/oauth/token') expect(operation.security).toEqual([]);
      else expect(operation.security).toEqual(expect.arrayContaining([{ ApiToken: [] }]));
    }
  }
});

test('request bodies are closed and response resources are open', () => {
  const schemas = document.components?.schemas as Record<string, any>;
  expect(schemas.EntityValidationCreateFields.additionalProperties).toBe(false);
  // Except the token request: RFC 6749 §3.2 has the server ignore parameters it does not know.
  expect(schemas.OAuthTokenRequest.additionalProperties).not.toBe(false);
  expect(schemas.EntityValidation.additionalProperties).toBe(true);
  expect(schemas.DataSourceRunBatch.additionalProperties).toBe(true);
  expect(schemas.DataSourceRunBatchReadyEvent.additionalProperties).toBe(false);
});

test.each(EVENT_TYPES)('%s: the example validates with zod and, independently, with Ajv against the document', (type) => {
  const body = EVENT_EXAMPLES[type]();
  expect(parseWith(EVENT_SCHEMAS[type], body).ok).toBe(true);
  const validate = ajv.webhook(type);
  expect(validate(body)).toBe(true);
});

test.each(EVENT_TYPES)('%s: zod and Ajv both refuse an envelope with an extra key', (type) => {
  const body = { ...EVENT_EXAMPLES[type](), id: 'x' };
  expect(parseWith(EVENT_SCHEMAS[type], body).ok).toBe(false);
  expect(ajv.webhook(type)(body)).toBe(false);
});

test.each(EVENT_TYPES)('%s: zod and Ajv both refuse a resource that lost a required field', (type) => {
  const body: Record<string, any> = EVENT_EXAMPLES[type]();
  const resource = Object.values(body).find((value) => typeof value === 'object');
  delete resource[Object.keys(resource)[0]!];
  expect(parseWith(EVENT_SCHEMAS[type], body).ok).toBe(false);
  expect(ajv.webhook(type)(body)).toBe(false);
});

test.each([
  ['/oauth/token', 'post', 200, exampleOAuthTokenResponse()],
  ['/api/v2/webhook_endpoints', 'get', 200, { webhook_endpoints: [exampleWebhookEndpoint()] }],
  ['/api/v2/entity_validations', 'post', 201, exampleEntityValidation()],
  ['/api/v2/entity_validations/{id}', 'get', 200, exampleEntityValidation()],
  ['/api/v2/data_source_runs/{id}/records', 'get', 200, exampleRecords()],
  ['/api/v2/entity_validations/{id}', 'get', 404, exampleApiError()],
])('%s %s %d: the example body validates with Ajv', (path, method, status, body) => {
  const validate = ajv.response(path, method, status);
  expect(validate.errors ?? validate(body)).toBe(true);
});

test('Ajv applies the timestamp format and id patterns of the schemas', () => {
  const validate = ajv.response('/api/v2/entity_validations/{id}', 'get', 200);
  expect(validate({ ...exampleEntityValidation(), id: 'dsr_01JD' })).toBe(false);
  expect(validate({ ...exampleEntityValidation(), created_at: 'not a time' })).toBe(false);
  expect(validate({ ...exampleEntityValidation(), extra_field_from_the_future: 1 })).toBe(true);
});
