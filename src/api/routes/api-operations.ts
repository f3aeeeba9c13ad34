import type { Route } from '../router';
import { apiRoutes } from './api-routes';
import { extensionRoutes } from './extension-routes';
import { oauthTokenRoute } from './oauth-token-route';

/**
 * The operations of the service's API (spec §4 and its "Other operations"), each with the
 * description the OpenAPI document is built from (src/openapi/register-routes.ts).
 */
export const apiOperations: readonly Route[] = [oauthTokenRoute, ...apiRoutes, ...extensionRoutes];

/**
 * The operationIds of the API's document, in its order (grouped by path, as OpenAPI writes them): what the
 * contract report counts as exercised or not. A test keeps this list and the built document equal.
 */
export const DOCUMENTED_API_OPERATIONS: readonly string[] = Object.freeze(documentOrder(apiOperations.filter((route) => route.document !== undefined)));

/**
 * The documented operations at paths of bvs-mock's choosing (`x-bvs-mock-extension`, docs/fidelity.md row 18): the
 * contract report counts them apart, so a team is never nudged to depend on paths the real service may not have.
 */
export const EXTENSION_API_OPERATIONS: readonly string[] = Object.freeze(
  documentOrder(apiOperations.filter((route) => route.document !== undefined && route.document.extension === true)),
);

function documentOrder(routes: readonly Route[]): string[] {
  const byPath = new Map<string, string[]>();
  for (const route of routes) byPath.set(route.pattern, [...(byPath.get(route.pattern) ?? []), route.operation]);
  return [...byPath.values()].flat();
}
