import type { HttpHandler } from 'msw';
import type { ApiCore } from '../api/api-core';
import { fromFetchRequest, toFetchResponse } from './fetch-adapter';

/**
 * The msw request handlers of bvs-mock: one handler that hands every request
 * under `baseUrl` to the core. Use them with your msw's `setupServer` to intercept
 * `fetch` in-process (no ports); `bvs-mock serve` and the express middleware reach
 * the same core through node's server.
 *
 * @example
 * const mock = createMock({ clock: 'manual' });
 * const server = setupServer(...createHandlers(mock.core, 'https://bvs.test'));
 * server.listen();
 * await fetch('https://bvs.test/api/v2/webhook_endpoints', { headers: { authorization: 'Bearer test_key_default' } });
 */
export function createHandlers(core: ApiCore, baseUrl = '*'): HttpHandler[] {
  return handlersWith(projectMsw().http, core, { baseUrl, inProcess: true });
}

/**
 * The project's own msw (bvs-mock's optional peer dependency), loaded when handlers are made, not when bvs-mock is
 * imported: the handlers go to the project's msw server, which must get handlers of its own copy of msw.
 */
function projectMsw(): typeof import('msw') {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('msw') as typeof import('msw');
  } catch (error) {
    throw new Error(
      "bvs-mock/msw: createHandlers needs msw 2 in your project, for your own msw server (`npm install --save-dev msw`); startBvsMock({ transport: 'in-process' }) from bvs-mock/testing needs none",
      { cause: error },
    );
  }
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
