import { API_ERROR_STATUS, describeProblems, listIssues, type ApiError, type ApiErrorCode, type Issue, oauthErrorOf, type OAuthError } from '../schemas';
import { jsonResponse, type CoreResponse } from './core-types';
import type { ActionErrorCode, ActionResult } from '../engine';
import { didYouMean } from '../engine/scenarios/closest-names';

/**
 * An API error on its way out: a handler throws it and the pipeline answers it
 * in the one error shape (spec §7.6 is silent; docs/fidelity.md row 25).
 */
export class ApiProblem extends Error {
  readonly status: number;
  /** The issues answered: the first `MAX_LISTED_ISSUES` of those given (docs/fidelity.md row 96). */
  readonly issues: Issue[];
  /** Issues given and not answered; 0 when every one is. */
  readonly issuesOmitted: number;

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    issues: readonly Issue[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiProblem';
    this.status = API_ERROR_STATUS[code];
    const listed = listIssues(issues);
    this.issues = listed.issues;
    this.issuesOmitted = listed.omitted;
  }

  /** The response, with the request id that the journal also records. */
  toResponse(requestId: string): CoreResponse {
    const error: ApiError['error'] = { code: this.code, message: this.message, status: this.status, request_id: requestId, issues: this.issues };
    if (this.issuesOmitted > 0) error.issues_omitted = this.issuesOmitted;
    return jsonResponse(this.status, { error } satisfies ApiError, this.headers);
  }

  /**
   * The response of the token endpoint, in RFC 6749 §5.2's form: `{ error, error_description }`,
   * never cached, and a 401 says which client authentication to use (docs/fidelity.md row 69).
   */
  toOAuthResponse(): CoreResponse {
    const [error, status] = oauthErrorOf(this.code);
    const description =
      this.issues.length > 0 && !this.message.includes(this.issues[0]!.path)
        ? `${this.message} ${describeProblems(this.issues, 'form', this.issuesOmitted)}`
        : this.message;
    const body: OAuthError = { error, error_description: description };
    const headers: Record<string, string> = { ...OAUTH_NO_STORE, ...(status === 401 ? { 'www-authenticate': 'Basic realm="bvs-mock"' } : {}) };
    if (this.headers.allow) headers.allow = this.headers.allow;
    return jsonResponse(status, body, headers);
  }
}

/** Headers of every token endpoint answer (RFC 6749 §5.1). */
export const OAUTH_NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

/**
 * An engine sentence as an API message: ending with a full stop, and capitalized when it starts with a
 * plain word (never an id, an email address or a quoted name, which keep their spelling).
 */
function sentence(text: string): string {
  const trimmed = text.trim();
  const capitalized = /^[a-z]+\b(?![@_.-])/.test(trimmed) ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.?!]$/.test(capitalized) ? capitalized : `${capitalized}.`;
}

/** The value of an engine action, or its refusal thrown as the API's answer ({@link problems.refused}). */
export function unwrap<T>(result: ActionResult<T>): T {
  if (result.ok) return result.value;
  throw problems.refused(result);
}

/**
 * Every API error message, by name: what happened, and what to do next
 * (CONTRIBUTING.md rule 9). Handlers throw `problems.x(...)`, never ad-hoc strings.
 */
