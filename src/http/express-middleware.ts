import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiCore } from '../api/api-core';
import { answerNodeRequest } from './answer-node-request';

/**
 * A connect-style middleware, as express mounts it. Written out here so bvs-mock's types need no
 * express types (a consumer with `skipLibCheck: false` and no `@types/express` still compiles).
 */
export type ConnectMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * bvs-mock as an express (or connect) middleware, to mount inside a user's own express app: every request
 * that reaches it is answered by bvs-mock's node transport, as `bvs-mock serve` answers it (no msw, no express
 * of bvs-mock's own; docs/decisions/0003-msw-once.md). Requests reach it over plain HTTP, so create the mock
 * with `requireHttps: false` unless a TLS-terminating server is in front (behind a proxy, express's
 * `trust proxy` setting makes `X-Forwarded-Proto: https` count as HTTPS).
 *
 * @example
 * const mock = createMock({ requireHttps: false });
 * app.use('/', bvsMockMiddleware(mock.core));
 */
export function bvsMockMiddleware(core: ApiCore): ConnectMiddleware {
  return (request, response, next) => {
    // express's `req.protocol`: https over TLS, or from X-Forwarded-Proto when the app trusts its proxy.
    const protocol = (request as { protocol?: unknown }).protocol;
    const secure = typeof protocol === 'string' ? protocol === 'https' : undefined;
    answerNodeRequest(core, request, response, { secure, body: parsedBody(request) }).catch(next);
  };
}

/**
 * The body a parser mounted before bvs-mock (express.json(), express.text(), express.raw(), express.urlencoded())
 * already read off the request, as bytes again; undefined when the request still holds its body.
 */
function parsedBody(request: IncomingMessage): Buffer | undefined {
  if (!request.readableEnded) return undefined;
  const body = (request as { body?: unknown }).body;
  if (body === undefined || body === null) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (typeof body === 'string') return Buffer.from(body);
  // An object: JSON or a form, as the request's content type says.
  if (/^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? ''))
    return Buffer.from(
      new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([name, value]): [string, string] => [name, String(value)])).toString(),
    );
  return Buffer.from(JSON.stringify(body));
}
