import { createHash, timingSafeEqual } from 'node:crypto';
import type { ObservedRequest } from '../faults/client-observer';
import { DELIVERY_ORIGIN_HEADER } from '../delivery/deliveries';
import { listIssues, type Issue, type JournalEntry } from '../schemas';
import { decodeLabel, LABEL_HEADER } from '../schemas/request-label';
import { ApiProblem, problems } from './api-problem';
import type { World } from '../world/world';
import type { ServerSettings } from './server-settings';
import { authenticate, type Principal } from './authenticate';
import { checksOrigin } from './browser-guard';
import type { CoreRequest, CoreResponse } from './core-types';
import { mediaType, parseJsonBody } from './read-body';
import type { RouteContext } from './route-context';
import { Router, type Route, type RouteMatch } from './router';
import { apiOperations } from './routes/api-operations';
import { OAUTH_TOKEN_PATH, oauthTokenRoute } from './routes/oauth-token-route';
import { controlOperations } from './routes/control-operations';
import { recipientPageRoutes } from './routes/recipient-page-route';
import { dashboardPageRoutes } from './routes/dashboard-page-routes';
import { fileRoutes } from './routes/file-routes';
import { apiDocumentRoutes } from './routes/openapi-routes';
import { OPEN_CONTROL_OPERATIONS } from './open-control-operations';
import { SESSIONS_PATH, type SessionDirectory } from './session-directory';
import { parseFormBody } from './read-body';
import { journalBody } from './journal-body';
import { tolerateAnswer } from './tolerant-answer';

/** The transport-free API: one request in, one response out. */
export interface ApiCore {
  handle(request: CoreRequest): Promise<CoreResponse>;
  /** The largest body it takes, in bytes: a transport reads one byte more at most, which the core answers 413. */
  readonly bodyLimit: number;
  /**
   * The largest body a request to `path` takes: {@link bodyLimit}, but a session's snapshot (`POST /_mock/sessions`)
   * may be larger, up to {@link SNAPSHOT_BODY_LIMIT} (docs/fidelity.md row 118). A transport reads one byte more at most.
   */
  bodyLimitFor(method: string, path: string): number;
}

/** The largest snapshot `POST /_mock/sessions` takes: a session at the default retention limits is a few dozen MiB. */
const SNAPSHOT_BODY_LIMIT = 128 * 1024 * 1024;

/**
 * Error codes that mean the client broke the contract, and where in the request: the journal records
 * them as violations (docs/fidelity.md row 82), with the problem's own issues when it has some.
 */
const CONTRACT_ERRORS: ReadonlyMap<string, string> = new Map([
  ['validation_failed', '$'],
  ['malformed_json', '$'],
  ['payload_too_large', '$'],
  ['unsupported_media_type', '$headers["content-type"]'],
  ['route_not_found', '$'],
  ['method_not_allowed', '$'],
  ['invalid_request', '$'],
  ['unsupported_grant_type', '$.grant_type'],
  ['invalid_scope', '$.scope'],
  ['invalid_client', '$'],
  ['https_required', '$'],
  ['unauthorized', '$headers["authorization"]'],
  ['invalid_token', '$headers["authorization"]'],
  ['token_expired', '$headers["authorization"]'],
  ['insufficient_scope', '$headers["authorization"]'],
]);

/** Credentials whose digests one core keeps: more than a test suite's clients and tokens, bounded for a fuzzer. */
const MAX_CREDENTIAL_IDS = 1_024;

/** Thrown inside the pipeline to end a request with a reset connection (the `api_reset` fault). */
const RESET = Symbol('reset connection');

/** Every route of bvs-mock: the spec's API, its extensions, files, the control API and the document. */
export function allRoutes(): Route[] {
  return [...apiOperations, ...fileRoutes, ...recipientPageRoutes, ...dashboardPageRoutes(), ...apiDocumentRoutes(), ...controlOperations()];
}

/**
 * The request pipeline, in one short factory: HTTPS check, Host check, size limit, route,
 * Origin check, credential and scope, handler; problems become the one error shape, and any
 * other exception one generic 500 logged with its request id (CONTRIBUTING.md rule 5).
 * Transports (node server, msw, express) only convert to and from it.
 */
