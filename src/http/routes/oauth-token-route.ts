import { OAuthTokenRequest, OAuthTokenResponse, exampleOAuthTokenResponse, parseWith, type Scope } from '../../schemas';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody, parseFormBody } from '../read-body';
import type { Route } from '../router';

/**
 * `POST /oauth/token`: the client credentials grant (spec §4, §5.4). Without
 * `scope` the client gets every scope it is configured with; asking for one it
 * lacks is refused (docs/fidelity.md row 19).
 */
export const oauthTokenRoute: Route = {
  method: 'POST',
  pattern: '/oauth/token',
  operation: 'createOAuthToken',
  access: { kind: 'public' },
  document: {
    tags: ['Authentication'],
    summary: 'Get an OAuth access token',
    description:
      'OAuth 2.0 client credentials grant (spec §4, §5.4). The token is sent as `Authorization: Bearer <ACCESS_TOKEN>` and expires after `expires_in` seconds.',
    body: { schema: OAuthTokenRequest, contentType: 'application/x-www-form-urlencoded' },
    answer: { status: 200, description: 'An access token.', schema: OAuthTokenResponse, example: exampleOAuthTokenResponse() },
    errors: ['invalid_request', 'unsupported_grant_type', 'invalid_client', 'insufficient_scope'],
  },
  handle(context) {
    const fields = parseFormBody(context.request);
    if (fields.grant_type !== undefined && fields.grant_type !== 'client_credentials') throw problems.unsupportedGrant(fields.grant_type);
    const body = checkBody(context, (value) => parseWith(OAuthTokenRequest, value), fields);
    const { registry, tokens, clock } = context.services;
    const client = registry.authenticateClient(body.client_id, body.client_secret);
    if (!client) throw problems.invalidClient();
    // An empty scope is read as no scope at all: the client's configured scopes.
    const named = (body.scope ?? '').split(/\s+/).filter(Boolean) as Scope[];
    const asked = named.length === 0 ? client.scopes : named;
    const refused = asked.filter((scope) => !client.scopes.includes(scope));
    if (refused.length > 0) throw problems.scopeNotAllowed(refused);
    const now = clock.now();
    const issued = tokens.issue({ organizationId: client.organizationId, clientId: body.client_id, scopes: asked }, now);
    context.callerOrganizationId = client.organizationId;
    const response: OAuthTokenResponse = {
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      scope: asked.join(' '),
      created_at: Math.floor(now / 1000),
    };
    return jsonResponse(200, response, { 'cache-control': 'no-store' });
  },
};