export const problems = {
  httpsRequired: () =>
    new ApiProblem(
      'https_required',
      'All requests must use HTTPS (spec §5.1). Use https:// with this server, or start bvs-mock with --http to serve plain HTTP.',
    ),
  missingCredential: () =>
    new ApiProblem('unauthorized', 'No credential. Send `Authorization: Bearer <API_KEY>` or an OAuth access token from POST /oauth/token (spec §5).', [], {
      'www-authenticate': 'Bearer realm="bvs-mock"',
    }),
  malformedCredential: () =>
    new ApiProblem('invalid_token', 'The Authorization header must be `Bearer <token>` (one space, then the token; spec §5.3, §5.4).', [], {
      'www-authenticate': 'Bearer realm="bvs-mock", error="invalid_token"',
    }),
  unknownCredential: () =>
    new ApiProblem(
      'invalid_token',
      'The bearer token is not an API key or access token of this server (spec §5.3, §5.4). Check the key printed when bvs-mock started, or get a new access token.',
      [],
      {
        'www-authenticate': 'Bearer realm="bvs-mock", error="invalid_token"',
      },
    ),
  expiredToken: (expiredAt: string) =>
    new ApiProblem('token_expired', `The access token expired at ${expiredAt} (simulated clock). Request a new one from POST /oauth/token (spec §5.4).`, [], {
      'www-authenticate': 'Bearer realm="bvs-mock", error="invalid_token", error_description="expired"',
    }),
  insufficientScope: (scope: string) =>
    new ApiProblem('insufficient_scope', `This operation needs the scope ${scope}; request a token with it (scope=${scope}; spec §5.4).`, [], {
      'www-authenticate': `Bearer realm="bvs-mock", error="insufficient_scope", scope="${scope}"`,
    }),
  invalidClient: () =>
    new ApiProblem(
      'invalid_client',
      'Unknown client_id or wrong client_secret. Use the OAuth client printed when bvs-mock started, or one from the configuration file.',
    ),
  noClientAuthentication: (formOnly = false) =>
    new ApiProblem(
      'invalid_client',
      formOnly
        ? 'No client authentication. Send client_id and client_secret in the form (spec §4); this bvs-mock plays the reading token-client-auth=form-only, so `Authorization: Basic` is not read (docs/fidelity.md row 69).'
        : 'No client authentication. Send client_id and client_secret in the form, or `Authorization: Basic base64(client_id:client_secret)` (RFC 6749 §2.3.1).',
    ),
  malformedBasic: () =>
    new ApiProblem(
      'invalid_client',
      'The Authorization header of the token request must be `Basic base64(client_id:client_secret)`, each part form-encoded (RFC 6749 §2.3.1).',
    ),
  twoClientAuthentications: () =>
    new ApiProblem(
      'invalid_request',
      'The client authenticated twice: with HTTP Basic and with client_id or client_secret in the form. Use one method (RFC 6749 §2.3).',
    ),
  unsupportedGrant: (grant: string) =>
    new ApiProblem('unsupported_grant_type', `grant_type "${grant}" is not supported; use grant_type=client_credentials (spec §4).`, [
      { path: '$.grant_type', code: 'invalid_value', message: 'must be client_credentials' },
    ]),
  scopeNotAllowed: (scopes: string[], allowed: readonly string[]) =>
    new ApiProblem(
      'invalid_scope',
      `This client may not have the scope${scopes.length === 1 ? '' : 's'} ${scopes.join(', ')}; it may ask for ${allowed.join(' ')} (or leave scope out to get them all).`,
    ),
  notFound: (what: string, id: string) => new ApiProblem('not_found', `No ${what} with id ${id} in your organization.`),
  unknownOrganization: (id: string, known: string[]) =>
    new ApiProblem('not_found', `No organization ${id} in the configuration; the organizations are ${known.join(', ')}.`),
  /** No folder is named: the answer is public even under `--control-token`, and the server's file layout is nobody's business (issue: absolute paths leaked). */
  dashboardMissing: (what: string) =>
    new ApiProblem(
      'route_not_found',
      `The dashboard's ${what} is not in this installation's dashboard-dist/ folder. A package or image of bvs-mock ships it; from a clone, run \`npm run build\` to make it.`,
    ),
  routeNotFound: (method: string, path: string) =>
    new ApiProblem('route_not_found', `No operation at ${method} ${path}. The API lives under /api/v2 (spec §9); GET /openapi.json lists every operation.`),
  methodNotAllowed: (method: string, path: string, allowed: string[]) =>
    new ApiProblem('method_not_allowed', `${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`, [], { allow: allowed.join(', ') }),
  unsupportedMediaType: (got: string | undefined, expected: string) =>
    new ApiProblem('unsupported_media_type', `Content-Type ${got === undefined ? 'is missing' : `"${got}" is not accepted`}; send ${expected}.`),
  malformedJson: (detail: string) => new ApiProblem('malformed_json', `The body is not valid JSON: ${detail}.`),
  payloadTooLarge: (limit: number) =>
    new ApiProblem('payload_too_large', `The body is larger than ${limit} bytes, the limit of bvs-mock (docs/fidelity.md row 26).`),
  scenarioTooLarge: (size: number, limit: string, whenTooLarge: string) =>
    new ApiProblem('payload_too_large', `The scenario is ${size} bytes, over the limit of ${limit} for a scenario (docs/fidelity.md row 97); ${whenTooLarge}.`),
  validationFailed: (issues: Issue[], where = 'request body') => new ApiProblem('validation_failed', describeProblems(issues, where), issues),
  invalidRequest: (message: string, issues: Issue[] = []) => new ApiProblem('invalid_request', message, issues),
  conflict: (message: string) => new ApiProblem('conflict', message),
  scenarioConflict: (issues: Issue[]) =>
    new ApiProblem('conflict', sentence(`the scenario cannot be added: ${issues.map((issue) => issue.message).join('; ')}`), issues),
  /** An action the engine refused (an id it does not know, or a state that does not allow it), in the engine's words. */
  refused: (refusal: { code: ActionErrorCode; message: string; issues?: Issue[] }) =>
    new ApiProblem(refusal.code === 'not_found' ? 'not_found' : 'conflict', sentence(refusal.message), refusal.issues ?? []),
  unknownScenarioName: (name: string, names: Iterable<string>) =>
    new ApiProblem('not_found', `No scenario named "${name}".${didYouMean(name, names)} GET /_mock/scenarios lists them.`),
  unknownScenario: (message: string) =>
    new ApiProblem('invalid_request', sentence(message), [{ path: '$headers["x-mock-scenario"]', code: 'scenario_not_found', message }]),
  /** `refetch`: the reads that sign the file anew, `/api/v2/entity_validations/evl_…` (docs/fidelity.md rows 18, 77). */
  urlExpired: (expiredAt: string, refetch: readonly string[]) =>
    new ApiProblem(
      'url_expired',
      `This pre-signed URL expired at ${expiredAt} (24 hours after it was issued, spec §8). ${
        refetch.length === 0
          ? 'Its file no longer exists.'
          : `${refetch.map((path) => `GET ${path}`).join(' or ')} answers with a fresh URL of this file, valid 24 hours from that read (an event's payload keeps the URL as issued).`
      }`,
    ),
  badSignature: () => new ApiProblem('not_found', 'This pre-signed URL is not valid (wrong or missing signature). Use the URL exactly as the API gave it.'),
  internal: () => new ApiProblem('internal_error', 'bvs-mock failed to answer this request. The error is logged with this request id; please report it.'),
  evicted: (id: string) =>
    new ApiProblem(
      'evicted',
      `${id} existed but was evicted: bvs-mock keeps the most recent validations only (retention, docs/fidelity.md). Raise --max-validations (BVS_MOCK_MAX_VALIDATIONS), or reset between tests so fewer pile up.`,
    ),
  deliveryLoop: () =>
    new ApiProblem(
      'delivery_loop',
      'This request is a webhook delivery of this bvs-mock to itself: a webhook endpoint or webhook_url points at bvs-mock. Point it at your own receiver (bvs-mock never delivers to itself, to avoid a loop).',
    ),
  /** A receiver check refused before a probe is sent (src/probes/receiver-url.ts; docs/fidelity.md row 106). */
  receiverUrlRefused: (endpointId: string, refusal: { code: string; message: string }, path = '$.endpoint_id') =>
    new ApiProblem('validation_failed', `Endpoint ${endpointId} cannot be checked: ${refusal.message}.`, [
      { path, code: refusal.code, message: refusal.message },
    ]),
  injected: (code: ApiErrorCode, retryAfterS: number | null = null) =>
    new ApiProblem(
      code,
      retryAfterS === null
        ? `Fault injected through POST /_mock/faults: ${code}.`
        : `Fault injected through POST /_mock/faults: ${code}. Wait at least the Retry-After (${retryAfterS} s) before the next request.`,
      [],
      retryAfterS === null ? {} : { 'retry-after': String(retryAfterS) },
    ),
  noCertificate: () =>
    new ApiProblem(
      'not_found',
      'This bvs-mock serves plain HTTP (--http) or runs in-process, so it presents no certificate. Use http:// with it, or start it without --http.',
    ),
  revokedToken: () =>
    new ApiProblem(
      'invalid_token',
      'The access token was revoked before its expiry (a fault injected through POST /_mock/faults). Request a new one from POST /oauth/token (spec §5.4).',
      [],
      { 'www-authenticate': 'Bearer realm="bvs-mock", error="invalid_token", error_description="revoked"' },
    ),
  controlTokenRequired: () =>
    new ApiProblem(
      'unauthorized',
      'The control API (/_mock) of this bvs-mock is locked, and the control token was missing or wrong. Send `Authorization: Bearer <token>` with the token bvs-mock was started with (--control-token or BVS_MOCK_CONTROL_TOKEN).',
      [],
      { 'www-authenticate': 'Bearer realm="bvs-mock control API"' },
    ),
  hostNotAllowed: (host: string, hostname: string | null) =>
    new ApiProblem(
      'host_not_allowed',
      hostname === null
        ? `The Host header ${JSON.stringify(host.slice(0, 200))} names no host. Send the host and port you reached bvs-mock by, like 127.0.0.1:4010.`
        : `bvs-mock does not answer for the host ${JSON.stringify(hostname)}: a name it was not told of may be a web page rebinding its own name to this address (DNS rebinding, docs/fidelity.md row 104). Reach it by IP address, localhost or a one-label service name (bvs), or start it with --allowed-hosts ${hostname} (BVS_MOCK_ALLOWED_HOSTS; allowedHosts when embedding).`,
    ),
  foreignOrigin: (origin: string, own: string) =>
    new ApiProblem(
      'forbidden_origin',
      `The control API does not take requests from a web page of another origin (Origin: ${origin.slice(0, 200)}; this server is ${own}): any page open in a browser could otherwise reset or reprogram bvs-mock (docs/fidelity.md row 103). Call it from tests and scripts (they send no Origin) or from the dashboard at ${own}/_mock/; when the dashboard is served under another address, give that address as --public-url.`,
    ),
  foreignSite: (site: string, own: string) =>
    new ApiProblem(
      'forbidden_origin',
      `The control API does not take requests a web page of another site made (Sec-Fetch-Site: ${site}): any page open in a browser could otherwise reset or reprogram bvs-mock (docs/fidelity.md row 103). Call it from tests and scripts or from the dashboard at ${own}/_mock/.`,
    ),
  clockPastLimit: ({ seconds, now, limit, maxSeconds }: { seconds: number; now: string; limit: string; maxSeconds: number }) =>
    new ApiProblem(
      'validation_failed',
      `Advancing ${seconds} s from ${now} would move simulated time past ${limit}, the last instant bvs-mock simulates (100 years after the clock's start, docs/fidelity.md). Advance at most ${maxSeconds} s, or POST /_mock/reset to go back to the start.`,
      [{ path: '$.seconds', code: 'too_big', message: `must be at most ${maxSeconds} at ${now}: simulated time ends at ${limit}` }],
    ),
  streamReadersFull: (open: number, max: number, retryAfterS: number) =>
    new ApiProblem(
      'service_unavailable',
      `${open} change-stream ${open === 1 ? 'reader' : 'readers'} (GET /_mock/stream: dashboard tabs, control.onChange listeners) ${open === 1 ? 'is' : 'are'} open, the most this bvs-mock serves at once (${max}, --max-stream-readers or BVS_MOCK_MAX_STREAM_READERS). Close dashboard tabs or stop listeners you no longer use (call the function control.onChange resolved with), try again after the Retry-After (${retryAfterS} s), or start bvs-mock with a higher --max-stream-readers.`,
      [],
      // The connection goes with the refusal: a crowd of refused readers must not hold the connections the API needs.
      { 'retry-after': String(retryAfterS), connection: 'close' },
    ),
  sessionNotFound: (id: string) =>
    new ApiProblem(
      'not_found',
      `No session ${JSON.stringify(id.slice(0, 100))}: it was ended (DELETE /_mock/sessions/{id}), expired after --session-ttl without a request, or never existed. GET /_mock/sessions lists the sessions; POST /_mock/sessions makes a new one.`,
    ),
  sessionLimitReached: (max: number) =>
    new ApiProblem(
      'session_limit_reached',
      `${max} sessions are open, the most this bvs-mock holds at once (--max-sessions or BVS_MOCK_MAX_SESSIONS). End the sessions you no longer use (DELETE /_mock/sessions/{id}, or stop() in bvs-mock/testing), let idle ones expire (--session-ttl), or start bvs-mock with a higher --max-sessions.`,
    ),
  defaultSessionPermanent: () =>
    new ApiProblem(
      'conflict',
      "The default session cannot be ended: it is what /_mock/... and the configuration's credentials reach. POST /_mock/reset returns it to its start.",
    ),
  credentialsInUse: (issues: Issue[]) =>
    new ApiProblem(
      'conflict',
      sentence(
        `the session cannot be made: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}; a credential names its session, so give another or leave it out to have one generated`,
      ),
      issues,
    ),
  redactedSecret: (path: string) =>
    new ApiProblem(
      'validation_failed',
      `${path} is "<set>", the redacted form bvs-mock answers with, not a secret. Send the new secret, or leave the setting out to keep the current one.`,
      [{ path, code: 'redacted_value', message: '"<set>" only says that a secret is stored; send the secret itself' }],
    ),
} as const;
