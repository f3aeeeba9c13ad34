import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiCore } from './api-core';

/**
 * A connect-style middleware, as express mounts it. Written out here so bvs-mock's types need no
 * express types (a consumer with `skipLibCheck: false` and no `@types/express` still compiles).
 */
export type ConnectMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;
import { handlersWith } from './msw-handlers';
import { vendoredMsw } from './vendored-msw';

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
  // bvs-mock's bundled msw, loaded when used: importing bvs-mock never loads msw, and a stock jest runs it.
  const { createMiddleware, http } = vendoredMsw();
  return createMiddleware(...handlersWith(http, core)) as unknown as ConnectMiddleware;
}
