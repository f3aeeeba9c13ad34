import { outbound } from './outbound';
import { z } from './zod';

/**
 * Machine-readable error codes of the API. The spec shows neither the error
 * body nor the codes (spec §7.6); this catalogue and the HTTP status of each
 * are bvs-mock's choice (docs/fidelity.md row 25).
 */
export const API_ERROR_STATUS = {
  https_required: 400,
  malformed_json: 400,
  invalid_request: 400,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  invalid_client: 401,
  insufficient_scope: 403,
  forbidden_origin: 403,
  invalid_scope: 400,
  not_found: 404,
  route_not_found: 404,
  evicted: 404,
  method_not_allowed: 405,
  conflict: 409,
  session_limit_reached: 409,
  url_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  host_not_allowed: 421,
  validation_failed: 422,
  unsupported_grant_type: 400,
  rate_limited: 429,
  internal_error: 500,
  delivery_loop: 508,
  service_unavailable: 503,
} as const;

/** One machine-readable error code. */
export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

export const ApiErrorCodeName = z.enum(Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]]).openapi('ApiErrorCode');

/** One problem of a request, located by a JSON path into the body (or the query, `$query.x`). */
export const ApiErrorIssue = outbound(
  z.strictObject({
    path: z.string().openapi({ example: '$.entity_validation.country' }),
    code: z.string().openapi({ example: 'invalid_format' }),
    message: z.string().openapi({ example: 'must be an ISO 3166-1 alpha-2 country code, like CL; AB is not one' }),
  }),
  'ApiErrorIssue',
);

/** The one error shape of every API error response. */
export const ApiError = outbound(
  z.strictObject({
    error: outbound(
      z.strictObject({
        code: ApiErrorCodeName,
        message: z
          .string()
          .openapi({ example: 'The request body has 1 problem: $.country: must be an ISO 3166-1 alpha-2 country code, like CL; AB is not one' }),
        status: z.number().int().min(400).max(599),
        request_id: z.string().openapi({ example: 'req_000042' }),
        issues: z.array(ApiErrorIssue).openapi({
          description:
            'The problems found in the input, at most 100 (each path and message at most 1,000 characters); empty when the error is not about input (docs/fidelity.md row 96).',
        }),
        issues_omitted: z
          .number()
          .int()
          .positive()
          .optional()
          .openapi({ description: 'How many more problems were found than `issues` lists; absent when it lists them all.' }),
      }),
    ),
  }),
  'Error',
);

export type ApiError = z.infer<typeof ApiError>;