export function createApiCore(server: ServerSettings, sessions: SessionDirectory): ApiCore {
  const router = new Router(allRoutes());
  /** Each world numbers its own requests, so a seeded session's journal is the same whatever other sessions do. */
  const counters = new WeakMap<World, number>();
  /** Per world, requests that may have changed its state (every route that is not `pure`): one session's writes leave another's cached reads alone. */
  const writes = new WeakMap<World, number>();
  /** The client observer's name for a credential (a digest, never the credential), computed once per credential. */
  const credentialIds = new Map<string, string>();
  const credentialId = (bearer: string): string => {
    let id = credentialIds.get(bearer);
    if (id === undefined) {
      id = createHash('sha256').update(bearer).digest('hex').slice(0, 16);
      // Bounded: a client minting a token per request (or a fuzzer) cannot grow it past this.
      if (credentialIds.size >= MAX_CREDENTIAL_IDS) credentialIds.clear();
      credentialIds.set(bearer, id);
    }
    return id;
  };

  const bodyLimitFor = (method: string, path: string) =>
    method === 'POST' && path === SESSIONS_PATH ? Math.max(server.bodyLimit, SNAPSHOT_BODY_LIMIT) : server.bodyLimit;
  return {
    bodyLimit: server.bodyLimit,
    bodyLimitFor,
    async handle(request) {
      const started = process.hrtime.bigint();
      const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1];
      // The request's world: the session its path names (`/_mock/sessions/{id}/…` stands for that session's
      // `/_mock/…`), else the one its credential belongs to, else the default session (docs/fidelity.md row 114).
      const place = locate(sessions, request, bearer);
      const world = place.world ?? sessions.defaultWorld;
      request = place.request;
      const counter = (counters.get(world) ?? 0) + 1;
      counters.set(world, counter);
      const requestId = `req_${counter.toString().padStart(6, '0')}`;
      let match: RouteMatch | undefined;
      let context: RouteContext | undefined;
      let response: CoreResponse;
      let problemIssues: Issue[] = [];
      let problemIssuesOmitted = 0;
      // Who is calling, as far as the credential says before any check: the client observer's view.
      const arrivedAt = world.wallClock.wallNow();
      const grant = bearer === undefined ? undefined : world.tokens.get(bearer);
      const caller = grant?.organizationId ?? (bearer === undefined ? null : (world.registry.byApiKey(bearer) ?? null));
      let injected: ObservedRequest['fault'] = null;
      let retryAfterS: number | null = null;
      try {
        if (request.headers[DELIVERY_ORIGIN_HEADER] === server.origin) throw problems.deliveryLoop();
        if (server.requireHttps && !request.secure) throw problems.httpsRequired();
        // Before anything is read: a name bvs-mock does not know (DNS rebinding) learns nothing (docs/fidelity.md row 104).
        server.browserGuard.checkHost(request);
        const bodyLimit = bodyLimitFor(request.method, request.path);
        if (request.body.length > bodyLimit) throw problems.payloadTooLarge(bodyLimit);
        if (place.world === undefined) throw problems.sessionNotFound(place.sessionId);
        // HEAD is GET without a body (RFC 9110 §9.3.2).
        match = router.match(request.method === 'HEAD' ? 'GET' : request.method, request.path);
        // A page of another origin cannot drive the control API, token or not (docs/fidelity.md row 103).
        if (checksOrigin(match.route)) server.browserGuard.checkOrigin(request);
        if (match.route.access.kind !== 'control' && match.route.forPeople !== true) {
          // Faults injected through POST /_mock/faults hit the API, never the control API that clears them.
          const fault = world.faults.forApi(request.method, request.path, { accessToken: grant !== undefined, organizationId: caller });
          if (fault.latencyMs > 0) await world.wallClock.delay(fault.latencyMs);
          if (fault.reset) injected = 'reset';
          else if (fault.revokeToken && bearer !== undefined) {
            world.tokens.revoke(bearer);
            injected = 'token_revoked';
            throw problems.revokedToken();
          } else if (fault.error !== null) {
            injected = fault.error as NonNullable<ObservedRequest['fault']>;
            retryAfterS = fault.retryAfterS;
            throw problems.injected(fault.error, fault.retryAfterS);
          }
        }
        if (injected === 'reset') throw RESET;
        const written = (writes.get(world) ?? 0) + (match.route.pure === true ? 0 : 1);
        writes.set(world, written);
        context = makeContext({ server, sessions, world, controlBase: place.controlBase }, request, match, requestId, world.engine.stateVersion + written);
        const route = match.route;
        // A heavy answer waits for its turn, once the caller is known to be let in (docs/fidelity.md row 102).
        const endTurn = route.paced === true ? await server.pacer.turn() : undefined;
        const routeContext = context;
        try {
          // One request, one instant of simulated time (SimulatedClock.hold; handlers read the clock before they await).
          response = await world.clock.hold(() => route.handle(routeContext));
        } finally {
          endTurn?.();
        }
      } catch (error) {
        if (error === RESET) {
          response = { status: 0, headers: {}, body: '', resetConnection: true };
        } else if (error instanceof ApiProblem) {
          // One place tells "evicted" from "never existed", for every read and action by id.
          const id = match?.params.id;
          const evicted = error.code === 'not_found' && id !== undefined && context !== undefined && world.engine.wasEvicted(context.organizationId, id);
          const problem = evicted ? problems.evicted(id) : error;
          // The token endpoint writes its errors as RFC 6749 §5.2 has them, also those of the pipeline before its handler.
          const oauth = (match?.route ?? (request.path === OAUTH_TOKEN_PATH ? oauthTokenRoute : undefined))?.errorForm === 'oauth2';
          response = oauth ? problem.toOAuthResponse() : problem.toResponse(requestId);
          // An injected fault is bvs-mock's doing, not a client mistake.
          const where = injected === null ? CONTRACT_ERRORS.get(error.code) : undefined;
          if (where !== undefined) {
            problemIssues = error.issues.length > 0 ? error.issues : [{ path: where, code: error.code, message: error.message }];
            problemIssuesOmitted = error.issuesOmitted;
          }
        } else {
          server.logError(requestId, error);
          response = match?.route.errorForm === 'oauth2' ? problems.internal().toOAuthResponse() : problems.internal().toResponse(requestId);
        }
      }
      response = tolerateAnswer(world, match?.route, request, response);
      response.headers['x-request-id'] = requestId;
      if (request.method === 'HEAD') response = { ...response, body: '', stream: undefined };
      // Reads change nothing; anything else that was carried out may have (an endpoint added, a validation created, a
      // reset): open pages refetch. A refused call (401, 404, 422, ...) changed nothing, so it wakes no page (docs/fidelity.md row 93).
      if (request.method !== 'GET' && request.method !== 'HEAD' && response.status >= 200 && response.status < 300) world.changes.notify('request');
      const control = match?.route.access.kind === 'control';
      // Bounded like the answers: a request with 60,000 violations keeps 100 of them and the count (docs/fidelity.md row 96).
      const violations = listIssues([...(context?.violations ?? []), ...problemIssues], (context?.violationsOmitted ?? 0) + problemIssuesOmitted);
      const entry: JournalEntry = {
        id: requestId,
        at: world.clock.iso(),
        method: request.method,
        path: request.path,
        operation: match?.route.operation ?? null,
        organization_id: context?.callerOrganizationId ?? null,
        status: response.status,
        duration_ms: Number(process.hrtime.bigint() - started) / 1e6,
        violations: violations.issues,
        ...(violations.omitted > 0 ? { violations_omitted: violations.omitted } : {}),
        ...(control ? {} : journalBody(request)),
      };
      // Read only when sent: most requests carry no label.
      const labelValue = request.headers[LABEL_HEADER];
      const label = labelValue === undefined ? undefined : decodeLabel(labelValue);
      if (label !== undefined) entry.label = label;
      if (server.onRequest !== undefined) {
        try {
          server.onRequest(entry, control);
        } catch (error) {
          server.logError(requestId, error);
        }
      }
      // A request to a session that is gone belongs to no world's journal.
      if (!control && match?.route.forPeople !== true && place.world !== undefined) {
        world.journal.record(entry);
        const route = match?.route;
        world.reliedOn.observeAnswer({
          entry,
          route: route === undefined ? undefined : { pattern: route.pattern, extension: route.document?.extension === true },
          tokenRequest: route === oauthTokenRoute,
          basicAuthorization: /^basic /i.test(request.headers.authorization ?? ''),
          requestBody: request.body,
          responseBody: response.body,
        });
        world.observer.record({
          id: requestId,
          wallMs: arrivedAt,
          method: request.method,
          path: request.path,
          organizationId: context?.callerOrganizationId ?? caller,
          credential: bearer === undefined ? null : credentialId(bearer),
          status: response.status,
          fault: injected,
          retryAfterS,
          faultsOn: world.faults.active,
          tokenRequest: match?.route === oauthTokenRoute,
          tokenExpiresAtMs: grant?.expiresAt ?? null,
          tokenClockMs: world.tokens.now(),
        });
      }
      return response;
    },
  };
}

