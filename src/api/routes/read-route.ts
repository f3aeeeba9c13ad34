import type { Engine } from '../../engine';
import type { Scope } from '../../schemas';
import { problems } from '../api-problem';
import { JSON_CONTENT_TYPE, jsonResponse } from '../core-types';
import type { OperationDocument } from '../operation-document';
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
  /**
   * `read` changes no state: the answer is then kept, serialized, until state may have changed
   * (`RouteContext.stateVersion`), so polling a settled validation costs no rendering (bench:api).
   */
  pure?: boolean;
  /** What the OpenAPI document says of it. */
  document: OperationDocument;
}

/**
 * A `GET .../:id` operation: the resource of the caller's organization, or 404.
 * Another organization's id is simply not found (docs/design.md, The API).
 */
export function readRoute(options: ReadRouteOptions): Route {
  return {
    method: 'GET',
    pattern: options.pattern,
    operation: options.operation,
    access: { kind: 'api', scope: options.scope },
    pure: options.pure,
    document: options.document,
    handle(context) {
      const id = context.params.id!;
      const { answers } = context.world;
      const key = `${options.operation}\u0000${context.organizationId}\u0000${id}`;
      const cached = options.pure ? answers.get(key, context.stateVersion, context.world.clock.now()) : undefined;
      if (cached !== undefined) return { status: 200, headers: { 'content-type': JSON_CONTENT_TYPE }, body: cached };
      const resource = options.read(context.world.engine, context.organizationId, id);
      if (resource === undefined) throw problems.notFound(options.what, id);
      const answer = jsonResponse(200, resource);
      if (!options.pure) return answer;
      const body = Buffer.from(answer.body as string);
      answers.set(key, context.stateVersion, body);
      return { ...answer, body };
    },
  };
}
