import { outbound } from './outbound';
import { z } from './zod';

/**
 * Body of `POST /oauth/token`, form-encoded (spec §4). Only the client
 * credentials grant exists. `scope` is a space-separated list; when it is
 * absent the client's configured scopes are granted (docs/fidelity.md).
 */
export const OAuthTokenRequest = z
  .strictObject({
    grant_type: z.literal('client_credentials', { message: 'must be client_credentials, the only grant type the service supports' }),
    client_id: z.string().min(1, { message: 'must not be empty' }),
    client_secret: z.string().min(1, { message: 'must not be empty' }),
    scope: z.string().optional().openapi({ description: 'Space-separated permission scopes.', example: 'validations:read validations:write' }),
  })
  .openapi('OAuthTokenRequest');

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
