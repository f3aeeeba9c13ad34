import type { Route } from '../router';
import { certificateRoute } from './certificate-route';
import { controlRoutes } from './control-routes';
import { dashboardRoutes } from './dashboard-routes';
import { deliveryRoutes } from './delivery-routes';
import { driftRoute } from './drift-route';
import { controlDocumentRoutes } from './openapi-routes';
import { receiverCheckRoutes } from './receiver-check-routes';
import { reportRoute } from './report-route';
import { sessionRoutes } from './session-routes';
import { snapshotRoute } from './snapshot-route';

/**
 * Every operation of the control API (`/_mock/...`), each with its document: what `openapi/control.yaml`
 * is built from. The pre-signed files and the recipient page live under `/_mock` too, but they are URLs
 * found in payloads, not operations a test calls, so they are not in it.
 */
export function controlOperations() {
  return [
    ...controlRoutes,
    certificateRoute,
    ...deliveryRoutes,
    ...receiverCheckRoutes,
    reportRoute,
    driftRoute,
    ...dashboardRoutes,
    ...controlDocumentRoutes(),
    ...sessionRoutes,
    snapshotRoute,
  ] satisfies Route[];
}

/**
 * One control operation as declared, with its literal method, pattern and operation name and the zod
 * schemas of its document: what the typed control client (src/client/control-contract.ts) is derived from.
 */
export type ControlRoute = ReturnType<typeof controlOperations>[number];
