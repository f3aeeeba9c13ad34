import type { Route } from '../router';
import { apiRoutes } from './api-routes';
import { extensionRoutes } from './extension-routes';
import { oauthTokenRoute } from './oauth-token-route';

/**
 * The operations of the service's API (spec §4 and its "Other operations"), each with the
 * description the OpenAPI document is built from (src/openapi/register-routes.ts).
 */
export const apiOperations: readonly Route[] = [oauthTokenRoute, ...apiRoutes, ...extensionRoutes];
