import { timingSafeEqual } from 'node:crypto';
import type { ApiCore } from '../api/api-core';
import type { CoreRequest, CoreResponse } from '../api/core-types';
import { toolDashboard } from '../api/routes/dashboard-page-routes';
import { WebhookRelay, type WebhookRelayOptions } from './webhook-relay';

/** The path of the relay's report; every other path under `/_mock/` but the dashboard's is 404, and every POST elsewhere is a delivery. */
export const RELAY_REPORT_PATH = '/_mock/relay';

/** A delivery body larger than this is refused with 413: the service's payloads are a few hundred KB at most (a 50-partner tree). */
const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Options of {@link createRelayCore}. */
export interface RelayCoreOptions extends WebhookRelayOptions {
  /** With it, `GET /_mock/relay` needs `Authorization: Bearer <token>` (the deliveries carry company data). */
  controlToken?: string;
  /** Whether it is served over TLS: then a plain HTTP request reaching its port is refused, not relayed. */
  tls: boolean;
}

/** The relay: an {@link ApiCore} the node transport serves, and the relay it answers with. */
export interface RelayCore extends ApiCore {
  readonly relay: WebhookRelay;
}

function text(status: number, body: string, headers: Record<string, string> = {}): CoreResponse {
  return { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers }, body };
}

function authorized(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `bvs-mock listen`'s answers: every POST whose path is not under `/_mock/` is a delivery (the path is kept in its
 * record; the receiver gets it at `--forward-to` as given), `GET /_mock/relay` answers the deliveries and findings,
 * and `GET /_mock/` the dashboard's view of them. The node transport (src/http/node-server.ts) serves it with the
 * connection limits and timeouts of `bvs-mock serve`.
 */
export function createRelayCore(options: RelayCoreOptions): RelayCore {
  const relay = new WebhookRelay(options);
  const dashboard = toolDashboard('listen');
  return {
    relay,
    bodyLimit: MAX_BODY_BYTES,
    bodyLimitFor: () => MAX_BODY_BYTES,
    async handle(request: CoreRequest): Promise<CoreResponse> {
      const { path } = request;
      if (options.tls && !request.secure)
        return text(400, 'bvs-mock listen: this port serves HTTPS; send the delivery to the https:// URL the relay printed at start', { connection: 'close' });
      const page = dashboard(request);
      if (page !== null) return page;
      if (path.startsWith('/_mock/')) {
        if (path !== RELAY_REPORT_PATH)
          return text(404, `bvs-mock listen: no ${path}; the relay answers GET ${RELAY_REPORT_PATH} and its dashboard at /_mock/`);
        if (request.method !== 'GET') return text(405, `bvs-mock listen: ${RELAY_REPORT_PATH} answers GET only`, { allow: 'GET' });
        if (!authorized(request.headers.authorization, options.controlToken))
          return text(401, `bvs-mock listen: ${RELAY_REPORT_PATH} needs Authorization: Bearer <the --control-token>`, {
            'www-authenticate': 'Bearer realm="bvs-mock listen"',
          });
        return { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(relay.report()) };
      }
      if (request.method !== 'POST') return text(405, 'bvs-mock listen: webhook deliveries are POST requests', { allow: 'POST' });
      if (request.body.length > MAX_BODY_BYTES) return text(413, `bvs-mock listen: a delivery of more than ${MAX_BODY_BYTES} bytes is refused`);
      const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, value]])));
      const answer = await relay.relay({ path, headers, body: request.body.toString('utf8') });
      return text(answer.status, answer.body);
    },
  };
}
