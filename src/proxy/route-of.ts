import { Router, type Route } from '../api/router';
import { apiOperations } from '../api/routes/api-operations';
import { fileRoutes } from '../api/routes/file-routes';

/** The routes of the service's API and files: what the proxy forwards and checks, and what a recording's exchanges name. */
export function serviceRouter(): Router {
  return new Router([...apiOperations, ...fileRoutes]);
}

/** The route a request names, or undefined for a path or method the API does not have (HEAD reads as GET). */
export function routeOf(router: Router, method: string, path: string): Route | undefined {
  try {
    return router.match(method === 'HEAD' ? 'GET' : method, path).route;
  } catch {
    return undefined;
  }
}
