import type { Scope } from '../schemas';
import { problems } from './api-problem';
import type { RouteContext } from './route-context';
import type { CoreResponse } from './core-types';
import type { OperationDocument } from './operation-document';

/** Who may call a route: an API credential with a scope, anyone (token endpoint, pre-signed files), or the control API. */
export type RouteAccess = { kind: 'api'; scope: Scope } | { kind: 'public' } | { kind: 'control' };

/** One operation: method, path pattern (`/api/v2/entity_validations/:id`) and its handler. */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  pattern: string;
  /** Operation name for the journal and the contract report (the OpenAPI operationId where there is one). */
  operation: string;
  access: RouteAccess;
  /**
   * Answering it changes no state (a plain read). Every other request, and every timer the clock
   * fires, may change state, which is what `RouteContext.stateVersion` counts.
   */
  pure?: boolean;
  /**
   * Served under `/_mock` for a person, not for the client under test (the dashboard's page and assets):
   * open like a public route, but never recorded in the journal nor hit by injected faults, so a browser
   * left open changes no test's outcome.
   */
  forPeople?: boolean;
  /**
   * Its answer is heavy to make (a control list page, up to a megabyte of JSON): requests to it take turns, one
   * at a time with a rest after each (Pacer), so a crowd of them never holds up other requests.
   */
  paced?: boolean;
  /** How its errors are written: the API's one shape (default), or RFC 6749 §5.2's for the token endpoint. */
  errorForm?: 'api' | 'oauth2';
  /** What the OpenAPI document says of it; every operation of the API has one (the document is built from these). */
  document?: OperationDocument;
  handle(context: RouteContext): CoreResponse | Promise<CoreResponse>;
}

/** A matched route and its path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

interface CompiledRoute {
  route: Route;
  segments: Array<{ literal: string } | { param: string }>;
}

/**
 * The route table, compiled once at start: static paths answer from a map,
 * patterns with parameters from a short list per segment count. A path that
 * matches under another method answers 405 with `Allow`, anything else 404.
 */
export class Router {
  private readonly exact = new Map<string, Map<string, Route>>();
  private readonly bySegments = new Map<number, CompiledRoute[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const segments = route.pattern.split('/').slice(1);
      if (segments.every((segment) => !segment.startsWith(':'))) {
        const methods = this.exact.get(route.pattern) ?? new Map<string, Route>();
        if (methods.has(route.method)) throw new Error(`bvs-mock: two routes for ${route.method} ${route.pattern}`);
        methods.set(route.method, route);
        this.exact.set(route.pattern, methods);
        continue;
      }
      const list = this.bySegments.get(segments.length) ?? [];
      list.push({ route, segments: segments.map((segment) => (segment.startsWith(':') ? { param: segment.slice(1) } : { literal: segment })) });
      this.bySegments.set(segments.length, list);
    }
  }

  /** The route for `method` and `path`; throws the 404 or 405 problem when there is none. */
  match(method: string, path: string): RouteMatch {
    const exact = this.exact.get(path);
    if (exact) {
      const route = exact.get(method);
      if (route) return { route, params: {} };
    }
    const allowed = exact ? [...exact.keys()] : [];
    const segments = path.split('/').slice(1);
    for (const candidate of this.bySegments.get(segments.length) ?? []) {
      const params = matchSegments(candidate.segments, segments);
      if (!params) continue;
      if (candidate.route.method === method) return { route: candidate.route, params };
      allowed.push(candidate.route.method);
    }
    if (allowed.length > 0) throw problems.methodNotAllowed(method, path, [...new Set(allowed)]);
    throw problems.routeNotFound(method, path);
  }
}

function matchSegments(pattern: CompiledRoute['segments'], segments: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i += 1) {
    const part = pattern[i]!;
    const segment = segments[i]!;
    if ('literal' in part) {
      if (part.literal !== segment) return undefined;
    } else {
      if (segment === '') return undefined;
      try {
        params[part.param] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    }
  }
  return params;
}