/**
 * `Authorization: Bearer <control token>`, compared in constant time: both
 * sides are hashed first, so `timingSafeEqual` gets equal lengths and the
 * token's length does not leak either.
 */
function checkControlToken(expected: string, authorization: string | undefined): void {
  const given = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  if (!timingSafeEqual(digest(given), digest(expected))) throw problems.controlTokenRequired();
}

/** Where a request goes: its world (undefined: the session its path names does not exist) and the request as that world sees it. */
interface Place {
  world: World | undefined;
  /** The request, its path without the session prefix. */
  request: CoreRequest;
  /** The session named in the path, for the refusal when there is none. */
  sessionId: string;
  /** `/_mock`, or the session prefix the path came with (RouteContext.controlBase). */
  controlBase: string;
}

const SESSION_PREFIX = `${SESSIONS_PATH}/`;

/**
 * Finds a request's world. A path `/_mock/sessions/{id}/rest` is the session's `/_mock/rest` (its control
 * operations, pre-signed files and recipient pages); `/_mock/sessions` and `/_mock/sessions/{id}` themselves are
 * the session routes, of the server. Otherwise the credential says: an API key or access token, or on the
 * token endpoint the OAuth client; a credential no session owns goes to the default session, which refuses it.
 */
function locate(sessions: SessionDirectory, request: CoreRequest, bearer: string | undefined): Place {
  const path = request.path;
  if (path.startsWith(SESSION_PREFIX)) {
    const slash = path.indexOf('/', SESSION_PREFIX.length);
    if (slash > 0) {
      let sessionId = path.slice(SESSION_PREFIX.length, slash);
      try {
        sessionId = decodeURIComponent(sessionId);
      } catch {
        // Left as it came: no session has such an id.
      }
      const controlBase = path.slice(0, slash);
      return { world: sessions.byId(sessionId), request: { ...request, path: `/_mock${path.slice(slash)}` }, sessionId, controlBase };
    }
  }
  const place = { request, sessionId: 'default', controlBase: '/_mock' };
  if (bearer !== undefined) return { ...place, world: sessions.byCredential(bearer) ?? sessions.defaultWorld };
  if (path === OAUTH_TOKEN_PATH) {
    const clientId = tokenRequestClientId(request);
    if (clientId !== undefined) return { ...place, world: sessions.byClientId(clientId) ?? sessions.defaultWorld };
  }
  return { ...place, world: sessions.defaultWorld };
}

