import { OAuthTokenRequest, OAuthTokenResponse, exampleOAuthTokenResponse, parseWith, type Scope } from '../../schemas';
import { OAUTH_NO_STORE, problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import { checkBody, parseFormBody } from '../read-body';
import type { Route } from '../router';

/** Where the token endpoint is; its errors take RFC 6749's form, not the API's (docs/fidelity.md row 69). */
export const OAUTH_TOKEN_PATH = '/oauth/token';

/**
 * `POST /oauth/token`: the client credentials grant (spec §4, §5.4). The client authenticates with
 * `client_id` and `client_secret` in the form (`client_secret_post`) or with HTTP Basic
 * (`client_secret_basic`, RFC 6749 §2.3.1), not both. Without `scope` the client gets every scope it is
 * configured with; asking for one it lacks is `invalid_scope` (docs/fidelity.md rows 19 and 69).
 */
export const oauthTokenRoute: Route = {
  method: 'POST',
  pattern: OAUTH_TOKEN_PATH,
  operation: 'createOAuthToken',
  access: { kind: 'public' },
  errorForm: 'oauth2',
  document: {
    tags: ['Authentication'],
    summary: 'Get an OAuth access token',
    description:
      'OAuth 2.0 client credentials grant (spec §4, §5.4). The client authenticates with `client_id` and `client_secret` in the form or with HTTP Basic (RFC 6749 §2.3.1). The token is sent as `Authorization: Bearer <ACCESS_TOKEN>` and expires after `expires_in` seconds. Errors are in RFC 6749 §5.2\'s form, `{ "error", "error_description" }`.',
    body: { schema: OAuthTokenRequest, contentType: 'application/x-www-form-urlencoded' },
    answer: { status: 200, description: 'An access token.', schema: OAuthTokenResponse, example: exampleOAuthTokenResponse() },
    errors: ['invalid_request', 'unsupported_grant_type', 'invalid_client', 'invalid_scope'],
    // No security requirement: client authentication is either in the form or HTTP Basic, and an
    // optional scheme (`{}` beside Basic) is not understood by every tool (Prism refuses the form).
    security: [],
  },
  handle(context) {
    const fields = parseFormBody(context.request);
    // Under the reading token-client-auth=form-only (docs/fidelity.md row 69) HTTP Basic is not client authentication.
    const formOnly = context.world.readings['token-client-auth'] === 'form-only';
    const basic = formOnly ? undefined : readBasicCredentials(context.request.headers.authorization);
    if (basic && (fields.client_id !== undefined || fields.client_secret !== undefined)) throw problems.twoClientAuthentications();
    if (fields.grant_type !== undefined && fields.grant_type !== 'client_credentials') throw problems.unsupportedGrant(fields.grant_type);
    const body = checkBody(context, (value) => parseWith(OAuthTokenRequest, value), fields);
    const credentials =
      basic ?? (body.client_id !== undefined && body.client_secret !== undefined ? { id: body.client_id, secret: body.client_secret } : undefined);
    if (!credentials) throw problems.noClientAuthentication(formOnly);
    const { registry, tokens, clock } = context.world;
    const client = registry.authenticateClient(credentials.id, credentials.secret);
    if (!client) throw problems.invalidClient();
    // An empty scope is read as no scope at all: the client's configured scopes.
    const named = (body.scope ?? '').split(/\s+/).filter(Boolean) as Scope[];
    const asked = named.length === 0 ? client.scopes : named;
    const refused = asked.filter((scope) => !client.scopes.includes(scope));
    if (refused.length > 0) throw problems.scopeNotAllowed(refused, client.scopes);
    const now = clock.now();
    const issued = tokens.issue({ organizationId: client.organizationId, clientId: credentials.id, scopes: asked });
    context.callerOrganizationId = client.organizationId;
    const response: OAuthTokenResponse = {
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: issued.expiresIn,
      scope: asked.join(' '),
      created_at: Math.floor(now / 1000),
    };
    return jsonResponse(200, response, { ...OAUTH_NO_STORE });
  },
};

/**
 * The client of `Authorization: Basic base64(client_id:client_secret)`, each part form-encoded
 * (RFC 6749 §2.3.1); undefined without that header or with another scheme (a client that sends its
 * API key on every request still authenticates in the form). A Basic value that does not decode is a
 * failed client authentication.
 */
function readBasicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  if (header === undefined || !/^Basic\b/i.test(header.trim())) return undefined;
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header.trim());
  if (!match) throw problems.malformedBasic();
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw problems.malformedBasic();
  try {
    const formDecode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw problems.malformedBasic();
  }
}
