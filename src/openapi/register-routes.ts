import type { OpenAPIRegistry, RouteConfig, ZodContentObject } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import type { Route } from '../http/router';
import { API_ERROR_STATUS, type ApiErrorCode } from '../schemas';
import { errorResponses, oauthErrorResponses } from './error-responses';
import { requires } from './security';

/** Said of every operation whose path and shape the spec leaves to bvs-mock. */
const EXTENSION_NOTE = "The spec refers to this operation without giving its path or shape; this is bvs-mock's choice (docs/fidelity.md row 18).";

/** Errors any operation may answer: plain HTTP on the HTTPS port, a body over the limit, a delivery of bvs-mock to itself, a failure, and the faults a test injects (`POST /_mock/faults`). */
const EVERY_OPERATION: readonly ApiErrorCode[] = ['https_required', 'payload_too_large', 'delivery_loop', 'rate_limited', 'internal_error', 'service_unavailable'];
/** Errors of an operation that needs an API credential (spec §5). */
const WITH_CREDENTIAL: readonly ApiErrorCode[] = ['unauthorized', 'invalid_token', 'token_expired', 'insufficient_scope'];
/** Errors of reading a JSON body. */
const WITH_JSON_BODY: readonly ApiErrorCode[] = ['malformed_json', 'unsupported_media_type', 'validation_failed'];
/** Errors of reading a form body. */
const WITH_FORM_BODY: readonly ApiErrorCode[] = ['unsupported_media_type', 'validation_failed'];
/** Errors of an operation on a resource by id: never existed, or evicted by retention. */
const BY_ID: readonly ApiErrorCode[] = ['not_found', 'evicted'];

/**
 * Every error code a route may answer: those it declares, and those every operation of its kind answers
 * (by its access, its body, its path parameters), in the catalogue's order.
 */
export function errorsOf(route: Route): ApiErrorCode[] {
  const document = route.document;
  const codes = new Set<ApiErrorCode>([...EVERY_OPERATION, ...(document?.errors ?? [])]);
  if (route.access.kind === 'api') for (const code of WITH_CREDENTIAL) codes.add(code);
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
      security: document.security ?? (route.access.kind === 'api' ? requires(route.access.scope) : []),
      request: {
        ...(document.params ? { params: document.params } : {}),
        ...(body ? { body: { required: true, content: content(body.schema, body.example, body.contentType ?? 'application/json') } } : {}),
      },
      responses: {
        [answer.status]: {
          description: answer.description,
          ...(answer.schema ? { content: content(answer.schema, answer.example, answer.contentType ?? 'application/json') } : {}),
        },
        ...(route.errorForm === 'oauth2' ? oauthErrorResponses(errorsOf(route)) : errorResponses(errorsOf(route))),
      },
      ...(document.extension ? { 'x-bvs-mock-extension': true } : {}),
    };
    registry.registerPath(config);
  }
}