/** The client id a token request authenticates with, by HTTP Basic or in the form; undefined when it cannot be read (the route says why). */
function tokenRequestClientId(request: CoreRequest): string | undefined {
  const basic = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(request.headers.authorization?.trim() ?? '');
  try {
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon > 0 ? decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')) : undefined;
    }
    const id = parseFormBody(request).client_id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** What a request's context is made from besides the request: the server, its sessions, and the world the request acts on. */
interface ContextParts {
  server: ServerSettings;
  sessions: SessionDirectory;
  world: World;
  controlBase: string;
}

function makeContext(parts: ContextParts, request: CoreRequest, match: RouteMatch, requestId: string, stateVersion: number): RouteContext {
  const { server, world } = parts;
  let parsed = false;
  let body: unknown;
  const json = () => {
    if (!parsed) {
      body = parseJsonBody(request);
      parsed = true;
    }
    return body;
  };
  const access = match.route.access;
  let principal: Principal | null = null;
  let organizationId = world.registry.defaultId;
  if (access.kind === 'api') {
    principal = authenticate({ authorization: request.headers.authorization, registry: world.registry, tokens: world.tokens });
    if (!principal.scopes.includes(access.scope)) throw problems.insufficientScope(access.scope);
    organizationId = principal.organizationId;
  } else if (access.kind === 'control') {
    // Before anything else is read: a caller without the token learns nothing, not even organization names.
    if (server.controlToken !== null && !OPEN_CONTROL_OPERATIONS.has(match.route.operation))
      checkControlToken(server.controlToken, request.headers.authorization);
    const fromBody =
      request.body.length > 0 && mediaType(request) === 'application/json' ? (json() as { organization_id?: unknown } | undefined)?.organization_id : undefined;
    const asked = request.query.get('organization_id') ?? (typeof fromBody === 'string' ? fromBody : undefined);
    if (asked !== undefined) {
      if (!world.registry.has(asked))
        throw problems.unknownOrganization(
          asked,
          world.registry.list().map((organization) => organization.id),
        );
      organizationId = asked;
    }
  }
  const strictBodies = world.strict || access.kind === 'control';
  const callerOrganizationId = principal?.organizationId ?? null;
  return {
    request,
    params: match.params,
    requestId,
    world,
    server,
    sessions: parts.sessions,
    controlBase: parts.controlBase,
    principal,
    organizationId,
    callerOrganizationId,
    strictBodies,
    violations: [],
    violationsOmitted: 0,
    stateVersion,
    json,
  };
}
