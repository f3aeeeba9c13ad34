import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiCore } from '../api/api-core';

/**
 * A connect-style middleware, as express mounts it. Written out here so bvs-mock's types need no
 * express types (a consumer with `skipLibCheck: false` and no `@types/express` still compiles).
 */
export type ConnectMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;
import { handlersWith } from './msw-handlers';
import { answerNodeRequest } from './node-server';
import { CHANGE_STREAM_PATH } from '../api/routes/dashboard-routes';
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
  const middleware = createMiddleware(...handlersWith(http, core, { inProcess: false })) as unknown as ConnectMiddleware;
  return (request, response, next) => {
    // msw's middleware pipes a streamed body but never cancels it when the client hangs up, which would keep
    // every closed dashboard tab subscribed to the change stream: that one answer comes from bvs-mock's own
    // node transport, which lets go when the connection closes.
    if (request.method === 'GET' && (request.url ?? '').split('?')[0] === CHANGE_STREAM_PATH) {
      // No body limit to speak of: a GET of the stream has none, and one byte of body is answered 413.
      answerNodeRequest(core, request, response, 0).catch(next);
      return;
    }
    middleware(request, response, next);
  };
}
