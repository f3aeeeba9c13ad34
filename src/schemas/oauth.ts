import { API_ERROR_STATUS, type ApiErrorCode } from './api-error';
import { outbound } from './outbound';
import { z } from './zod';

/**
 * Body of `POST /oauth/token`, form-encoded (spec §4). Only the client
 * credentials grant exists. `scope` is a space-separated list; when it is
 * absent the client's configured scopes are granted (docs/fidelity.md row 19).
 * The client authenticates with `client_id` and `client_secret` here or with
 * HTTP Basic (RFC 6749 §2.3.1), not both; other parameters are ignored, as
 * RFC 6749 §3.2 requires (docs/fidelity.md row 69).
 */
export const OAuthTokenRequest = z
  .object({
    grant_type: z.literal('client_credentials', { message: 'must be client_credentials, the only grant type the service supports' }),
    client_id: z
      .string()
      .min(1, { message: 'must not be empty' })
      .optional()
      .openapi({ description: 'With `client_secret`, unless the client authenticates with HTTP Basic.' }),
    client_secret: z.string().min(1, { message: 'must not be empty' }).optional(),
    scope: z.string().optional().openapi({ description: 'Space-separated permission scopes.', example: 'validations:read validations:write' }),
  })
  .openapi('OAuthTokenRequest');

/** The error codes of the token endpoint (RFC 6749 §5.2). */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
] as const;

/** An error of `POST /oauth/token`, in RFC 6749 §5.2's form (docs/fidelity.md row 69). */
export const OAuthError = outbound(
  z.strictObject({
    error: z.enum(OAUTH_ERROR_CODES),
    error_description: z.string().openapi({ example: 'Unknown client_id or wrong client_secret.' }),
  }),
  'OAuthError',
);

export type OAuthError = z.infer<typeof OAuthError>;

/** An API error code as the token endpoint says it (RFC 6749 §5.2), with its status. */
const OAUTH_FORM: Partial<Record<ApiErrorCode, readonly [OAuthErrorCode, number]>> = {
  invalid_client: ['invalid_client', 401],
  unsupported_grant_type: ['unsupported_grant_type', 400],
  invalid_scope: ['invalid_scope', 400],
  validation_failed: ['invalid_request', 400],
  unsupported_media_type: ['invalid_request', 400],
  malformed_json: ['invalid_request', 400],
  internal_error: ['server_error', 500],
  service_unavailable: ['temporarily_unavailable', 503],
  rate_limited: ['temporarily_unavailable', 429],
};

/**
 * The token endpoint's error and status for an error of the API's catalogue: the RFC's own codes keep
 * their name; input problems are `invalid_request` 400; failures `server_error` or
 * `temporarily_unavailable`; anything else `invalid_request` at its own status (413, 508).
 */
export function oauthErrorOf(code: ApiErrorCode): readonly [OAuthErrorCode, number] {
  return OAUTH_FORM[code] ?? ['invalid_request', API_ERROR_STATUS[code]];
}
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** Response of `POST /oauth/token` (spec §4). */
export const OAuthTokenResponse = outbound(
  z.strictObject({
    access_token: z.string().min(1),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive().openapi({ description: 'Seconds; typically 7200.', example: 7200 }),
    scope: z.string().openapi({ example: 'validations:read validations:write webhook_endpoints:read' }),
    created_at: z.number().int().openapi({ description: 'Unix seconds.', example: 1768471200 }),
  }),
  'OAuthTokenResponse',
);

export type OAuthTokenRequest = z.infer<typeof OAuthTokenRequest>;
export type OAuthTokenResponse = z.infer<typeof OAuthTokenResponse>;
