import { SCOPES, type Scope } from '../schemas';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';

/** Name of the API token scheme in the document. */
const API_TOKEN_SCHEME = 'ApiToken';
/** Name of the OAuth 2.0 client credentials scheme in the document. */
const OAUTH_SCHEME = 'OAuth2';

/** Name of the control token scheme in the control API's document. */
const CONTROL_TOKEN_SCHEME = 'ControlToken';

/** Security of a control API operation: none, unless bvs-mock was started with `--control-token`. */
export const CONTROL_SECURITY: Array<Record<string, string[]>> = [{}, { [CONTROL_TOKEN_SCHEME]: [] }];

/** Name of the scheme describing the Authorization header bvs-mock sends on deliveries. */
const WEBHOOK_SCHEME = 'WebhookBearer';

/**
 * Security of a delivery (spec §5.5, §5.6): either no Authorization header
 * (endpoints with authentication "none") or `Authorization: Bearer <value>`.
 */
export const WEBHOOK_SECURITY: Array<Record<string, string[]>> = [{}, { [WEBHOOK_SCHEME]: [] }];

/**
 * Registers the two authentication methods of spec §5: a bearer API token, and
 * OAuth 2.0 client credentials whose token endpoint is `/oauth/token`.
 */
export function registerSecuritySchemes(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', API_TOKEN_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description: 'API token: `Authorization: Bearer <API_KEY>` on each request (spec §5.3). Grants every scope.',
  });
  registry.registerComponent('securitySchemes', OAUTH_SCHEME, {
    type: 'oauth2',
    description: 'OAuth 2.0 client credentials (spec §5.4). Tokens live `expires_in` seconds (7200).',
    flows: {
      clientCredentials: {
        tokenUrl: '/oauth/token',
        scopes: { ...SCOPES },
      },
    },
  });
  registry.registerComponent('securitySchemes', WEBHOOK_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description:
      'Sent by the service on webhook deliveries (spec §5.5, §5.6): `Bearer <WEBHOOK_SECRET>` for secret-key endpoints, `Bearer <token>` from the client\'s OAuth provider for OAuth endpoints, the organization-wide token in the legacy model, and no header for endpoints without authentication. The receiver compares it with the value it holds.',
  });
}

/** The security requirement of an operation that needs `scope`: an API token, or an OAuth token with the scope. */
export function requires(scope: Scope): Array<Record<string, string[]>> {
  return [{ [API_TOKEN_SCHEME]: [] }, { [OAUTH_SCHEME]: [scope] }];
}

/** Registers the control token of the control API's document (`--control-token`). */
export function registerControlSecurityScheme(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', CONTROL_TOKEN_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description:
      'The control token bvs-mock was started with (`--control-token`, `BVS_MOCK_CONTROL_TOKEN`): `Authorization: Bearer <token>`. Without one, the control API is open.',
  });
}
