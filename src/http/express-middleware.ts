import { createMiddleware } from '@mswjs/http-middleware';
import type { ApiCore } from './api-core';
import { createHandlers } from './msw-handlers';

/**
 * bvs-mock as an express middleware, to mount inside a user's own express app
 * (through `@mswjs/http-middleware`, with the same msw handlers as in-process use).
 * Requests reach it over plain HTTP, so create the mock with `requireHttps: false`
 * unless a TLS-terminating server is in front.
 *
 * @example
 * const mock = createMock({ requireHttps: false });
 * app.use('/', bvsMockMiddleware(mock.core));
 */
export function bvsMockMiddleware(core: ApiCore): ReturnType<typeof createMiddleware> {
  return createMiddleware(...createHandlers(core));
}
