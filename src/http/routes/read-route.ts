import type { Engine } from '../../engine';
import type { Scope } from '../../schemas';
import { problems } from '../api-problem';
import { jsonResponse } from '../core-types';
import type { Route } from '../router';

/** Options of {@link readRoute}. */
export interface ReadRouteOptions {
  pattern: string;
  operation: string;
  scope: Scope;
  /** What the id names, for the 404 message ("entity validation"). */
  what: string;
  /** Reads the resource of the caller's organization, or undefined. */
  read: (engine: Engine, organizationId: string, id: string) => unknown;
}

/**
 * A `GET .../:id` operation: the resource of the caller's organization, or 404.
 * Another organization's id is simply not found (DESIGN.md, The API).
 */
export function readRoute(options: ReadRouteOptions): Route {
  return {
    method: 'GET',
    pattern: options.pattern,
    operation: options.operation,
    access: { kind: 'api', scope: options.scope },
    handle(context) {
      const id = context.params.id!;
      const resource = options.read(context.services.engine, context.organizationId, id);
      if (resource === undefined) throw problems.notFound(options.what, id);
      return jsonResponse(200, resource);
    },
  };
}
