import type { HttpHandler } from 'msw';
import type { ApiCore } from '../api/api-core';
import { fromFetchRequest, toFetchResponse } from './fetch-adapter';

/**
 * The msw request handlers of bvs-mock: one handler that hands every request
 * under `baseUrl` to the core. Use them with msw's `setupServer` to intercept
 * `fetch` in-process (no ports), or with `@mswjs/http-middleware` inside an
 * express app; `bvs-mock serve` reaches the same core through node's server.
 *
 * @example
 * const mock = createMock({ clock: 'manual' });
 * const server = setupServer(...createHandlers(mock.core, 'https://bvs.test'));
 * server.listen();
 * await fetch('https://bvs.test/api/v2/webhook_endpoints', { headers: { authorization: 'Bearer test_key_default' } });
 */
export function createHandlers(core: ApiCore, baseUrl = '*'): HttpHandler[] {
  // The project's own msw, loaded when handlers are made (not when bvs-mock is imported): these go to the
  // caller's msw server, which must get handlers of its own copy of msw.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return handlersWith((require('msw') as typeof import('msw')).http, core, { baseUrl, inProcess: true });
}

/**
 * The handlers, made with a given msw's `http` (bvs-mock's bundled one for its own transports, vendored-msw.ts).
 * `inProcess`: msw intercepts the requests in this process (createHandlers), rather than express receiving them.
 */
export function handlersWith(
  http: (typeof import('msw'))['http'],
  core: ApiCore,
  { baseUrl = '*', inProcess }: { baseUrl?: string; inProcess: boolean },
): HttpHandler[] {
  const pattern = baseUrl === '*' ? '*' : `${baseUrl.replace(/\/+$/, '')}/*`;
  return [http.all(pattern, async ({ request }) => toFetchResponse(await core.handle(await fromFetchRequest(request, { inProcess })), request.signal))];
}
