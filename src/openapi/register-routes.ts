import type { OpenAPIRegistry, RouteConfig, ZodContentObject } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import type { Route } from '../api/router';
import { API_ERROR_STATUS, type ApiErrorCode } from '../schemas';
import { errorResponses, oauthErrorResponses } from './error-responses';
import { OPEN_CONTROL_OPERATIONS } from '../api/open-control-operations';
import { CONTROL_SECURITY, requires } from './security';

/** Who may call it, as the document says: an API credential with its scope, the control token, or anyone. */
function securityOf(route: Route): Array<Record<string, string[]>> {
  if (route.access.kind === 'api') return requires(route.access.scope);
  if (route.access.kind === 'control' && !OPEN_CONTROL_OPERATIONS.has(route.operation)) return CONTROL_SECURITY;
  return [];
}

/** Said of every operation whose path and shape the spec leaves to bvs-mock. */
const EXTENSION_NOTE = "The spec refers to this operation without giving its path or shape; this is bvs-mock's choice (docs/fidelity.md row 18).";

/**
 * Errors any operation may answer: a Host name bvs-mock does not answer for (docs/fidelity.md row 104), plain HTTP
 * on the HTTPS port, a body over the limit, a delivery of bvs-mock to itself, a failure, and the faults a test
 * injects (`POST /_mock/faults`).
 */
const EVERY_OPERATION: readonly ApiErrorCode[] = [
  'host_not_allowed',
  'https_required',
  'payload_too_large',
  'delivery_loop',
  'rate_limited',
  'internal_error',
  'service_unavailable',
];
/** Errors of an operation that needs an API credential (spec §5). */
const WITH_CREDENTIAL: readonly ApiErrorCode[] = ['unauthorized', 'invalid_token', 'token_expired', 'insufficient_scope'];
/** Errors of reading a JSON body. */
const WITH_JSON_BODY: readonly ApiErrorCode[] = ['malformed_json', 'unsupported_media_type', 'validation_failed'];
/** Errors of reading a form body. */
const WITH_FORM_BODY: readonly ApiErrorCode[] = ['unsupported_media_type', 'validation_failed'];
/** Errors of an operation on a resource by id: never existed, or evicted by retention. */
const BY_ID: readonly ApiErrorCode[] = ['not_found', 'evicted'];
/**
 * Errors of every control API operation: a Host name bvs-mock does not answer for, a web page of another
 * origin (docs/fidelity.md rows 103, 104), plain HTTP on the HTTPS port, a body over the limit, a delivery of
 * bvs-mock to itself, a JSON body that does not parse (`organization_id` is read from any body), an unknown
 * `organization_id`, a failure. Injected faults never hit the control API.
 */
const EVERY_CONTROL_OPERATION: readonly ApiErrorCode[] = [
  'host_not_allowed',
  'forbidden_origin',
  'https_required',
  'malformed_json',
  'not_found',
  'payload_too_large',
  'delivery_loop',
  'internal_error',
];

/**
 * Every error code a route may answer: those it declares, and those every operation of its kind answers
 * (by its access, its body, its path parameters), in the catalogue's order.
 */
export function errorsOf(route: Route): ApiErrorCode[] {
  const document = route.document;
  const control = route.access.kind === 'control';
  const codes = new Set<ApiErrorCode>([...(control ? EVERY_CONTROL_OPERATION : EVERY_OPERATION), ...(document?.errors ?? [])]);
  if (route.access.kind === 'api') for (const code of WITH_CREDENTIAL) codes.add(code);
  // The control token (--control-token) locks every control operation but the open ones.
  if (control && !OPEN_CONTROL_OPERATIONS.has(route.operation)) codes.add('unauthorized');
  if (document?.body) for (const code of document.body.contentType === 'application/x-www-form-urlencoded' ? WITH_FORM_BODY : WITH_JSON_BODY) codes.add(code);
  if (route.pattern.includes('/:id')) for (const code of BY_ID) codes.add(code);
  return (Object.keys(API_ERROR_STATUS) as ApiErrorCode[]).filter((code) => codes.has(code));
}

/** `/api/v2/entity_validations/:id` as the document writes it: `/api/v2/entity_validations/{id}`. */
export function documentPath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, '{$1}');
}

/**
 * Registers one path per documented route, from what the route declares beside its handler: the
 * document is built from the routes, so the two cannot drift.
 */
export function registerRoutes(registry: OpenAPIRegistry, routes: readonly Route[]): void {
  for (const route of routes) {
    const document = route.document;
    if (!document) continue;
    const content = (schema: ZodType, example: unknown, type: string): ZodContentObject => ({
      [type]: example === undefined ? { schema } : { schema, example },
    });
    const { answer, body } = document;
    const config: RouteConfig = {
      method: route.method.toLowerCase() as RouteConfig['method'],
      path: documentPath(route.pattern),
      operationId: route.operation,
      tags: [...document.tags],
      summary: document.summary,
      description: document.extension ? `${document.description} ${EXTENSION_NOTE}` : document.description,
      security: document.security ?? securityOf(route),
      request: {
        ...(document.params ? { params: document.params } : {}),
        ...(document.query ? { query: document.query } : {}),
        ...(body
          ? {
              body: {
                required: body.required ?? true,
                content: Object.assign(
                  content(body.schema, body.example, body.contentType ?? 'application/json'),
                  ...(body.otherContentTypes ?? []).map((type) => ({ [type]: { schema: body.schema } })),
                ),
              },
            }
          : {}),
      },
      responses: {
        [answer.status]: {
          description: answer.description,
          ...(answer.schema
            ? {
                content: Object.assign(
                  content(answer.schema, answer.example, answer.contentType ?? 'application/json'),
                  ...Object.entries(answer.otherContent ?? {}).map(([type, schema]) => ({ [type]: { schema } })),
                ),
              }
            : {}),
        },
        ...(route.errorForm === 'oauth2' ? oauthErrorResponses(errorsOf(route)) : errorResponses(errorsOf(route))),
      },
      ...(document.extension ? { 'x-bvs-mock-extension': true } : {}),
    };
    registry.registerPath(config);
  }
}
