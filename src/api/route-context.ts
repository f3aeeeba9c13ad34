import type { Issue } from '../schemas';
import type { World } from '../world/world';
import type { ServerSettings } from './server-settings';
import type { Principal } from './authenticate';
import type { SessionDirectory } from './session-directory';
import type { CoreRequest } from './core-types';

/** What a route handler gets: the request, its parameters, the caller, the world it acts on and the server's settings. */
export interface RouteContext {
  request: CoreRequest;
  params: Record<string, string>;
  requestId: string;
  /** The simulated world the request acts on: its organizations, engine, clock, deliveries, faults, journal. */
  world: World;
  /** The server's settings: limits, the control token, the Host and Origin checks, the documents. */
  server: ServerSettings;
  /** The server's sessions (`/_mock/sessions`): the session routes make, list and end them. */
  sessions: SessionDirectory;
  /**
   * Where the request's `/_mock` paths are from the client's side: `/_mock`, or `/_mock/sessions/{id}` when the
   * request named its session in the path. A page or a redirect that links to another `/_mock` path goes through
   * {@link outwardPath}, so it stays in its session.
   */
  controlBase: string;
  /** The API caller; null on public and control routes. */
  principal: Principal | null;
  /**
   * The organization acted on: the caller's for API routes; for control routes
   * the `organization_id` query parameter or body field, else the default organization.
   */
  organizationId: string;
  /** The organization the request is recorded under in the journal: the caller's, once known (null for control and public calls). */
  callerOrganizationId: string | null;
  /** Refuse unknown fields (422) instead of recording them: `--strict`, and always on the control API. */
  strictBodies: boolean;
  /** Contract violations found in the request and tolerated (recorded in the journal), at most `MAX_LISTED_ISSUES`. */
  violations: Issue[];
  /** Tolerated violations found and not kept in {@link violations}, counted (docs/fidelity.md row 96). */
  violationsOmitted: number;
  /**
   * Changes whenever state may have changed since: a request to a route that is not `pure`, an
   * action on the engine, or a timer of the clock. Two reads with the same version see the same state (read-route caches by it).
   */
  stateVersion: number;
  /** The JSON body, parsed once (checks Content-Type; empty body gives undefined). */
  json(): unknown;
}

/** A `/_mock/…` path as the client reaches it from this request: under its session's prefix when it came by one. */
export function outwardPath(context: Pick<RouteContext, 'controlBase'>, path: string): string {
  return path.startsWith('/_mock/') ? `${context.controlBase}${path.slice('/_mock'.length)}` : path;
}
