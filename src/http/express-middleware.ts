import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiCore } from './api-core';

/**
 * A connect-style middleware, as express mounts it. Written out here so bvs-mock's types need no
 * express types (a consumer with `skipLibCheck: false` and no `@types/express` still compiles).
 */
export type ConnectMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;
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
export function bvsMockMiddleware(core: ApiCore): ConnectMiddleware {
  // Loaded when used, as msw is (msw-handlers.ts): importing bvs-mock never loads msw.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createMiddleware } = require('@mswjs/http-middleware') as typeof import('@mswjs/http-middleware');
  return createMiddleware(...createHandlers(core)) as unknown as ConnectMiddleware;
}
